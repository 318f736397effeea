import Foundation

/// Encodes 16-bit mono samples as a canonical PCM WAV file (44-byte header), e.g. to keep the audio a live decode
/// heard so that `recognize` can decode exactly that again. Pure.
public enum WAVEncoder {
    public static func data(samples: [Int16], sampleRate: Int) -> Data {
        var data = Data()
        func append(_ text: String) { data.append(contentsOf: Array(text.utf8)) }
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let payload = UInt32(samples.count * 2)
        append("RIFF"); append32(36 + payload); append("WAVE")
        append("fmt "); append32(16); append16(1); append16(1)
        append32(UInt32(sampleRate)); append32(UInt32(sampleRate * 2)); append16(2); append16(16)
        append("data"); append32(payload)
        for sample in samples { append16(UInt16(bitPattern: sample)) }
        return data
    }
}
