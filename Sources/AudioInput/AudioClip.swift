/// Decoded audio ready for the recognizer: 16 kHz mono signed 16-bit samples, plus what the original file was.
///
/// A value type; safe to share between tasks.
public struct AudioClip: Sendable, Equatable {
    /// The only sample rate clips are stored at, in samples per second (what PocketSphinx's en-us model expects).
    public static let sampleRate = 16000

    /// Mono samples at ``sampleRate``, full scale ±32767.
    public var samples: [Int16]

    /// What the audio was before decoding: container, codec, original rate, channels and sample format.
    public var source: AudioSourceInfo

    /// Creates a clip from samples that are already 16 kHz mono.
    public init(samples: [Int16], source: AudioSourceInfo) {
        self.samples = samples
        self.source = source
    }

    /// Length of the clip in seconds.
    public var duration: Double { Double(samples.count) / Double(Self.sampleRate) }
}

/// Describes the audio a clip was decoded from, before downmixing and resampling.
public struct AudioSourceInfo: Sendable, Equatable, Codable {
    /// Container or file type, e.g. "WAV", "FLAC", "Ogg", "MP3", "MP4", "raw".
    public var container: String
    /// Codec or encoding, e.g. "PCM", "µ-law", "Vorbis", "Opus", "MPEG Layer III", "AAC".
    public var codec: String
    /// Sample rate of the original audio in samples per second.
    public var sampleRate: Int
    /// Number of channels in the original audio (downmixed to one by averaging).
    public var channelCount: Int
    /// Sample format of the original audio, e.g. "16-bit integer", "32-bit float", "8-bit unsigned integer".
    public var sampleFormat: String
    /// The library that decoded it: "libsndfile", "FFmpeg" or "built-in" (raw PCM).
    public var decoder: String

    /// Creates a description of original audio.
    public init(container: String, codec: String, sampleRate: Int, channelCount: Int, sampleFormat: String, decoder: String) {
        self.container = container
        self.codec = codec
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.sampleFormat = sampleFormat
        self.decoder = decoder
    }
}
