import Foundation
import HTTPServer

/// Access keys in the AWS CLI's credentials file format (`[profile]`, `aws_access_key_id`, `aws_secret_access_key`).
struct AWSCredentials: Sendable {
    /// Secret keys by access key id, from every profile in the file.
    let secrets: [String: String]

    init(fileText: String, path: String) throws {
        var secrets: [String: String] = [:]
        var accessKey: String?
        var secret: String?
        func flush() {
            if let accessKey, let secret { secrets[accessKey] = secret }
            accessKey = nil
            secret = nil
        }
        for line in fileText.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("[") { flush(); continue }
            let pair = trimmed.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "aws_access_key_id" { accessKey = pair[1] }
            if pair[0] == "aws_secret_access_key" { secret = pair[1] }
        }
        flush()
        guard !secrets.isEmpty else { throw ServiceSetupError(message: "\(path) holds no aws_access_key_id with its aws_secret_access_key") }
        self.secrets = secrets
    }

    /// A fresh key pair in the file format, for the first start.
    static func generated() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        let keyID = "AKFV" + Crypto.randomBytes(16).map { String(alphabet[Int($0) % alphabet.count]) }.joined()
        let secret = Data(Crypto.randomBytes(30)).base64EncodedString()
        return "[default]\naws_access_key_id = \(keyID)\naws_secret_access_key = \(secret)\nregion = us-east-1\n"
    }
}

/// Checks AWS Signature Version 4 on a request against `AWSCredentials`.
struct SigV4Verifier: Sendable {
    let credentials: AWSCredentials
    /// How far a request's X-Amz-Date may be from the server's clock (AWS allows 15 minutes).
    static let allowedClockSkewSeconds = 15.0 * 60

    /// Why a request is not accepted, in the terms S3 and the JSON protocols use.
    enum Failure: Error {
        case missing(String)
        case malformed(String)
        case unknownKey(String)
        case signatureMismatch(String)
        case expired(String)
    }

    /// Verifies the request; returns the service it was signed for (`s3`, `transcribe`).
    func verify(_ request: HTTPRequest) throws(Failure) -> String {
        guard let header = request.header("authorization") else { throw .missing("the request is not signed; sign it with AWS Signature Version 4") }
        let authorization: SigV4Canonical.Authorization
        do { authorization = try SigV4Canonical.parseAuthorization(header) } catch { throw .malformed(error.problem) }
        guard let secret = credentials.secrets[authorization.accessKeyID] else {
            throw .unknownKey("the access key \(authorization.accessKeyID) is not in this server's credentials file")
        }
        guard let amzDate = request.header("x-amz-date"), amzDate.hasPrefix(authorization.date), let signedAt = Self.parse(amzDate) else {
            throw .malformed("X-Amz-Date must be YYYYMMDD'T'HHMMSS'Z' on the Credential's date")
        }
        guard abs(signedAt.timeIntervalSinceNow) <= Self.allowedClockSkewSeconds else {
            throw .expired("the request was signed at \(amzDate), more than 15 minutes from the server's time")
        }
        let bodyHash = Crypto.hex(Crypto.sha256(request.body))
        var payloadHash = bodyHash
        if let declared = request.header("x-amz-content-sha256") {
            if declared.count == 64, declared.allSatisfy(\.isHexDigit) {
                guard declared.lowercased() == bodyHash else { throw .signatureMismatch("X-Amz-Content-SHA256 does not match the body's SHA-256") }
            } else if declared != "UNSIGNED-PAYLOAD" {
                throw .malformed("X-Amz-Content-SHA256 '\(declared.prefix(40))' is not supported; send the payload's SHA-256 or UNSIGNED-PAYLOAD")
            }
            payloadHash = declared
        }
        let canonical: String
        do {
            canonical = try SigV4Canonical.canonicalRequest(method: request.method, rawPath: request.rawPath, rawQuery: request.rawQuery, headers: request.headers,
                                                            signedHeaders: authorization.signedHeaders, payloadHash: payloadHash, service: authorization.service)
        } catch {
            throw .malformed(error.problem)
        }
        let stringToSign = SigV4Canonical.stringToSign(amzDate: amzDate, scope: authorization.scope, canonicalRequestHash: Crypto.hex(Crypto.sha256(Array(canonical.utf8))))
        let expected = Self.signature(secret: secret, scope: authorization, stringToSign: stringToSign)
        guard Crypto.constantTimeEqual(expected, authorization.signature) else {
            throw .signatureMismatch("the request signature we calculated does not match the signature you provided; check your key and signing method")
        }
        return authorization.service
    }

    /// The signature of `stringToSign`: HMAC-SHA256 under the key derived from the secret, date, region and service.
    static func signature(secret: String, scope: SigV4Canonical.Authorization, stringToSign: String) -> String {
        var key = Crypto.hmacSHA256(key: Array("AWS4\(secret)".utf8), message: Array(scope.date.utf8))
        for part in [scope.region, scope.service, "aws4_request"] { key = Crypto.hmacSHA256(key: key, message: Array(part.utf8)) }
        return Crypto.hex(Crypto.hmacSHA256(key: key, message: Array(stringToSign.utf8)))
    }

    private static func parse(_ amzDate: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter.date(from: amzDate)
    }
}
