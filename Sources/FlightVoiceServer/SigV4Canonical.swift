import Foundation
import HTTPServer

/// The text parts of AWS Signature Version 4: the Authorization header's fields and the canonical request.
/// Pure (no hashing), so it can be fuzzed on its own; `SigV4Verifier` adds the HMAC chain.
public enum SigV4Canonical {
    /// The fields of `Authorization: AWS4-HMAC-SHA256 Credential=KEY/DATE/REGION/SERVICE/aws4_request, SignedHeaders=..., Signature=...`.
    public struct Authorization: Sendable, Equatable {
        public let accessKeyID: String
        public let date: String
        public let region: String
        public let service: String
        public let signedHeaders: [String]
        public let signature: String

        /// `DATE/REGION/SERVICE/aws4_request`.
        public var scope: String { "\(date)/\(region)/\(service)/aws4_request" }
    }

    /// A malformed Authorization header or request, with what is wrong.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public let problem: String
        public var description: String { problem }
    }

    public static let algorithm = "AWS4-HMAC-SHA256"

    /// Parses the Authorization header.
    public static func parseAuthorization(_ header: String) throws(Malformed) -> Authorization {
        guard header.hasPrefix(algorithm + " ") else { throw Malformed(problem: "the Authorization header must start with \(algorithm)") }
        var fields: [String: String] = [:]
        for part in header.dropFirst(algorithm.count + 1).split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { throw Malformed(problem: "the Authorization header has a part without '=': '\(part.prefix(40))'") }
            fields[pair[0]] = pair[1]
        }
        guard let credential = fields["Credential"], let signedHeaders = fields["SignedHeaders"], let signature = fields["Signature"] else {
            throw Malformed(problem: "the Authorization header needs Credential, SignedHeaders and Signature")
        }
        let scope = credential.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard scope.count == 5, scope[4] == "aws4_request", !scope[0].isEmpty, scope[1].count == 8, scope[1].allSatisfy(\.isNumber) else {
            throw Malformed(problem: "Credential must be KEY/YYYYMMDD/REGION/SERVICE/aws4_request")
        }
        let headers = signedHeaders.split(separator: ";").map(String.init)
        guard !headers.isEmpty, headers.contains("host"), headers == headers.map({ $0.lowercased() }) else {
            throw Malformed(problem: "SignedHeaders must list lower-case header names including host")
        }
        guard signature.count == 64, signature.allSatisfy(\.isHexDigit) else { throw Malformed(problem: "Signature must be 64 hexadecimal digits") }
        return Authorization(accessKeyID: scope[0], date: scope[1], region: scope[2], service: scope[3], signedHeaders: headers, signature: signature.lowercased())
    }

    /// The canonical request: method, URI, sorted query, signed headers and the payload hash, one per line.
    /// S3 signs the path as sent; other services sign it URI-encoded once more.
    public static func canonicalRequest(method: String, rawPath: String, rawQuery: String, headers: [String: String],
                                        signedHeaders: [String], payloadHash: String, service: String) throws(Malformed) -> String {
        let path = rawPath.isEmpty ? "/" : rawPath
        let uri: String
        if service == "s3" {
            uri = path
        } else {
            uri = path.split(separator: "/", omittingEmptySubsequences: false).map { QueryString.uriEncoded(String($0)) }.joined(separator: "/")
        }
        let pairs: [(name: String, value: String)]
        do {
            pairs = try QueryString.parse(rawQuery.replacingOccurrences(of: "+", with: "%2B"))
        } catch {
            throw Malformed(problem: error.problem)
        }
        let encoded: [(name: String, value: String)] = pairs.map { (QueryString.uriEncoded($0.name), QueryString.uriEncoded($0.value)) }
        let sorted = encoded.sorted { (first: (name: String, value: String), second: (name: String, value: String)) -> Bool in
            first.name == second.name ? first.value < second.value : first.name < second.name
        }
        let query = sorted.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        var canonicalHeaders = ""
        for name in signedHeaders {
            guard let value = headers[name] else { throw Malformed(problem: "the signed header '\(name)' is not in the request") }
            let collapsed = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            canonicalHeaders += "\(name):\(collapsed)\n"
        }
        return [method, uri, query, canonicalHeaders, signedHeaders.joined(separator: ";"), payloadHash].joined(separator: "\n")
    }

    /// The string the signature covers.
    public static func stringToSign(amzDate: String, scope: String, canonicalRequestHash: String) -> String {
        [algorithm, amzDate, scope, canonicalRequestHash].joined(separator: "\n")
    }
}
