import Foundation
import Testing

/// `serve`'s log on standard error: a start line, then one logfmt line per request, never a secret.
@Suite struct RequestLogEndToEndTests {
    @Test func eachRequestGetsOneLogfmtLineWithoutTheBearerToken() throws {
        let server = try ServerProcess()
        defer { server.cleanUp() }
        let token = try server.secret("api-token")
        let update = Data(#"{"gate":"E30"}"#.utf8)
        let moved = try server.request("PUT", "/v1/flights/LX40?note=x", body: update,
                                       headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
        #expect(moved.status == 200, "\(moved.text)")
        let refused = try server.request("PUT", "/v1/flights/LX40", body: update, headers: ["Authorization": "Bearer not-the-token"])
        #expect(refused.status == 401)
        _ = server.stop()
        let lines = server.outputText.split(separator: "\n").map(String.init)

        let start = try #require(lines.first { $0.hasPrefix("event=start ") }, "\(server.outputText)")
        #expect(start.contains("command=serve") && start.contains(" revision=") && start.contains(" schema=1 ") && start.contains(" flights="), "\(start)")
        let requests = lines.filter { $0.hasPrefix("event=request ") }
        #expect(requests.contains { $0.hasPrefix("event=request method=PUT path=/v1/flights/LX40 route=/v1/flights/{flight} status=200 request_bytes=\(update.count) ") && $0.contains(" duration_ms=") },
                "\(requests)")
        #expect(requests.contains { $0.hasPrefix("event=request method=PUT path=/v1/flights/LX40 ") && $0.contains(" status=401 ") }, "\(requests)")
        #expect(lines.contains("event=stopping drain_seconds=30") && lines.contains("event=stopped drained=yes"), "\(lines)")
        #expect(!server.outputText.contains(token), "the token is in no line, not even the first start's")
        #expect(!server.outputText.contains("not-the-token") && !server.outputText.contains("Bearer") && !server.outputText.contains("note=x"),
                "no header and no query string is logged: \(server.outputText)")
    }
}
