/// What a file's first bytes say it is, used to route audio to a decoder and to explain rejected files.
public enum DetectedContent: String, Sendable, Equatable, CaseIterable {
    /// RIFF/RF64/Wave64 WAV audio.
    case wav
    /// AIFF or AIFF-C audio.
    case aiff
    /// Sun/NeXT .au audio.
    case sunAudio
    /// Core Audio Format.
    case caf
    /// FLAC audio.
    case flac
    /// An Ogg stream (Vorbis, Opus, FLAC).
    case ogg
    /// MPEG audio (MP3), with or without an ID3 tag.
    case mp3
    /// An ISO base media file (MP4, M4A, 3GP, MOV).
    case mp4
    /// A raw AAC stream with ADTS headers.
    case aacADTS
    /// Matroska or WebM.
    case matroska
    /// A PNG image.
    case png
    /// A JPEG image.
    case jpeg
    /// A GIF image.
    case gif
    /// A PDF document.
    case pdf
    /// A ZIP archive (also .docx, .jar, ...).
    case zip
    /// A gzip-compressed file.
    case gzip
    /// An HTML page.
    case html
    /// Plain text.
    case text
    /// A Linux/Unix ELF executable or library.
    case elfExecutable
    /// A Windows executable (MZ/PE).
    case windowsExecutable
    /// A Mach-O (macOS) executable.
    case machOExecutable
    /// Nothing recognisable.
    case unknown

    /// A phrase completing "the file is …", e.g. "a PNG image".
    public var phrase: String {
        switch self {
        case .wav: return "WAV audio"
        case .aiff: return "AIFF audio"
        case .sunAudio: return "Sun/NeXT audio"
        case .caf: return "Core Audio Format audio"
        case .flac: return "FLAC audio"
        case .ogg: return "Ogg audio"
        case .mp3: return "MP3 audio"
        case .mp4: return "MP4/M4A media"
        case .aacADTS: return "AAC audio"
        case .matroska: return "Matroska/WebM media"
        case .png: return "a PNG image"
        case .jpeg: return "a JPEG image"
        case .gif: return "a GIF image"
        case .pdf: return "a PDF document"
        case .zip: return "a ZIP archive"
        case .gzip: return "a gzip-compressed file"
        case .html: return "an HTML page"
        case .text: return "plain text"
        case .elfExecutable: return "an ELF executable"
        case .windowsExecutable: return "a Windows executable"
        case .machOExecutable: return "a Mach-O executable"
        case .unknown: return "of no format known here"
        }
    }

    /// Whether this is audio the decoder can route (to libsndfile or FFmpeg).
    public var isAudio: Bool { decoderLibrary != nil }

    /// Which library decodes this content, if any.
    var decoderLibrary: DecoderLibrary? {
        switch self {
        case .wav, .aiff, .sunAudio, .caf, .flac, .ogg, .mp3: return .sndfile
        case .mp4, .aacADTS, .matroska: return .ffmpeg
        default: return nil
        }
    }

    /// How many leading bytes ``detect(_:)`` looks at.
    public static let sniffLength = 512

    /// Classifies content by its magic bytes (pass at least the first ``sniffLength`` bytes when available).
    public static func detect(_ head: some Collection<UInt8>) -> DetectedContent {
        let bytes = Array(head.prefix(sniffLength))
        func starts(_ magic: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + magic.count && Array(bytes[offset..<offset + magic.count]) == magic
        }
        func starts(_ ascii: String, at offset: Int = 0) -> Bool { starts(Array(ascii.utf8), at: offset) }

        if (starts("RIFF") || starts("RIFX")) && starts("WAVE", at: 8) { return .wav }
        if starts("RF64") || starts([0x72, 0x69, 0x66, 0x66, 0x2E, 0x91, 0xCF, 0x11]) { return .wav }  // RF64, Wave64
        if starts("FORM") && (starts("AIFF", at: 8) || starts("AIFC", at: 8)) { return .aiff }
        if starts(".snd") { return .sunAudio }
        if starts("caff") { return .caf }
        if starts("fLaC") { return .flac }
        if starts("OggS") { return .ogg }
        if starts("ID3") { return .mp3 }
        if starts("ftyp", at: 4) { return .mp4 }
        if starts([0x1A, 0x45, 0xDF, 0xA3]) { return .matroska }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] & 0xE0 == 0xE0 {
            // MPEG audio frame sync: layer bits 00 mean ADTS (AAC); 01/10/11 are layers III/II/I.
            return bytes[1] & 0x06 == 0 ? .aacADTS : .mp3
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts("GIF87a") || starts("GIF89a") { return .gif }
        if starts("%PDF") { return .pdf }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return .zip }
        if starts([0x1F, 0x8B]) { return .gzip }
        if starts([0x7F, 0x45, 0x4C, 0x46]) { return .elfExecutable }
        if starts("MZ") { return .windowsExecutable }
        if starts([0xCF, 0xFA, 0xED, 0xFE]) || starts([0xCE, 0xFA, 0xED, 0xFE]) || starts([0xCA, 0xFE, 0xBA, 0xBE]) {
            return .machOExecutable
        }
        if let text = leadingText(bytes) {
            let lowered = text.lowercased()
            if lowered.hasPrefix("<!doctype html") || lowered.hasPrefix("<html") || lowered.contains("<html")
                || lowered.contains("<head") || lowered.contains("<body") {
                return .html
            }
            return .text
        }
        return .unknown
    }

    /// The bytes as text if they are valid UTF-8 without control characters other than whitespace (a cut-off final
    /// character is allowed), with any byte-order mark and leading whitespace removed.
    private static func leadingText(_ bytes: [UInt8]) -> String? {
        guard !bytes.isEmpty else { return nil }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        for byte in body where byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C {
            return nil
        }
        if body.contains(0x7F) { return nil }
        // Allow a multi-byte character cut off by the sniff window.
        for cut in 0...3 where body.count > cut {
            if let text = String(validating: body.dropLast(cut), as: UTF8.self) {
                return String(text.drop(while: \.isWhitespace))
            }
        }
        return nil
    }
}

/// The C library that decodes a given container.
enum DecoderLibrary {
    case sndfile
    case ffmpeg
}
