/// Transcribe's `MediaFormat` names, and ours for headerless PCM.
enum MediaFormats {
    /// Headerless 16-bit little-endian mono PCM; needs `mediaSampleRateHertz`.
    static let rawPCM = "pcm"
    /// Every value `mediaFormat` accepts.
    static let accepted: Set<String> = ["wav", "flac", "ogg", "mp3", "mp4", "m4a", "webm", "amr", rawPCM]

    /// Transcribe's name for a container our decoders report, or nil when there is none to compare.
    static func transcribeName(forContainer container: String) -> String? {
        switch container.lowercased() {
        case "wav": "wav"
        case "flac": "flac"
        case "ogg": "ogg"
        case "mp3": "mp3"
        case "mp4": "mp4"
        case "raw": rawPCM
        default: nil
        }
    }

    /// True when the declared format names the detected one (m4a and mp4 are the same container).
    static func matches(declared: String, detected: String) -> Bool {
        declared == detected || (Set([declared, detected]) == ["m4a", "mp4"])
    }
}
