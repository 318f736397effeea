import Foundation
import Testing

/// A reader for the YAML subset docs/openapi.yaml is written in: block mappings, lists of scalars or mappings,
/// `[a, b]` inline lists, quoted or plain scalars, `#` comment lines.
enum MiniYAML {
    indirect enum Node {
        case scalar(String)
        case list([Node])
        case map([String: Node])

        subscript(key: String) -> Node? {
            if case .map(let members) = self { return members[key] }
            return nil
        }

        var text: String? {
            if case .scalar(let value) = self { return value }
            return nil
        }

        var strings: [String] {
            if case .list(let items) = self { return items.compactMap(\.text) }
            return []
        }
    }

    private struct Line {
        let indent: Int
        let content: String
    }

    static func parse(_ text: String) -> Node {
        let lines = text.split(separator: "\n").compactMap { raw -> Line? in
            let content = raw.trimmingCharacters(in: .whitespaces)
            guard !content.isEmpty, !content.hasPrefix("#") else { return nil }
            return Line(indent: raw.prefix { $0 == " " }.count, content: content)
        }
        var index = 0
        return block(lines, &index, indent: 0)
    }

    private static func block(_ lines: [Line], _ index: inout Int, indent: Int) -> Node {
        if index < lines.count, lines[index].content.hasPrefix("- ") {
            var items: [Node] = []
            while index < lines.count, lines[index].indent == indent, lines[index].content.hasPrefix("- ") {
                let rest = String(lines[index].content.dropFirst(2))
                if rest.contains(": ") || rest.hasSuffix(":") {
                    // A mapping item: re-read its first line as a key at the item's inner indent.
                    var inner = lines
                    inner[index] = Line(indent: indent + 2, content: rest)
                    items.append(block(inner, &index, indent: indent + 2))
                } else {
                    items.append(.scalar(unquoted(rest)))
                    index += 1
                }
            }
            return .list(items)
        }
        var members: [String: Node] = [:]
        while index < lines.count, lines[index].indent == indent, !lines[index].content.hasPrefix("- ") {
            let content = lines[index].content
            // A key ends at the first ": " or at a final ":" (keys such as /v1/flights:import contain colons).
            let keyEnd = content.hasPrefix("\"") ? content.index(after: content.range(of: "\":")!.lowerBound)
                : content.range(of: ": ")?.lowerBound ?? content.index(before: content.endIndex)
            let key = unquoted(String(content[..<keyEnd]))
            let value = content[content.index(keyEnd, offsetBy: 1)...].trimmingCharacters(in: .whitespaces)
            index += 1
            if value.isEmpty {
                if index < lines.count, lines[index].indent > indent || (lines[index].indent == indent && lines[index].content.hasPrefix("- ")) {
                    members[key] = block(lines, &index, indent: lines[index].indent)
                } else {
                    members[key] = .map([:])
                }
            } else if value.hasPrefix("[") && value.hasSuffix("]") {
                members[key] = .list(value.dropFirst().dropLast().split(separator: ",").map { .scalar(unquoted($0.trimmingCharacters(in: .whitespaces))) })
            } else {
                members[key] = .scalar(unquoted(value))
            }
        }
        return .map(members)
    }

    private static func unquoted(_ text: String) -> String {
        text.count >= 2 && text.hasPrefix("\"") && text.hasSuffix("\"") ? String(text.dropFirst().dropLast()) : text
    }
}

/// Real responses against docs/openapi.yaml: every route and status exercised is documented, and JSON bodies carry
/// the documented required fields.
@Suite(.serialized) struct OpenAPIConformanceTests {
    static let document = MiniYAML.parse(try! String(contentsOf: ServerProcess.packageRoot.appendingPathComponent("docs/openapi.yaml"), encoding: .utf8))

    static func resolve(_ node: MiniYAML.Node?) -> MiniYAML.Node? {
        guard let reference = node?["$ref"]?.text else { return node }
        var current: MiniYAML.Node? = document
        for part in reference.dropFirst(2).split(separator: "/") { current = current?[String(part)] }
        return resolve(current)
    }

    /// The documented path template a concrete path falls under (`/v1/transcription-jobs/j1` → `.../{name}`), or nil.
    static func template(for path: String) -> String? {
        guard case .map(let paths) = document["paths"] else { return nil }
        let segments = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/", omittingEmptySubsequences: false) } ?? []
        let candidates = paths.keys.sorted { $0.filter { $0 == "{" }.count < $1.filter { $0 == "{" }.count }
        for template in candidates {
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            if template == "/{bucket}/{key}" {
                if segments.count >= 3, !path.hasPrefix("/v1/") { return template }
                continue
            }
            guard parts.count == segments.count else { continue }
            if zip(parts, segments).allSatisfy({ $0.hasPrefix("{") ? !$1.isEmpty : $0 == $1 }) { return template }
        }
        return nil
    }

    /// Checks any response of a documented route and method (every request the end-to-end tests make comes here).
    static func checkIfDocumented(_ method: String, path: String, _ response: ServerProcess.Response) {
        let documentedMethod = method == "HEAD" ? "GET" : method
        guard let route = template(for: path), document["paths"]?[route]?[documentedMethod.lowercased()] != nil else { return }
        check(documentedMethod, route, response)
    }

    /// Records an issue for each way `response` departs from the document's `route` / `method` / status.
    static func check(_ method: String, _ route: String, _ response: ServerProcess.Response) {
        guard let operation = document["paths"]?[route]?[method.lowercased()] else {
            Issue.record("\(method) \(route) is not documented")
            return
        }
        guard let documented = resolve(operation["responses"]?[String(response.status)]) else {
            Issue.record("\(method) \(route) answered \(response.status), which is not documented: \(response.text.prefix(200))")
            return
        }
        guard let schema = resolve(documented["content"]?["application/json"]?["schema"]) ?? resolve(documented["content"]?["application/x-amz-json-1.1"]?["schema"]) else { return }
        let body = response.json
        for field in schema["required"]?.strings ?? [] {
            #expect(body.keys.contains(field), "\(method) \(route) \(response.status) lacks the required field \(field)")
        }
        if let inner = schema["properties"]?["error"]?["required"]?.strings, let error = body["error"] as? [String: Any] {
            for field in inner { #expect(error.keys.contains(field), "error object lacks \(field)") }
        }
    }

    @Test func theDocumentParses() throws {
        let paths = try #require(Self.document["paths"])
        #expect(paths["/v1/transcription-jobs/{name}"]?["get"]?["responses"]?["200"] != nil)
        #expect(Self.resolve(paths["/v1/recognize"]?["post"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"])?["required"]?.strings.contains("flight") == true)
    }

    @Test func everyExercisedResponseIsDocumented() throws {
        let server = try ServerProcess()
        defer { server.cleanUp() }
        let clip = try Data(contentsOf: ServerProcess.samples.appendingPathComponent("lx40.wav"))
        let token = try server.secret("api-token")
        let bearer = ["Authorization": "Bearer \(token)"]
        let exchanges: [(String, String, () throws -> ServerProcess.Response)] = [
            ("GET", "/healthz", { try server.request("GET", "/healthz") }),
            ("GET", "/metrics", { try server.request("GET", "/metrics") }),
            ("POST", "/v1/recognize", { try server.request("POST", "/v1/recognize", body: clip) }),
            ("POST", "/v1/recognize", { try server.request("POST", "/v1/recognize", body: Data("text".utf8)) }),
            ("POST", "/v1/recognize", { try server.request("POST", "/v1/recognize?format=pcm", body: clip) }),
            ("POST", "/v1/transcription-jobs", { try server.createJob("doc", clip: ServerProcess.samples.appendingPathComponent("lx40.wav")) }),
            ("POST", "/v1/transcription-jobs", { try server.createJob("doc", clip: ServerProcess.samples.appendingPathComponent("lx40.wav")) }),
            ("POST", "/v1/transcription-jobs", { try server.request("POST", "/v1/transcription-jobs", body: Data("{".utf8), headers: ["Content-Type": "application/json"]) }),
            ("GET", "/v1/transcription-jobs/{name}", { try server.request("GET", "/v1/transcription-jobs/doc?wait=60") }),
            ("GET", "/v1/transcription-jobs/{name}", { try server.request("GET", "/v1/transcription-jobs/missing") }),
            ("GET", "/v1/transcription-jobs/{name}", { try server.request("GET", "/v1/transcription-jobs/doc?wait=x") }),
            ("GET", "/v1/transcription-jobs/{name}/transcript", { try server.request("GET", "/v1/transcription-jobs/doc/transcript") }),
            ("GET", "/v1/transcription-jobs/{name}/transcript", { try server.request("GET", "/v1/transcription-jobs/missing/transcript") }),
            ("GET", "/v1/transcription-jobs/{name}/events", { try server.request("GET", "/v1/transcription-jobs/doc/events") }),
            ("GET", "/v1/transcription-jobs/{name}/events", { try server.request("GET", "/v1/transcription-jobs/missing/events") }),
            ("GET", "/v1/transcription-jobs", { try server.request("GET", "/v1/transcription-jobs?maxResults=1") }),
            ("GET", "/v1/transcription-jobs", { try server.request("GET", "/v1/transcription-jobs?maxResults=0") }),
            ("GET", "/v1/flights", { try server.request("GET", "/v1/flights?direction=arrival") }),
            ("GET", "/v1/flights", { try server.request("GET", "/v1/flights?q=swiss%20forty") }),
            ("GET", "/v1/flights/{flight}", { try server.request("GET", "/v1/flights/LX40") }),
            ("GET", "/v1/flights/{flight}", { try server.request("GET", "/v1/flights/LX4077") }),
            ("GET", "/v1/flights/{flight}", { try server.request("GET", "/v1/flights/hello") }),
            ("PUT", "/v1/flights/{flight}", { try server.request("PUT", "/v1/flights/LX40", body: Data(#"{"status":"final call"}"#.utf8), headers: bearer) }),
            ("PUT", "/v1/flights/{flight}", { try server.request("PUT", "/v1/flights/LX40", body: Data("[]".utf8), headers: bearer) }),
            ("PUT", "/v1/flights/{flight}", { try server.request("PUT", "/v1/flights/LX40", body: Data("{}".utf8)) }),
            ("POST", "/v1/flights:import", { try server.request("POST", "/v1/flights:import", body: Data("flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares\nLX41,Swiss,arrival,JFK,New York,07:05,,E,,3,landed,\n".utf8), headers: bearer) }),
            ("POST", "/v1/flights:import", { try server.request("POST", "/v1/flights:import", body: Data("flight\nnot a flight\n".utf8), headers: bearer) }),
            ("POST", "/", { try server.request("POST", "/", body: Data("{}".utf8), headers: ["X-Amz-Target": "Transcribe.ListTranscriptionJobs"]) }),
            ("DELETE", "/v1/transcription-jobs/{name}", { try server.request("DELETE", "/v1/transcription-jobs/doc") }),
            ("DELETE", "/v1/transcription-jobs/{name}", { try server.request("DELETE", "/v1/transcription-jobs/doc") }),
        ]
        var statuses: [String: Set<Int>] = [:]
        for (method, route, exchange) in exchanges {
            let response = try exchange()
            Self.check(method, route, response)
            statuses["\(method) \(route)", default: []].insert(response.status)
        }
        #expect(statuses["POST /v1/recognize"] == [200, 400, 415])
        #expect(statuses["POST /v1/transcription-jobs"] == [201, 400, 409])
        #expect(statuses["DELETE /v1/transcription-jobs/{name}"] == [204, 404])
        #expect(statuses["PUT /v1/flights/{flight}"] == [200, 400, 401])
        #expect(statuses["POST /"] == [403])
    }
}
