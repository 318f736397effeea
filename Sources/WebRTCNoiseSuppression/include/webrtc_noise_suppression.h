#ifndef WEBRTC_NOISE_SUPPRESSION_H
#define WEBRTC_NOISE_SUPPRESSION_H
#ifdef __cplusplus
extern "C" {
#endif

/// One webrtc::AudioProcessing with only its noise suppressor on.
typedef struct webrtc_noise_suppressor webrtc_noise_suppressor;

/// A suppressor at `level` (0 low … 3 very high); NULL when the library refuses.
webrtc_noise_suppressor *webrtc_noise_suppressor_create(int level);
/// Frees what `webrtc_noise_suppressor_create` made.
void webrtc_noise_suppressor_destroy(webrtc_noise_suppressor *suppressor);
/// Suppresses noise in one 10 ms frame of mono float samples (-1…1), in place; returns the library's error code (0 is success).
int webrtc_noise_suppressor_process(webrtc_noise_suppressor *suppressor, float *frame, int sample_rate_hz);

#ifdef __cplusplus
}
#endif
#endif
