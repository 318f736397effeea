@testable import FlightVoiceServer
import Foundation

/// An AWS client's requests, signed with Signature Version 4 the way boto3 signs them, so that tests can speak S3 and
/// Transcribe to a server without a Python environment.
struct AWSSigner {
    let accessKeyID: String
    let secret: String
    let region = "us-east-1"

    /// The first key pair in an AWS credentials file (the server's `aws-credentials`).
    init(credentialsFile: URL) throws {
        let credentials = try AWSCredentials(fileText: String(contentsOf: credentialsFile, encoding: .utf8), path: credentialsFile.path)
        guard let (keyID, secret) = credentials.secrets.first else { throw ServerFailure("no key in \(credentialsFile.path)") }
        accessKeyID = keyID
        self.secret = secret
    }

    /// The headers that sign `method path?query` with `body` for `service` (`s3`, `transcribe`) on `server`.
    func headers(_ method: String, _ path: String, query: String = "", body: Data = Data(), service: String, server: ServerProcess,
                 extra: [String: String] = [:]) throws -> [String: String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let amzDate = formatter.string(from: Date())
        let payloadHash = Crypto.hex(Crypto.sha256(body))
        var signed = ["host": "127.0.0.1:\(server.port)", "x-amz-date": amzDate, "x-amz-content-sha256": payloadHash]
        for (name, value) in extra { signed[name.lowercased()] = value }
        let names = signed.keys.sorted()
        let canonical = try SigV4Canonical.canonicalRequest(method: method, rawPath: path, rawQuery: query, headers: signed, signedHeaders: names,
                                                            payloadHash: payloadHash, service: service)
        let scope = SigV4Canonical.Authorization(accessKeyID: accessKeyID, date: String(amzDate.prefix(8)), region: region, service: service,
                                                 signedHeaders: names, signature: "")
        let stringToSign = SigV4Canonical.stringToSign(amzDate: amzDate, scope: scope.scope, canonicalRequestHash: Crypto.hex(Crypto.sha256(Array(canonical.utf8))))
        let signature = SigV4Verifier.signature(secret: secret, scope: scope, stringToSign: stringToSign)
        var headers = signed
        headers["host"] = nil
        headers["Authorization"] = "\(SigV4Canonical.algorithm) Credential=\(accessKeyID)/\(scope.scope), SignedHeaders=\(names.joined(separator: ";")), Signature=\(signature)"
        return headers
    }

    /// A signed S3 request to `server`; `path` is `/bucket` or `/bucket/key` (URI-encoded as sent).
    func s3(_ method: String, _ path: String, query: String = "", body: Data = Data(), on server: ServerProcess) throws -> ServerProcess.Response {
        let headers = try self.headers(method, path, query: query, body: body, service: "s3", server: server)
        return try server.request(method, query.isEmpty ? path : "\(path)?\(query)", body: body.isEmpty ? nil : body, headers: headers)
    }

    /// A signed call of Transcribe's JSON protocol (`POST /` with `X-Amz-Target: Transcribe.OPERATION`) to `server`.
    func transcribe(_ operation: String, _ input: [String: Any], on server: ServerProcess) throws -> ServerProcess.Response {
        let body = try JSONSerialization.data(withJSONObject: input)
        let extra = ["X-Amz-Target": "Transcribe.\(operation)", "Content-Type": "application/x-amz-json-1.1"]
        let headers = try self.headers("POST", "/", body: body, service: "transcribe", server: server, extra: extra)
        return try server.request("POST", "/", body: body, headers: headers)
    }
}
