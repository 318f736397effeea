/// Parsing `application/x-www-form-urlencoded` query strings and percent-encoding. Pure; fuzzed (see fuzz/).
public enum QueryString {
    /// A query string that cannot be decoded, with what is wrong.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let problem: String
        public var description: String { problem }
    }

    /// The name/value pairs in order; "+" is a space; a name without "=" has an empty value.
    public static func parse(_ query: String) throws(Malformed) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = part.firstIndex(of: "=")
            let rawName = String(part[..<(equals ?? part.endIndex)])
            let rawValue = equals.map { String(part[part.index(after: $0)...]) } ?? ""
            guard let name = percentDecoded(rawName, plusIsSpace: true), let value = percentDecoded(rawValue, plusIsSpace: true) else {
                throw Malformed(problem: "the query string has a bad percent-escape or is not UTF-8 near '\(part.prefix(40))'")
            }
            pairs.append((name, value))
        }
        return pairs
    }

    /// `text` with %XX escapes decoded (and "+" as space when `plusIsSpace`), or nil for a bad escape or non-UTF-8.
    public static func percentDecoded(_ text: String, plusIsSpace: Bool) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// AWS's URI encoding (RFC 3986 unreserved characters kept, everything else %XX upper-case); "/" kept unless
    /// `encodeSlash`. SigV4 canonical requests and S3 keys use it.
    public static func uriEncoded(_ text: String, encodeSlash: Bool = true) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where !encodeSlash:
                result.append("/")
            default:
                let digits = Array("0123456789ABCDEF")
                result.append("%")
                result.append(digits[Int(byte >> 4)])
                result.append(digits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
