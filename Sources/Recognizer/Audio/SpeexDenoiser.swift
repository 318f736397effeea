import CSpeexDSP

/// SpeexDSP's preprocessor as an `AudioPreprocessor`: its noise suppressor only (no gain control, voice detection or
/// dereverberation), on frames of `frameSamples`.
///
/// Each clip gets a fresh `SpeexPreprocessState`, so clips never leak noise estimates into each other and the value
/// is safe to share between recognizers. The preprocessor adapts its noise estimate as it goes; `primesNoiseEstimate`
/// first runs the whole clip through its estimator (`speex_preprocess_estimate_update`) so the clip's first frames
/// are already cleaned with an estimate of the clip's own noise.
public struct SpeexDenoiser: AudioPreprocessor {
    /// Samples per frame handed to the library (10 or 20 ms at 16 kHz).
    public let frameSamples: Int
    /// Most attenuation of noise, in dB (negative; the library's default is -15).
    public let noiseSuppressDecibels: Int
    /// Estimate the clip's noise over the whole clip before processing it.
    public let primesNoiseEstimate: Bool

    /// Frame sizes this wrapper accepts: 10 and 20 ms at 16 kHz.
    public static let supportedFrameSamples = [160, 320]

    /// A denoiser with the given settings; throws when the library refuses them.
    public init(frameSamples: Int = 320, noiseSuppressDecibels: Int = -15, primesNoiseEstimate: Bool = true,
                sampleRate: Int = 16_000) throws(SpeexDSPError) {
        guard Self.supportedFrameSamples.contains(frameSamples) else {
            throw SpeexDSPError(operation: "speex_preprocess_state_init", code: 0,
                                message: "frames of \(frameSamples) samples are not supported; use one of \(Self.supportedFrameSamples)")
        }
        guard noiseSuppressDecibels < 0 else {
            throw SpeexDSPError(operation: "SPEEX_PREPROCESS_SET_NOISE_SUPPRESS", code: 0,
                                message: "the noise suppression must be a negative number of dB, not \(noiseSuppressDecibels)")
        }
        self.frameSamples = frameSamples
        self.noiseSuppressDecibels = noiseSuppressDecibels
        self.primesNoiseEstimate = primesNoiseEstimate
        // Create one state now, so a refusal surfaces as an error here rather than later, inside a decode.
        _ = try SpeexPreprocessState(frameSamples: frameSamples, sampleRate: sampleRate, noiseSuppressDecibels: noiseSuppressDecibels)
    }

    /// The samples with noise suppressed; same length and timing. The last partial frame is processed zero-padded.
    public func process(_ samples: [Int16], sampleRate: Int) -> [Int16] {
        guard !samples.isEmpty else { return samples }
        let state: SpeexPreprocessState
        do {
            state = try SpeexPreprocessState(frameSamples: frameSamples, sampleRate: sampleRate, noiseSuppressDecibels: noiseSuppressDecibels)
        } catch {
            // The same settings were accepted in init; only an allocation failure can get here.
            preconditionFailure("SpeexDSP refused settings it accepted before: \(error)")
        }
        // The library's output lags its input by one frame (its overlap-add holds half a window): one frame of zeros
        // more at the end, and the first frame of output dropped, keep the clip's timing.
        var padded = samples
        padded += repeatElement(0, count: (frameSamples - samples.count % frameSamples) % frameSamples + frameSamples)
        if primesNoiseEstimate {
            for start in stride(from: 0, to: padded.count, by: frameSamples) {
                state.updateEstimate(&padded[start..<start + frameSamples])
            }
        }
        for start in stride(from: 0, to: padded.count, by: frameSamples) {
            state.run(&padded[start..<start + frameSamples])
        }
        return Array(padded[frameSamples..<frameSamples + samples.count])
    }
}

/// Why SpeexDSP could not be set up: the call and the library's return code (it has no messages of its own).
public struct SpeexDSPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C call or control request that failed.
    public var operation: String
    /// What it returned.
    public var code: Int32
    /// What went wrong.
    public var message: String

    public var description: String { "SpeexDSP \(operation) failed (\(code)): \(message)" }
}

/// Owns one `SpeexPreprocessState`, destroyed in `deinit`.
///
/// Thread rule: the state is the library's running noise estimate; use it from one thread at a time. Not `Sendable`.
final class SpeexPreprocessState {
    private let handle: OpaquePointer
    /// Samples in each frame passed to `run` and `updateEstimate`.
    let frameSamples: Int

    /// A state for frames of `frameSamples` at `sampleRate`, with only the denoiser on (voice detection is off by
    /// default, and setting it, even off, prints a warning).
    init(frameSamples: Int, sampleRate: Int, noiseSuppressDecibels: Int) throws(SpeexDSPError) {
        guard let handle = speex_preprocess_state_init(Int32(frameSamples), Int32(sampleRate)) else {
            throw SpeexDSPError(operation: "speex_preprocess_state_init", code: 0,
                                message: "no state for \(frameSamples)-sample frames at \(sampleRate) Hz")
        }
        self.handle = handle
        self.frameSamples = frameSamples
        try control(SPEEX_PREPROCESS_SET_DENOISE, 1, "SPEEX_PREPROCESS_SET_DENOISE")
        try control(SPEEX_PREPROCESS_SET_NOISE_SUPPRESS, Int32(noiseSuppressDecibels), "SPEEX_PREPROCESS_SET_NOISE_SUPPRESS")
        try control(SPEEX_PREPROCESS_SET_AGC, 0, "SPEEX_PREPROCESS_SET_AGC")
        try control(SPEEX_PREPROCESS_SET_DEREVERB, 0, "SPEEX_PREPROCESS_SET_DEREVERB")
    }

    deinit { speex_preprocess_state_destroy(handle) }

    private func control(_ request: Int32, _ value: Int32, _ name: String) throws(SpeexDSPError) {
        var value = value
        let result = speex_preprocess_ctl(handle, request, &value)
        guard result == 0 else {
            throw SpeexDSPError(operation: name, code: result, message: "the preprocessor refused the value \(value)")
        }
    }

    /// Denoises one frame in place (exactly `frameSamples` samples).
    func run(_ frame: inout ArraySlice<Int16>) {
        precondition(frame.count == frameSamples, "SpeexDSP frames must hold \(frameSamples) samples")
        frame.withUnsafeMutableBufferPointer { _ = speex_preprocess_run(handle, $0.baseAddress) }
    }

    /// Updates the noise estimate from one frame without changing it.
    func updateEstimate(_ frame: inout ArraySlice<Int16>) {
        precondition(frame.count == frameSamples, "SpeexDSP frames must hold \(frameSamples) samples")
        frame.withUnsafeMutableBufferPointer { speex_preprocess_estimate_update(handle, $0.baseAddress) }
    }
}
