/// A step applied to an utterance's samples before the final decode (denoising, gain, filtering).
///
/// Implementations must be pure and thread-safe: one value is shared by every recognizer of a configuration.
public protocol AudioPreprocessor: Sendable {
    /// Returns the samples to decode, at the same rate (`sampleRate` Hz, mono, 16-bit).
    func process(_ samples: [Int16], sampleRate: Int) -> [Int16]
}

/// Leaves the audio as it is: the default.
public struct IdentityPreprocessor: AudioPreprocessor {
    /// The identity preprocessor.
    public init() {}

    /// Returns `samples` unchanged.
    public func process(_ samples: [Int16], sampleRate: Int) -> [Int16] { samples }
}
