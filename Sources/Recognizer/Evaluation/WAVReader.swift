import Foundation

/// A minimal reader of PCM WAV files (8/16-bit integer or 32-bit float, any channel count and rate) to 16 kHz mono.
///
/// Enough for fixtures and the evaluation manifest; the product reads audio through AudioInput's decoder. Rates other
/// than 16 kHz are converted by linear interpolation (low quality; telephone audio scores poorly anyway). Pure.
package enum WAVReader {
    /// Why a file could not be read.
    package struct ReadError: Error, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "\(path): \(reason)" }
    }

    /// The samples of the file at `path` at `sampleRate` Hz, mono.
    package static func samples(path: String, sampleRate: Int = 16_000) throws -> [Int16] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ReadError(path: path, reason: "cannot read the file") }
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            throw ReadError(path: path, reason: "not a RIFF/WAVE file")
        }
        var format = 0, channels = 0, rate = 0, bits = 0
        var dataRange: Range<Int>?
        var offset = 12
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = u32(offset + 4)
            let body = offset + 8
            if id == "fmt " {
                format = u16(body); channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
                if format == 0xFFFE, size >= 26 { format = u16(body + 24) }
            } else if id == "data" {
                dataRange = body..<min(bytes.count, body + size)
            }
            offset = body + size + (size & 1)
        }
        guard let dataRange, channels > 0, rate > 0 else { throw ReadError(path: path, reason: "no fmt or data chunk") }
        let frameBytes = channels * bits / 8
        guard frameBytes > 0 else { throw ReadError(path: path, reason: "bad sample format") }
        let frames = dataRange.count / frameBytes
        var mono = [Double](repeating: 0, count: frames)
        for frame in 0..<frames {
            var sum = 0.0
            for channel in 0..<channels {
                let at = dataRange.lowerBound + frame * frameBytes + channel * bits / 8
                switch (format, bits) {
                case (1, 16): sum += Double(Int16(bitPattern: UInt16(u16(at))))
                case (1, 8): sum += (Double(bytes[at]) - 128) * 256
                case (3, 32): sum += Double(Float(bitPattern: UInt32(u32(at)))) * 32767
                default: throw ReadError(path: path, reason: "unsupported WAV format \(format) with \(bits) bits")
                }
            }
            mono[frame] = sum / Double(channels)
        }
        if rate != sampleRate { mono = resample(mono, from: rate, to: sampleRate) }
        return mono.map { Int16(max(-32768, min(32767, $0.rounded()))) }
    }

    private static func resample(_ input: [Double], from: Int, to: Int) -> [Double] {
        guard !input.isEmpty else { return [] }
        let count = Int((Double(input.count) * Double(to) / Double(from)).rounded())
        return (0..<count).map { index in
            let position = Double(index) * Double(from) / Double(to)
            let base = min(Int(position), input.count - 1)
            let next = min(base + 1, input.count - 1)
            let fraction = position - Double(base)
            return input[base] * (1 - fraction) + input[next] * fraction
        }
    }
}
