/// A failure reported by one of the C libraries: which library, what it was doing, its return code and its own message.
public struct AudioLibraryFailure: Error, Sendable, Equatable {
    /// "libsndfile", "FFmpeg" or "libsoxr".
    public var library: String
    /// The C call that failed, e.g. "sf_open_virtual" or "avcodec_send_packet".
    public var operation: String
    /// The C return code (0 when the library reports only a message).
    public var code: Int32
    /// The library's own message, e.g. "Format not recognised." or "Invalid data found when processing input".
    public var message: String

    /// Creates a library failure record.
    public init(library: String, operation: String, code: Int32, message: String) {
        self.library = library
        self.operation = operation
        self.code = code
        self.message = message
    }
}

/// Why an audio file or buffer could not be decoded into an ``AudioClip``.
///
/// Every case carries the path (or the name given for in-memory data, such as "-" for standard input).
public enum AudioDecodeError: Error, CustomStringConvertible, Equatable {
    /// No file exists at the path.
    case fileNotFound(path: String)
    /// The file exists but cannot be read (permissions, a directory, an I/O error); carries the system's message.
    case unreadable(path: String, message: String)
    /// The file has no bytes at all.
    case emptyFile(path: String)
    /// The file ends before the length its header promises.
    case truncated(path: String, detail: String)
    /// The library recognised the format but could not decode the contents.
    case corrupt(path: String, failure: AudioLibraryFailure)
    /// The bytes are not audio in a supported format; `detected` says what they look like instead.
    case unsupportedFormat(path: String, detected: DetectedContent)
    /// The container is known but its codec cannot be decoded here.
    case unsupportedCodec(path: String, container: String, codec: String, failure: AudioLibraryFailure?)
    /// The audio's sample rate is below ``AudioFileDecoder/minimumSampleRate``.
    case sampleRateTooLow(path: String, sampleRate: Int)
    /// The audio's sample rate is above ``AudioFileDecoder/maximumSampleRate``.
    case sampleRateTooHigh(path: String, sampleRate: Int)
    /// The file is valid but holds no audio samples (or no audio stream).
    case noAudio(path: String)
    /// Headerless 16-bit PCM must have an even number of bytes.
    case oddByteCount(path: String, byteCount: Int)
    /// The resampler refused the conversion.
    case resamplingFailed(path: String, failure: AudioLibraryFailure)

    /// The path or name of the input that failed.
    public var path: String {
        switch self {
        case .fileNotFound(let path), .unreadable(let path, _), .emptyFile(let path), .truncated(let path, _),
             .corrupt(let path, _), .unsupportedFormat(let path, _), .unsupportedCodec(let path, _, _, _),
             .sampleRateTooLow(let path, _), .sampleRateTooHigh(let path, _), .noAudio(let path),
             .oddByteCount(let path, _), .resamplingFailed(let path, _):
            return path
        }
    }

    /// A short snake_case name of the kind of failure, stable for JSON output (e.g. "unsupported_format").
    public var reason: String {
        switch self {
        case .fileNotFound: return "file_not_found"
        case .unreadable: return "unreadable"
        case .emptyFile: return "empty_file"
        case .truncated: return "truncated"
        case .corrupt: return "corrupt"
        case .unsupportedFormat: return "unsupported_format"
        case .unsupportedCodec: return "unsupported_codec"
        case .sampleRateTooLow: return "sample_rate_too_low"
        case .sampleRateTooHigh: return "sample_rate_too_high"
        case .noAudio: return "no_audio"
        case .oddByteCount: return "odd_byte_count"
        case .resamplingFailed: return "resampling_failed"
        }
    }

    /// A one-line message for people: what is wrong with which file, and what to do next.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): file not found; check the path"
        case .unreadable(let path, let message):
            return "\(path): cannot read the file: \(message)"
        case .emptyFile(let path):
            return "\(path): the file is empty (0 bytes); record or copy it again"
        case .truncated(let path, let detail):
            return "\(path): the file is truncated: \(detail); copy or record it again"
        case .corrupt(let path, let failure):
            return "\(path): the audio is corrupt: \(failure.library) \(failure.operation) said \"\(failure.message)\""
        case .unsupportedFormat(let path, let detected):
            var text = "\(path): unsupported format: the file is \(detected.phrase); supported: \(AudioFileDecoder.supportedFormats)"
            if detected == .unknown { text += "; for headerless 16-bit little-endian mono PCM give its rate with --raw-rate HZ" }
            return text
        case .unsupportedCodec(let path, let container, let codec, let failure):
            var text = "\(path): unsupported codec: the file is \(container) with \(codec) audio, which cannot be decoded here"
            if let failure { text += " (\(failure.library) \(failure.operation) said \"\(failure.message)\")" }
            return text + "; convert it to WAV 16-bit PCM"
        case .sampleRateTooLow(let path, let rate):
            return "\(path): sample rate \(rate) Hz is below \(AudioFileDecoder.minimumSampleRate) Hz; record at 16000 Hz"
        case .sampleRateTooHigh(let path, let rate):
            return "\(path): sample rate \(rate) Hz is above \(AudioFileDecoder.maximumSampleRate) Hz; resample it to 16000 Hz"
        case .noAudio(let path):
            return "\(path): the file holds no audio samples"
        case .oddByteCount(let path, let count):
            return "\(path): raw 16-bit PCM needs an even number of bytes but has \(count); is it really headerless 16-bit little-endian audio?"
        case .resamplingFailed(let path, let failure):
            return "\(path): resampling to \(AudioClip.sampleRate) Hz failed: \(failure.library) \(failure.operation) said \"\(failure.message)\""
        }
    }
}
