// A C face for WebRTC's noise suppressor (webrtc::AudioProcessing, C++), so Swift can own one through an opaque handle.
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#include "webrtc_noise_suppression.h"

struct webrtc_noise_suppressor {
    webrtc::AudioProcessing *processing;
};

extern "C" webrtc_noise_suppressor *webrtc_noise_suppressor_create(int level) {
    webrtc::AudioProcessing *processing = webrtc::AudioProcessing::Create();
    if (processing == nullptr) return nullptr;
    if (level < webrtc::NoiseSuppression::kLow || level > webrtc::NoiseSuppression::kVeryHigh ||
        processing->noise_suppression()->set_level(static_cast<webrtc::NoiseSuppression::Level>(level)) != 0 ||
        processing->noise_suppression()->Enable(true) != 0 || processing->high_pass_filter()->Enable(false) != 0 ||
        processing->gain_control()->Enable(false) != 0) {
        delete processing;
        return nullptr;
    }
    return new webrtc_noise_suppressor{processing};
}

extern "C" void webrtc_noise_suppressor_destroy(webrtc_noise_suppressor *suppressor) {
    if (suppressor == nullptr) return;
    delete suppressor->processing;
    delete suppressor;
}

extern "C" int webrtc_noise_suppressor_process(webrtc_noise_suppressor *suppressor, float *frame, int sample_rate_hz) {
    webrtc::StreamConfig config(sample_rate_hz, 1);
    float *channels[1] = {frame};
    return suppressor->processing->ProcessStream(channels, config, config, channels);
}
