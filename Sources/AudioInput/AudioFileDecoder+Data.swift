import struct Foundation.Data

extension AudioFileDecoder {
    /// Decodes audio bytes read as `Data` (e.g. from `FileHandle.standardInput`); `name` stands in for the path in errors.
    public static func decode(data: Data, name: String, rawSampleRate: Int? = nil) throws(AudioDecodeError) -> AudioClip {
        try decode(data: [UInt8](data), name: name, rawSampleRate: rawSampleRate)
    }
}
