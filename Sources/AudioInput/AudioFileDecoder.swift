/// Decodes audio files and in-memory audio into 16 kHz mono ``AudioClip``s.
///
/// Formats are recognised by their magic bytes, not their names: WAV, AIFF, AU, CAF, FLAC, Ogg (Vorbis, Opus) and MP3
/// go through libsndfile; MP4/M4A, ADTS AAC and Matroska/WebM through FFmpeg; headerless 16-bit little-endian mono
/// PCM is read directly when its sample rate is given. Channels are averaged into one, the rate is converted with
/// ``Resampler`` (libsoxr HQ) and samples are clipped to 16 bits. Input is read in blocks, so long clips cost only
/// the memory of the 16 kHz result (about 1.9 MB per minute).
///
/// Thread rule: stateless; independent decodes may run concurrently on different threads (each owns its C handles).
/// One caveat: libsndfile keeps the message of a failed *open* in a process-wide slot, so two opens failing at the
/// same instant could swap messages; the error kind is unaffected.
///
/// Known limits: a cut-off MP3 decodes to the part that is present (its length estimate is not trusted enough to
/// call it truncated); raw ADTS AAC keeps its encoder padding (~40–80 ms); libsndfile's MP3 backend (mpg123) may
/// print a warning about Xing headers to stderr.
public enum AudioFileDecoder {
    /// Lowest accepted original sample rate, in samples per second (telephone audio).
    public static let minimumSampleRate = 8000
    /// Highest accepted original sample rate, in samples per second.
    public static let maximumSampleRate = 192_000
    /// Human-readable list of supported formats, used in error messages.
    public static let supportedFormats =
        "WAV (8/16/24/32-bit integer, 32/64-bit float, µ-law, A-law), AIFF, FLAC, Ogg Vorbis, Opus, MP3, M4A/MP4 (AAC)"

    /// Frames read from the decoder per block; bounds the working memory of a decode.
    static let blockFrames = 4096

    /// Decodes the file at `path`; if `rawSampleRate` is given the file is read as headerless S16LE mono at that rate.
    public static func decode(path: String, rawSampleRate: Int? = nil) throws(AudioDecodeError) -> AudioClip {
        let source = try ByteSource(path: path)
        return try decode(source, rawSampleRate: rawSampleRate)
    }

    /// Decodes audio bytes already in memory (e.g. standard input); `name` stands in for the path in errors.
    public static func decode(data: [UInt8], name: String, rawSampleRate: Int? = nil) throws(AudioDecodeError) -> AudioClip {
        try decode(ByteSource(bytes: data, name: name), rawSampleRate: rawSampleRate)
    }

    static func decode(_ source: ByteSource, rawSampleRate: Int?) throws(AudioDecodeError) -> AudioClip {
        guard source.length > 0 else { throw .emptyFile(path: source.name) }
        if let rawSampleRate {
            return try RawPCMDecoder.decode(source, sampleRate: rawSampleRate)
        }
        let head = source.bytes(at: 0, count: DetectedContent.sniffLength)
        if head.isEmpty, let failure = source.readFailure { throw .unreadable(path: source.name, message: failure) }
        let detected = DetectedContent.detect(head)
        switch detected.decoderLibrary {
        case .ffmpeg:
            return try FFmpegDecoder.decode(source, detected: detected)
        case .sndfile:
            if detected == .wav { try WAVHeaderCheck.checkNotTruncated(source) }
            return try SndFileDecoder.decode(source, detected: detected)
        case nil:
            if detected != .unknown { throw .unsupportedFormat(path: source.name, detected: detected) }
            // Unknown magic: libsndfile knows more containers than the sniffer; it has the last word.
            return try SndFileDecoder.decode(source, detected: detected)
        }
    }

    /// Throws unless `rate` is within ``minimumSampleRate``…``maximumSampleRate``.
    static func checkSampleRate(_ rate: Int, name: String) throws(AudioDecodeError) {
        if rate < minimumSampleRate { throw .sampleRateTooLow(path: name, sampleRate: rate) }
        if rate > maximumSampleRate { throw .sampleRateTooHigh(path: name, sampleRate: rate) }
    }
}

/// Turns mono float blocks at the source rate into the 16 kHz `Int16` samples of a clip.
struct ClipBuilder {
    private let resampler: Resampler
    private(set) var samples: [Int16] = []

    /// Prepares for audio at `sourceRate`; `expectedSourceFrames` (when known) sizes the result once.
    init(sourceRate: Int, expectedSourceFrames: Int?, name: String) throws(AudioDecodeError) {
        do {
            resampler = try Resampler(inputRate: sourceRate, outputRate: AudioClip.sampleRate)
        } catch {
            throw .resamplingFailed(path: name, failure: error)
        }
        if let expectedSourceFrames, expectedSourceFrames > 0 {
            let estimate = Double(expectedSourceFrames) * Double(AudioClip.sampleRate) / Double(sourceRate)
            samples.reserveCapacity(Int(estimate) + 1024)
        }
    }

    /// Adds one block of mono samples (floats, full scale ±1).
    mutating func append(_ block: [Float]) {
        let converted = resampler.process(block)
        samples.append(contentsOf: converted.lazy.map(SampleConversion.int16))
    }

    /// Averages interleaved frames of `channelCount` channels to mono and adds them.
    mutating func appendInterleaved(_ interleaved: UnsafeBufferPointer<Float>, frames: Int, channelCount: Int) {
        append(Downmix.average(interleaved, frames: frames, channelCount: channelCount))
    }

    /// Flushes the resampler and returns all samples.
    mutating func finish() -> [Int16] {
        let tail = resampler.flush()
        samples.append(contentsOf: tail.lazy.map(SampleConversion.int16))
        return samples
    }
}

/// Mixing interleaved multichannel audio down to mono.
enum Downmix {
    /// Averages the channels of each interleaved frame.
    static func average(_ interleaved: UnsafeBufferPointer<Float>, frames: Int, channelCount: Int) -> [Float] {
        if channelCount == 1 { return Array(interleaved.prefix(frames)) }
        let scale = 1 / Float(channelCount)
        return [Float](unsafeUninitializedCapacity: frames) { mono, initialised in
            for frame in 0..<frames {
                var sum: Float = 0
                let base = frame * channelCount
                for channel in 0..<channelCount { sum += interleaved[base + channel] }
                mono[frame] = sum * scale
            }
            initialised = frames
        }
    }
}

/// Headerless signed 16-bit little-endian mono PCM.
enum RawPCMDecoder {
    static func decode(_ source: ByteSource, sampleRate: Int) throws(AudioDecodeError) -> AudioClip {
        try AudioFileDecoder.checkSampleRate(sampleRate, name: source.name)
        guard source.length % 2 == 0 else { throw .oddByteCount(path: source.name, byteCount: source.length) }
        var builder = try ClipBuilder(sourceRate: sampleRate, expectedSourceFrames: source.length / 2, name: source.name)
        var block = [Int16](repeating: 0, count: AudioFileDecoder.blockFrames)
        var offset = 0
        while offset < source.length {
            let got = block.withUnsafeMutableBytes { source.read(at: offset, into: $0.baseAddress!, count: $0.count) }
            if got < 0 { throw .unreadable(path: source.name, message: source.readFailure ?? "read failed") }
            if got == 0 { break }
            offset += got
            builder.append(block[0..<(got / 2)].map { Float(Int16(littleEndian: $0)) / 32768 })
        }
        let samples = builder.finish()
        let info = AudioSourceInfo(container: "raw", codec: "PCM", sampleRate: sampleRate, channelCount: 1,
                                   sampleFormat: "16-bit integer, little-endian", decoder: "built-in")
        return AudioClip(samples: samples, source: info)
    }
}

/// Detects WAV files cut short: libsndfile silently clamps the data length, so the header is checked here.
enum WAVHeaderCheck {
    /// A `data` chunk size at or above this means "length unknown" (written by a program streaming to a pipe).
    static let streamingSizeMarker: UInt32 = 0x7FFF_0000

    /// Throws ``AudioDecodeError/truncated(path:detail:)`` if the RIFF `data` chunk promises more bytes than exist.
    static func checkNotTruncated(_ source: ByteSource) throws(AudioDecodeError) {
        let header = source.bytes(at: 0, count: 12)
        guard header.count == 12, header.starts(with: Array("RIFF".utf8)) else { return }
        var offset = 12
        while offset + 8 <= source.length {
            let chunk = source.bytes(at: offset, count: 8)
            guard chunk.count == 8 else { return }
            let size = UInt32(chunk[4]) | UInt32(chunk[5]) << 8 | UInt32(chunk[6]) << 16 | UInt32(chunk[7]) << 24
            if chunk.starts(with: Array("data".utf8)) {
                let available = source.length - offset - 8
                if size == 0 || size >= streamingSizeMarker { return }
                if Int(size) > available {
                    throw .truncated(path: source.name,
                                     detail: "its header promises \(size) bytes of audio but only \(available) are present")
                }
                return
            }
            offset += 8 + Int(size) + Int(size & 1)
        }
    }
}
