import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import HTTPServer

/// The S3 subset Transcribe workflows use, path-style (`/bucket/key`), kept under `DATA/s3/`: create a bucket,
/// PUT/GET/HEAD/DELETE objects, ListObjectsV2. Every request is SigV4-verified.
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
        let bucketFolder = folder.absolute("s3/\(bucket)")
        let bucketExists = FileManager.default.fileExists(atPath: bucketFolder)
        if key.isEmpty {
            switch request.method {
            case "PUT":
                if !request.body.isEmpty { try Self.checkXML(request.body) }
                do { try FileManager.default.createDirectory(atPath: bucketFolder, withIntermediateDirectories: true) } catch {
                    throw S3Error(status: 500, code: "InternalError", message: "cannot create the bucket: \(error.localizedDescription)")
                }
                return HTTPResponse(status: 200, headers: ["Location": "/\(bucket)"])
            case "HEAD":
                return HTTPResponse(status: bucketExists ? 200 : 404)
            case "GET":
                guard bucketExists else { throw S3Error(status: 404, code: "NoSuchBucket", message: "the bucket \(bucket) does not exist") }
                return try listObjects(bucket: bucket, folder: bucketFolder, query: request.query)
            case "DELETE":
                guard bucketExists else { throw S3Error(status: 404, code: "NoSuchBucket", message: "the bucket \(bucket) does not exist") }
                guard (try? FileManager.default.contentsOfDirectory(atPath: bucketFolder).isEmpty) == true else {
                    throw S3Error(status: 409, code: "BucketNotEmpty", message: "the bucket \(bucket) is not empty")
                }
                try? FileManager.default.removeItem(atPath: bucketFolder)
                return HTTPResponse(status: 204)
            default:
                throw S3Error(status: 405, code: "MethodNotAllowed", message: "\(request.method) is not supported on a bucket")
            }
        }
        guard let relative = DataFolder.objectPath(bucket: bucket, key: key) else {
            throw S3Error(status: 400, code: "InvalidArgument", message: "the key is not allowed: 1 to 1024 bytes, no empty, '.' or '..' segments, no leading or trailing '/'")
        }
        guard bucketExists else { throw S3Error(status: 404, code: "NoSuchBucket", message: "the bucket \(bucket) does not exist; create it with PUT /\(bucket)") }
        let path = folder.absolute(relative)
        switch request.method {
        case "PUT":
            do { try folder.write(request.body, to: relative) } catch {
                throw S3Error(status: 409, code: "InvalidArgument", message: "cannot store the object (does a prefix of the key name an object?): \(error.localizedDescription)")
            }
            return HTTPResponse(status: 200, headers: ["ETag": Self.etag(request.body)])
        case "GET", "HEAD":
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
                throw S3Error(status: 404, code: "NoSuchKey", message: "the object \(key) does not exist in \(bucket)")
            }
            let type = key.hasSuffix(".json") ? "application/json" : "application/octet-stream"
            return HTTPResponse(status: 200, headers: ["ETag": Self.etag(data), "Content-Type": type], body: .bytes(data))
        case "DELETE":
            try? FileManager.default.removeItem(atPath: path)
            return HTTPResponse(status: 204)
        default:
            throw S3Error(status: 405, code: "MethodNotAllowed", message: "\(request.method) is not supported on an object")
        }
    }

    private func listObjects(bucket: String, folder bucketFolder: String, query: [String: String]) throws(S3Error) -> HTTPResponse {
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
            after = max(after, decoded)
        }
        var keys: [(key: String, size: Int, modified: Date)] = []
        let root = URL(fileURLWithPath: bucketFolder)
        if let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]) {
            for case let url as URL in walker {
                guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]), values.isRegularFile == true else { continue }
                let key = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                guard key.hasPrefix(prefix), key > after, DataFolder.isValidKey(key), !url.lastPathComponent.hasPrefix(".") else { continue }
                keys.append((key, values.fileSize ?? 0, values.contentModificationDate ?? Date()))
            }
        }
        keys.sort { $0.key < $1.key }
        let page = keys.prefix(maximum)
        let truncated = keys.count > page.count
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
