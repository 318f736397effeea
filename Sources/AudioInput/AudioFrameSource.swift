/// A pull-based source of 16 kHz mono 16-bit audio, read chunk by chunk (a decoded clip now, a microphone later).
///
/// Thread rule: a source is used by one task at a time; implementations say whether they are `Sendable`.
public protocol AudioFrameSource {
    /// Returns the next at most `maxSamples` samples (fewer near the end, never empty), or nil once the audio has ended.
    mutating func nextChunk(maxSamples: Int) throws -> [Int16]?
}

/// Serves an ``AudioClip``'s samples in chunks, in order.
public struct AudioClipFrameSource: AudioFrameSource, Sendable {
    /// The clip being served.
    public let clip: AudioClip
    /// Index of the next sample to serve.
    public private(set) var position = 0

    /// Starts serving `clip` from its first sample.
    public init(clip: AudioClip) {
        self.clip = clip
    }

    /// Returns the next at most `maxSamples` samples, or nil after the last one.
    public mutating func nextChunk(maxSamples: Int) -> [Int16]? {
        precondition(maxSamples > 0, "maxSamples must be positive")
        guard position < clip.samples.count else { return nil }
        let end = min(position + maxSamples, clip.samples.count)
        defer { position = end }
        return Array(clip.samples[position..<end])
    }
}
