import CSndFile

/// An open libsndfile reader over a ``ByteSource`` (virtual I/O), closed with `sf_close` in `deinit`.
///
/// Thread rule: one owner, one thread at a time; not `Sendable`.
final class SoundFile {
    let handle: OpaquePointer
    let info: SF_INFO
    private let source: ByteSource  // libsndfile calls back into it until sf_close
    private var virtualIO: SF_VIRTUAL_IO

    /// Opens the source for reading; throws libsndfile's error code and message.
    init(source: ByteSource) throws(AudioLibraryFailure) {
        self.source = source
        virtualIO = SF_VIRTUAL_IO(
            get_filelen: { user in sf_count_t(Unmanaged<ByteSource>.fromOpaque(user!).takeUnretainedValue().length) },
            seek: { offset, whence, user in
                sf_count_t(Unmanaged<ByteSource>.fromOpaque(user!).takeUnretainedValue().seek(offset: Int(offset), whence: whence))
            },
            read: { destination, count, user in
                sf_count_t(Unmanaged<ByteSource>.fromOpaque(user!).takeUnretainedValue()
                    .readAdvancing(into: destination!, count: Int(count)))
            },
            write: { _, _, _ in 0 },
            tell: { user in sf_count_t(Unmanaged<ByteSource>.fromOpaque(user!).takeUnretainedValue().position) }
        )
        var openedInfo = SF_INFO()
        let user = Unmanaged.passUnretained(source).toOpaque()
        guard let opened = sf_open_virtual(&virtualIO, Int32(SFM_READ), &openedInfo, user) else {
            throw AudioLibraryFailure(library: "libsndfile", operation: "sf_open_virtual", code: sf_error(nil),
                                      message: String(cString: sf_strerror(nil)))
        }
        handle = opened
        info = openedInfo
    }

    deinit { sf_close(handle) }

    /// Reads up to `frames` interleaved frames as floats (±1); returns the frame count, 0 at the end.
    func readFrames(into buffer: UnsafeMutableBufferPointer<Float>, frames: Int) -> Int {
        Int(sf_readf_float(handle, buffer.baseAddress, sf_count_t(frames)))
    }

    /// libsndfile's log of what it found while parsing the file (its warnings explain many failures).
    var log: String {
        var buffer = [CChar](repeating: 0, count: 8192)
        let length = Int(sf_command(handle, Int32(SFC_GET_LOG_INFO), &buffer, Int32(buffer.count)))
        return String(decoding: buffer.prefix(max(0, min(length, buffer.count))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The error libsndfile recorded on this handle, if any.
    var failure: AudioLibraryFailure? {
        let code = sf_error(handle)
        guard code != 0 else { return nil }
        return AudioLibraryFailure(library: "libsndfile", operation: "sf_readf_float", code: code,
                                   message: String(cString: sf_strerror(handle)))
    }
}

/// Decodes everything libsndfile reads: WAV, AIFF, AU, CAF, FLAC, Ogg Vorbis, Opus and MP3.
enum SndFileDecoder {
    static func decode(_ source: ByteSource, detected: DetectedContent) throws(AudioDecodeError) -> AudioClip {
        let file: SoundFile
        do {
            file = try SoundFile(source: source)
        } catch {
            throw openError(error, source: source, detected: detected)
        }
        let info = file.info
        let rate = Int(info.samplerate)
        let channelCount = Int(info.channels)
        try AudioFileDecoder.checkSampleRate(rate, name: source.name)
        guard info.frames > 0, channelCount > 0 else { throw .noAudio(path: source.name) }

        // libsndfile reports an unknown length (e.g. some MP3s) as SF_COUNT_MAX.
        let knownFrames: Int? = info.frames < Int64(Int32.max) ? Int(info.frames) : nil
        var builder = try ClipBuilder(sourceRate: rate, expectedSourceFrames: knownFrames, name: source.name)
        let blockFrames = AudioFileDecoder.blockFrames
        var block = [Float](repeating: 0, count: blockFrames * channelCount)
        var framesRead = 0
        while true {
            let got = block.withUnsafeMutableBufferPointer { file.readFrames(into: $0, frames: blockFrames) }
            if got <= 0 { break }
            framesRead += got
            block.withUnsafeBufferPointer { builder.appendInterleaved($0, frames: got, channelCount: channelCount) }
        }
        if let failure = source.readFailure { throw .unreadable(path: source.name, message: failure) }
        if let failure = file.failure { throw .corrupt(path: source.name, failure: failure) }
        let subtype = info.format & Int32(SF_FORMAT_SUBMASK)
        if subtype == Int32(SF_FORMAT_FLAC) || isUncompressed(subtype), let knownFrames, framesRead < knownFrames {
            throw .truncated(path: source.name,
                             detail: "its header promises \(knownFrames) frames but only \(framesRead) could be read")
        }
        let samples = builder.finish()
        guard !samples.isEmpty else {
            // A cut-off Ogg stream opens with an unknown length and yields nothing; libsndfile's log says why.
            if let line = file.log.split(separator: "\n").first(where: { $0.contains("ended unexpectedly") }) {
                throw .truncated(path: source.name, detail: "libsndfile says \"\(line)\"")
            }
            throw .noAudio(path: source.name)
        }
        return AudioClip(samples: samples, source: describe(info))
    }

    /// Maps a failed `sf_open_virtual` to the error a user can act on.
    private static func openError(_ failure: AudioLibraryFailure, source: ByteSource, detected: DetectedContent) -> AudioDecodeError {
        if let readFailure = source.readFailure { return .unreadable(path: source.name, message: readFailure) }
        switch failure.code {
        case Int32(SF_ERR_UNRECOGNISED_FORMAT):
            return detected.isAudio ? .corrupt(path: source.name, failure: failure)
                                    : .unsupportedFormat(path: source.name, detected: detected)
        case Int32(SF_ERR_UNSUPPORTED_ENCODING):
            return .unsupportedCodec(path: source.name, container: detected.phrase, codec: "this encoding", failure: failure)
        case Int32(SF_ERR_SYSTEM):
            return .unreadable(path: source.name, message: failure.message)
        default:
            // Any other code is a specific complaint about the contents ("No 'data' chunk marker", ...).
            return detected == .unknown ? .unsupportedFormat(path: source.name, detected: detected)
                                        : .corrupt(path: source.name, failure: failure)
        }
    }

    private static func isUncompressed(_ subtype: Int32) -> Bool {
        let uncompressed: [Int32] = [Int32(SF_FORMAT_PCM_S8), Int32(SF_FORMAT_PCM_16), Int32(SF_FORMAT_PCM_24),
                                      Int32(SF_FORMAT_PCM_32), Int32(SF_FORMAT_PCM_U8), Int32(SF_FORMAT_FLOAT),
                                      Int32(SF_FORMAT_DOUBLE), Int32(SF_FORMAT_ULAW), Int32(SF_FORMAT_ALAW)]
        return uncompressed.contains(subtype)
    }

    /// Names the container, codec and sample format from libsndfile's format word.
    static func describe(_ info: SF_INFO) -> AudioSourceInfo {
        let major = info.format & Int32(SF_FORMAT_TYPEMASK)
        let subtype = info.format & Int32(SF_FORMAT_SUBMASK)
        let container: String
        switch major {
        case Int32(SF_FORMAT_WAV), Int32(SF_FORMAT_WAVEX), Int32(SF_FORMAT_RF64), Int32(SF_FORMAT_W64): container = "WAV"
        case Int32(SF_FORMAT_AIFF): container = "AIFF"
        case Int32(SF_FORMAT_AU): container = "AU"
        case Int32(SF_FORMAT_CAF): container = "CAF"
        case Int32(SF_FORMAT_FLAC): container = "FLAC"
        case Int32(SF_FORMAT_OGG): container = "Ogg"
        case Int32(SF_FORMAT_MPEG): container = "MP3"
        default: container = formatName(major) ?? "unknown"
        }
        let codec: String
        let sampleFormat: String
        switch subtype {
        case Int32(SF_FORMAT_PCM_S8): (codec, sampleFormat) = ("PCM", "8-bit signed integer")
        case Int32(SF_FORMAT_PCM_U8): (codec, sampleFormat) = ("PCM", "8-bit unsigned integer")
        case Int32(SF_FORMAT_PCM_16): (codec, sampleFormat) = (major == Int32(SF_FORMAT_FLAC) ? "FLAC" : "PCM", "16-bit integer")
        case Int32(SF_FORMAT_PCM_24): (codec, sampleFormat) = (major == Int32(SF_FORMAT_FLAC) ? "FLAC" : "PCM", "24-bit integer")
        case Int32(SF_FORMAT_PCM_32): (codec, sampleFormat) = ("PCM", "32-bit integer")
        case Int32(SF_FORMAT_FLOAT): (codec, sampleFormat) = ("PCM", "32-bit float")
        case Int32(SF_FORMAT_DOUBLE): (codec, sampleFormat) = ("PCM", "64-bit float")
        case Int32(SF_FORMAT_ULAW): (codec, sampleFormat) = ("µ-law", "8-bit µ-law")
        case Int32(SF_FORMAT_ALAW): (codec, sampleFormat) = ("A-law", "8-bit A-law")
        case Int32(SF_FORMAT_VORBIS): (codec, sampleFormat) = ("Vorbis", "compressed")
        case Int32(SF_FORMAT_OPUS): (codec, sampleFormat) = ("Opus", "compressed")
        case Int32(SF_FORMAT_MPEG_LAYER_I): (codec, sampleFormat) = ("MPEG Layer I", "compressed")
        case Int32(SF_FORMAT_MPEG_LAYER_II): (codec, sampleFormat) = ("MPEG Layer II", "compressed")
        case Int32(SF_FORMAT_MPEG_LAYER_III): (codec, sampleFormat) = ("MPEG Layer III", "compressed")
        default:
            let name = formatName(subtype) ?? "unknown"
            (codec, sampleFormat) = (name, name)
        }
        return AudioSourceInfo(container: container, codec: codec, sampleRate: Int(info.samplerate),
                               channelCount: Int(info.channels), sampleFormat: sampleFormat, decoder: "libsndfile")
    }

    /// libsndfile's own name for a major format or subtype value.
    private static func formatName(_ format: Int32) -> String? {
        var formatInfo = SF_FORMAT_INFO()
        formatInfo.format = format
        let result = sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        guard result == 0, let name = formatInfo.name else { return nil }
        return String(cString: name)
    }
}
