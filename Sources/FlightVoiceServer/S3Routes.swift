import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPServer
import TranscriptionJobs

/// The S3 subset Transcribe workflows use, path-style (`/bucket/key`), kept in the backend's `ObjectStore` (the data
/// folder's `s3/`, or the fleet's database): create a bucket, PUT/GET/HEAD/DELETE objects, ListObjectsV2. Every
/// request is SigV4-verified.
extension FlightVoiceService {
    struct S3Error: Error {
        let status: Int
        let code: String
        let message: String

        func response(resource: String, method: String) -> HTTPResponse {
            guard method != "HEAD" else { return HTTPResponse(status: status) }
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>\(code)</Code><Message>\(S3XML.escaped(message))</Message><Resource>\(S3XML.escaped(resource))</Resource></Error>"
            return HTTPResponse(status: status, headers: ["Content-Type": "application/xml"], body: .bytes(Data(xml.utf8)))
        }
    }

    /// True when the first path segment can be a bucket, so the request is S3's.
    static func isS3Path(_ path: String) -> Bool {
        guard let first = path.split(separator: "/").first else { return false }
        return DataFolder.isValidBucket(String(first))
    }

    func s3(_ request: HTTPRequest) -> HTTPResponse {
        do {
            return try s3Operation(request)
        } catch {
            return error.response(resource: request.path, method: request.method)
        }
    }

    private func s3Operation(_ request: HTTPRequest) throws(S3Error) -> HTTPResponse {
        do {
            _ = try SigV4Verifier(credentials: credentials).verify(request)
        } catch {
            switch error {
            case .missing(let message): throw S3Error(status: 403, code: "AccessDenied", message: message)
            case .malformed(let message): throw S3Error(status: 400, code: "AuthorizationHeaderMalformed", message: message)
            case .unknownKey(let message): throw S3Error(status: 403, code: "InvalidAccessKeyId", message: message)
            case .signatureMismatch(let message): throw S3Error(status: 403, code: "SignatureDoesNotMatch", message: message)
            case .expired(let message): throw S3Error(status: 403, code: "RequestTimeTooSkewed", message: message)
            }
        }
        let trimmed = request.path.dropFirst()
        let slash = trimmed.firstIndex(of: "/")
        let bucket = String(trimmed[..<(slash ?? trimmed.endIndex)])
        let key = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? ""
        guard DataFolder.isValidBucket(bucket) else { throw S3Error(status: 400, code: "InvalidBucketName", message: "'\(bucket.prefix(70))' is not a bucket name: 3 to 63 of a-z 0-9 . -") }
        let bucketExists = try stored { try objects.bucketExists(bucket) }
        if key.isEmpty {
            switch request.method {
            case "PUT":
                if !request.body.isEmpty { try Self.checkXML(request.body) }
                try stored { try objects.createBucket(bucket, now: Date()) }
                return HTTPResponse(status: 200, headers: ["Location": "/\(bucket)"])
            case "HEAD":
                return HTTPResponse(status: bucketExists ? 200 : 404)
            case "GET":
                guard bucketExists else { throw S3Error(status: 404, code: "NoSuchBucket", message: "the bucket \(bucket) does not exist") }
                return try listObjects(bucket: bucket, query: request.query)
            case "DELETE":
                guard try stored({ try objects.deleteBucket(bucket) }) else { throw S3Error(status: 404, code: "NoSuchBucket", message: "the bucket \(bucket) does not exist") }
                return HTTPResponse(status: 204)
            default:
                throw S3Error(status: 405, code: "MethodNotAllowed", message: "\(request.method) is not supported on a bucket")
            }
        }
        guard DataFolder.objectPath(bucket: bucket, key: key) != nil else {
            throw S3Error(status: 400, code: "InvalidArgument", message: "the key is not allowed: 1 to 1024 bytes, no empty, '.' or '..' segments, no leading or trailing '/'")
        }
        guard bucketExists else { throw S3Error(status: 404, code: "NoSuchBucket", message: "the bucket \(bucket) does not exist; create it with PUT /\(bucket)") }
        switch request.method {
        case "PUT":
            guard request.body.count <= objects.maximumObjectBytes else {
                throw S3Error(status: 413, code: "EntityTooLarge", message: ObjectStoreError.tooLarge(bytes: request.body.count, limit: objects.maximumObjectBytes).description)
            }
            try stored { try objects.putObject(request.body, bucket: bucket, key: key, now: Date()) }
            return HTTPResponse(status: 200, headers: ["ETag": Self.etag(request.body)])
        case "GET", "HEAD":
            guard let object = try stored({ try objects.object(bucket: bucket, key: key) }) else {
                throw S3Error(status: 404, code: "NoSuchKey", message: "the object \(key) does not exist in \(bucket)")
            }
            let type = key.hasSuffix(".json") ? "application/json" : "application/octet-stream"
            return HTTPResponse(status: 200, headers: ["ETag": Self.etag(object.data), "Content-Type": type], body: .bytes(object.data))
        case "DELETE":
            try stored { try objects.deleteObject(bucket: bucket, key: key) }
            return HTTPResponse(status: 204)
        default:
            throw S3Error(status: 405, code: "MethodNotAllowed", message: "\(request.method) is not supported on an object")
        }
    }

    /// Runs an object store operation, turning its refusals into S3's errors and anything else into 500.
    private func stored<Value>(_ operation: () throws -> Value) throws(S3Error) -> Value {
        do {
            return try operation()
        } catch let refusal as ObjectStoreError {
            switch refusal {
            case .noSuchBucket: throw S3Error(status: 404, code: "NoSuchBucket", message: refusal.description)
            case .bucketNotEmpty: throw S3Error(status: 409, code: "BucketNotEmpty", message: refusal.description)
            case .tooLarge: throw S3Error(status: 413, code: "EntityTooLarge", message: refusal.description)
            case .keyConflict: throw S3Error(status: 409, code: "InvalidArgument", message: refusal.description)
            }
        } catch {
            throw S3Error(status: 500, code: "InternalError", message: "the object store failed: \(error)")
        }
    }

    private func listObjects(bucket: String, query: [String: String]) throws(S3Error) -> HTTPResponse {
        guard query["list-type"] == "2" else { throw S3Error(status: 400, code: "InvalidArgument", message: "only ListObjectsV2 (list-type=2) is served") }
        let prefix = query["prefix"] ?? ""
        var maximum = 1000
        if let text = query["max-keys"] {
            guard let value = Int(text), (0...1000).contains(value) else { throw S3Error(status: 400, code: "InvalidArgument", message: "max-keys must be from 0 to 1000") }
            maximum = value
        }
        var after = query["start-after"] ?? ""
        if let token = query["continuation-token"] {
            guard let decoded = Data(base64Encoded: token).flatMap({ String(data: $0, encoding: .utf8) }) else {
                throw S3Error(status: 400, code: "InvalidArgument", message: "the continuation token is not one this server handed out")
            }
            if after.utf8.lexicographicallyPrecedes(decoded.utf8) { after = decoded }
        }
        let (page, truncated) = try stored { try objects.listObjects(bucket: bucket, prefix: prefix, after: after, limit: maximum) }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        xml += "<Name>\(S3XML.escaped(bucket))</Name><Prefix>\(S3XML.escaped(prefix))</Prefix><KeyCount>\(page.count)</KeyCount><MaxKeys>\(maximum)</MaxKeys><IsTruncated>\(truncated)</IsTruncated>"
        for entry in page {
            xml += "<Contents><Key>\(S3XML.escaped(entry.key))</Key><LastModified>\(formatter.string(from: entry.modified))</LastModified><Size>\(entry.size)</Size><StorageClass>STANDARD</StorageClass></Contents>"
        }
        if truncated, let last = page.last { xml += "<NextContinuationToken>\(Data(last.key.utf8).base64EncodedString())</NextContinuationToken>" }
        if let token = query["continuation-token"] { xml += "<ContinuationToken>\(S3XML.escaped(token))</ContinuationToken>" }
        xml += "</ListBucketResult>"
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/xml"], body: .bytes(Data(xml.utf8)))
    }

    /// 400 MalformedXML naming the parser's complaint and line.
    static func checkXML(_ body: Data) throws(S3Error) {
        if let problem = S3XML.problem(in: body) { throw S3Error(status: 400, code: "MalformedXML", message: "the XML body is not well-formed: \(problem)") }
    }

    static func etag(_ data: Data) -> String { "\"\(Crypto.hex(Crypto.sha256(data)).prefix(32))\"" }
}

/// XML helpers for S3 bodies.
enum S3XML {
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Nil for well-formed XML, else the parser's error and line.
    static func problem(in data: Data) -> String? {
        let parser = XMLParser(data: data)
        guard !parser.parse() else { return nil }
        return "\(parser.parserError?.localizedDescription ?? "parse error") at line \(parser.lineNumber)"
    }
}
