import Foundation

/// One HTTP request, fully received: what a route handler sees.
public struct HTTPRequest: Sendable {
    /// "GET", "POST", ... as sent.
    public let method: String
    /// The request target exactly as sent (path and query string, still percent-encoded): SigV4 signs this form.
    public let rawTarget: String
    /// The path, percent-decoded (`/v1/transcription-jobs/j1`).
    public let path: String
    /// The path as sent, still percent-encoded.
    public let rawPath: String
    /// The query string as sent, without "?" (empty when there is none).
    public let rawQuery: String
    /// Query parameters, decoded; a repeated name keeps its first value.
    public let query: [String: String]
    /// Header fields, names lower-cased; repeated fields joined with ",".
    public let headers: [String: String]
    /// The body; empty when none was sent.
    public let body: Data

    /// Builds a request from the raw target; throws `QueryString.Malformed` for a broken query string.
    public init(method: String, rawTarget: String, headers: [String: String], body: Data) throws(QueryString.Malformed) {
        self.method = method
        self.rawTarget = rawTarget
        let questionMark = rawTarget.firstIndex(of: "?")
        rawPath = String(rawTarget[..<(questionMark ?? rawTarget.endIndex)])
        rawQuery = questionMark.map { String(rawTarget[rawTarget.index(after: $0)...]) } ?? ""
        path = QueryString.percentDecoded(rawPath, plusIsSpace: false) ?? rawPath
        var query: [String: String] = [:]
        for (name, value) in try QueryString.parse(rawQuery) where query[name] == nil { query[name] = value }
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The value of header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The media type of the body without parameters, lower-cased (`audio/wav`), or nil.
    public var contentType: String? {
        header("content-type").map { $0.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "" }
    }
}

/// One HTTP response: a status, headers and a body given whole or produced piece by piece.
public struct HTTPResponse: Sendable {
    /// How the body is produced.
    public enum Body: Sendable {
        /// The whole body at once.
        case bytes(Data)
        /// A body of unknown length: `next` is called on the connection's thread (it may block) until it returns nil.
        case stream(next: @Sendable () -> Data?)
    }

    public var status: Int
    /// Header fields to send (Content-Length is set by the server).
    public var headers: [String: String]
    public var body: Body

    public init(status: Int, headers: [String: String] = [:], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body (`application/json` unless `contentType` says otherwise).
    public static func json(_ status: Int, _ text: String, contentType: String = "application/json", headers: [String: String] = [:]) -> HTTPResponse {
        var all = headers
        all["Content-Type"] = contentType
        return HTTPResponse(status: status, headers: all, body: .bytes(Data(text.utf8)))
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ text: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: .bytes(Data(text.utf8)))
    }
}
