import WebRTCNoiseSuppression

/// WebRTC's noise suppressor (libwebrtc-audio-processing, through the C functions of `WebRTCNoiseSuppression`) as an
/// `AudioPreprocessor`: only its noise suppression, no gain control or high-pass filter, on 10 ms frames.
///
/// Each clip gets a fresh suppressor. WebRTC learns the noise over its first frames; with `primesNoiseEstimate` the
/// clip is run through once unheard, then again, so its start is cleaned with an estimate of its own noise.
public struct WebRTCDenoiser: AudioPreprocessor {
    /// Aggressiveness: 0 low, 1 moderate, 2 high, 3 very high.
    public let level: Int
    /// Run the clip through once before processing it.
    public let primesNoiseEstimate: Bool

    /// A denoiser at `level`; throws when the library refuses it.
    public init(level: Int = 2, primesNoiseEstimate: Bool = true) throws(WebRTCError) {
        self.level = level
        self.primesNoiseEstimate = primesNoiseEstimate
        _ = try WebRTCNoiseSuppressor(level: level)
    }

    /// The samples with noise suppressed; same length and timing.
    public func process(_ samples: [Int16], sampleRate: Int) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        let suppressor: WebRTCNoiseSuppressor
        do {
            suppressor = try WebRTCNoiseSuppressor(level: level)
        } catch {
            preconditionFailure("WebRTC refused settings it accepted before: \(error)")
        }
        let frameSamples = sampleRate / 100
        let lag = WebRTCNoiseSuppressor.lagSamples(sampleRate: sampleRate)
        var padded = samples.map { Float($0) / 32768 }
        padded += repeatElement(0, count: (frameSamples - (samples.count + lag) % frameSamples) % frameSamples + lag)
        if primesNoiseEstimate {
            var scratch = padded
            suppressor.process(&scratch, frameSamples: frameSamples, sampleRate: sampleRate)
        }
        suppressor.process(&padded, frameSamples: frameSamples, sampleRate: sampleRate)
        return padded[lag..<lag + samples.count].map { value in
            Int16(clamping: Int((value * 32768).rounded()))
        }
    }
}

/// Why WebRTC's audio processing could not be set up or failed on a frame: the call and its error code.
public struct WebRTCError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call that failed.
    public var operation: String
    /// The library's error code (0 when it only returned nothing).
    public var code: Int32
    /// What went wrong.
    public var message: String

    public var description: String { "WebRTC audio processing \(operation) failed (\(code)): \(message)" }
}

/// Owns one `webrtc::AudioProcessing` (through `webrtc_noise_suppressor`), destroyed in `deinit`.
///
/// Thread rule: it holds the running noise estimate; use it from one thread at a time. Not `Sendable`.
final class WebRTCNoiseSuppressor {
    private let handle: OpaquePointer

    /// How far the output lags the input: 6 ms (96 samples at 16 kHz, measured by cross-correlation; its analysis
    /// window is 256 samples long and moves by 160).
    static func lagSamples(sampleRate: Int) -> Int { sampleRate * 6 / 1000 }

    init(level: Int) throws(WebRTCError) {
        guard let handle = webrtc_noise_suppressor_create(Int32(level)) else {
            throw WebRTCError(operation: "webrtc_noise_suppressor_create", code: 0,
                              message: "no noise suppressor at level \(level) (levels are 0 to 3)")
        }
        self.handle = handle
    }

    deinit { webrtc_noise_suppressor_destroy(handle) }

    /// Processes `samples` (a whole number of `frameSamples` frames) in place, frame by frame.
    func process(_ samples: inout [Float], frameSamples: Int, sampleRate: Int) {
        precondition(samples.count % frameSamples == 0, "WebRTC frames must hold \(frameSamples) samples")
        samples.withUnsafeMutableBufferPointer { buffer in
            for start in stride(from: 0, to: buffer.count, by: frameSamples) {
                let result = webrtc_noise_suppressor_process(handle, buffer.baseAddress! + start, Int32(sampleRate))
                precondition(result == 0, "WebRTC refused a \(frameSamples)-sample frame at \(sampleRate) Hz (\(result))")
            }
        }
    }
}
