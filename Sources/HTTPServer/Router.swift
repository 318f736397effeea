/// Maps a method and a path pattern (`/v1/jobs/{name}`, literal segments and `{parameter}` segments) to a handler.
public struct Router: Sendable {
    /// A handler receives the request and the path parameters by name (decoded).
    public typealias Handler = @Sendable (HTTPRequest, [String: String]) -> HTTPResponse

    private struct Route: Sendable {
        let method: String
        let pattern: String
        let segments: [Substring]
        let handler: Handler
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route; the first route that matches wins.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: pattern, segments: pattern.split(separator: "/", omittingEmptySubsequences: false), handler: handler))
    }

    /// The matching route's pattern (the label metrics count by) and handler, or why none matched.
    public func match(_ request: HTTPRequest) -> Match {
        let segments = request.rawPath.split(separator: "/", omittingEmptySubsequences: false)
        var allowed: [String] = []
        for route in routes {
            guard let parameters = Self.parameters(route.segments, segments) else { continue }
            guard route.method == request.method || (route.method == "GET" && request.method == "HEAD") else {
                allowed.append(route.method)
                continue
            }
            return .found(pattern: route.pattern, parameters: parameters, handler: route.handler)
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed)
    }

    /// The outcome of `match`.
    public enum Match: Sendable {
        case found(pattern: String, parameters: [String: String], handler: Handler)
        case notFound
        case methodNotAllowed(allowed: [String])
    }

    private static func parameters(_ pattern: [Substring], _ path: [Substring]) -> [String: String]? {
        guard pattern.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (expected, actual) in zip(pattern, path) {
            if expected.hasPrefix("{") && expected.hasSuffix("}") {
                guard !actual.isEmpty, let decoded = QueryString.percentDecoded(String(actual), plusIsSpace: false) else { return nil }
                parameters[String(expected.dropFirst().dropLast())] = decoded
            } else if expected != actual {
                return nil
            }
        }
        return parameters
    }
}
