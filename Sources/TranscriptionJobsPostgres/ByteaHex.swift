import Foundation

/// bytea values as libpq text parameters and results: hex digits, read and written with `decode`/`encode(…, 'hex')`.
enum ByteaHex {
    /// `data` as lower-case hex digits.
    static func text(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: data.count * 2)
        for (index, byte) in data.enumerated() {
            text[2 * index] = digits[Int(byte >> 4)]
            text[2 * index + 1] = digits[Int(byte & 0x0F)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `encode(…, 'hex')` wrote.
    static func bytes(fromHex text: String) -> Data {
        func value(_ digit: UInt8) -> UInt8 { digit <= UInt8(ascii: "9") ? digit &- UInt8(ascii: "0") : (digit | 0x20) &- UInt8(ascii: "a") &+ 10 }
        let digits = Array(text.utf8)
        var data = Data(count: digits.count / 2)
        data.withUnsafeMutableBytes { buffer in
            for index in 0..<buffer.count { buffer[index] = value(digits[2 * index]) << 4 | value(digits[2 * index + 1]) }
        }
        return data
    }
}
