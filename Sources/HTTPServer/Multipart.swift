import Foundation

/// Parsing `multipart/form-data` bodies (RFC 7578). Pure; fuzzed (see fuzz/).
public enum Multipart {
    /// One part: its form field name, the file name and type when it is a file, and its bytes.
    public struct Part: Sendable, Equatable {
        public let name: String
        public let fileName: String?
        public let contentType: String?
        public let body: [UInt8]

        /// The body as UTF-8 text (form fields), or nil.
        public var text: String? { String(validating: body, as: UTF8.self) }
    }

    /// A body that is not valid multipart, with what is wrong.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let problem: String
        public var description: String { problem }
    }

    /// The `boundary` parameter of a `multipart/form-data` Content-Type header, or nil.
    public static func boundary(fromContentType header: String) -> String? {
        for parameter in header.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return value.isEmpty || value.count > 70 ? nil : value
        }
        return nil
    }

    /// The parts of `body` delimited by `boundary`.
    public static func parse(_ body: [UInt8], boundary: String) throws(Malformed) -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        guard !boundary.isEmpty, var position = firstIndex(of: delimiter, in: body, from: 0) else {
            throw Malformed(problem: "the multipart body does not contain its boundary '--\(boundary)'")
        }
        var parts: [Part] = []
        while true {
            position += delimiter.count
            if body.count >= position + 2, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") { return parts }
            guard let headerStart = skipLineBreak(body, at: position) else {
                throw Malformed(problem: "a multipart boundary is not followed by a line break")
            }
            guard let headerEnd = firstIndex(of: Array("\r\n\r\n".utf8), in: body, from: headerStart) else {
                throw Malformed(problem: "a multipart part has no blank line after its headers")
            }
            let headerText = String(decoding: body[headerStart..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let next = firstIndex(of: Array("\r\n".utf8) + delimiter, in: body, from: contentStart) else {
                throw Malformed(problem: "the multipart body ends without its closing boundary '--\(boundary)--'")
            }
            parts.append(try part(headers: headerText, body: Array(body[contentStart..<next])))
            position = next + 2
        }
    }

    private static func part(headers: String, body: [UInt8]) throws(Malformed) -> Part {
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in headers.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Malformed(problem: "a multipart header line has no ':'") }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if field == "content-type" { contentType = value }
            guard field == "content-disposition" else { continue }
            for parameter in value.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                let unquoted = pair[1].count >= 2 && pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") ? String(pair[1].dropFirst().dropLast()) : pair[1]
                switch pair[0].lowercased() {
                case "name": name = unquoted
                case "filename": fileName = unquoted
                default: break
                }
            }
        }
        guard let name else { throw Malformed(problem: "a multipart part has no Content-Disposition name") }
        return Part(name: name, fileName: fileName, contentType: contentType, body: body)
    }

    private static func skipLineBreak(_ body: [UInt8], at index: Int) -> Int? {
        if body.count >= index + 2, body[index] == 13, body[index + 1] == 10 { return index + 2 }
        return nil
    }

    /// The first index at or after `start` where `needle` occurs in `haystack`.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, start >= 0, haystack.count - start >= needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = true
                for offset in 1..<needle.count where haystack[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
