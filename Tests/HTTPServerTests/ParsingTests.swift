import Foundation
import HTTPServer
import Testing

@Suite struct QueryStringTests {
    @Test func decodesPairsPlusAndEscapes() throws {
        let pairs = try QueryString.parse("name=j%201&flag&languageCode=en-US&q=l+x+40&&x=%E2%9C%88")
        #expect(pairs.map(\.name) == ["name", "flag", "languageCode", "q", "x"])
        #expect(pairs.map(\.value) == ["j 1", "", "en-US", "l x 40", "✈"])
    }

    @Test(arguments: ["a=%", "a=%4", "a=%zz", "%ff=1", "a=%C3%28"])
    func refusesBrokenEscapes(_ query: String) {
        #expect(throws: QueryString.Malformed.self) { try QueryString.parse(query) }
    }

    @Test func awsEncodingKeepsUnreservedOnly() {
        #expect(QueryString.uriEncoded("a b/c~d.e_f-g+h*") == "a%20b%2Fc~d.e_f-g%2Bh%2A")
        #expect(QueryString.uriEncoded("incoming/query 1.wav", encodeSlash: false) == "incoming/query%201.wav")
    }

    @Test func requestSplitsPathAndQuery() throws {
        let request = try HTTPRequest(method: "GET", rawTarget: "/v1/flights/L%20X%2040?q=a&q=b", headers: [:], body: Data())
        #expect(request.path == "/v1/flights/L X 40")
        #expect(request.rawPath == "/v1/flights/L%20X%2040")
        #expect(request.rawQuery == "q=a&q=b")
        #expect(request.query == ["q": "a"])
    }
}

@Suite struct MultipartTests {
    static let body = Array("preamble\r\n--b0\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nj1\r\n--b0\r\nContent-Disposition: form-data; name=\"media\"; filename=\"a.wav\"\r\nContent-Type: audio/wav\r\n\r\nRIFF\r\n--b\r\n--b0--\r\n".utf8)

    @Test func readsFieldsAndFiles() throws {
        let parts = try Multipart.parse(Self.body, boundary: "b0")
        #expect(parts.map(\.name) == ["name", "media"])
        #expect(parts[0].text == "j1")
        #expect(parts[1].fileName == "a.wav")
        #expect(parts[1].contentType == "audio/wav")
        #expect(parts[1].body == Array("RIFF\r\n--b".utf8), "a near-boundary inside the data is data")
    }

    @Test func boundaryFromTheHeader() {
        #expect(Multipart.boundary(fromContentType: "multipart/form-data; boundary=\"abc def\"") == "abc def")
        #expect(Multipart.boundary(fromContentType: "multipart/form-data; charset=utf-8; boundary=xyz") == "xyz")
        #expect(Multipart.boundary(fromContentType: "multipart/form-data") == nil)
    }

    @Test(arguments: ["no boundary at all", "--b0\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated",
                      "--b0\r\nno colon here\r\n\r\nx\r\n--b0--", "--b0\r\nContent-Type: text/plain\r\n\r\nx\r\n--b0--", "--b0garbage"])
    func malformedBodiesSayWhy(_ text: String) {
        #expect(throws: Multipart.Malformed.self) { try Multipart.parse(Array(text.utf8), boundary: "b0") }
    }
}

@Suite struct RouterTests {
    static let router: Router = {
        var router = Router()
        router.add("GET", "/v1/jobs/{name}") { _, parameters in HTTPResponse.text(200, parameters["name"]!) }
        router.add("DELETE", "/v1/jobs/{name}") { _, _ in HTTPResponse(status: 204) }
        return router
    }()

    @Test func matchesPatternsAndDecodesParameters() throws {
        guard case .found(let pattern, let parameters, _) = Self.router.match(try HTTPRequest(method: "GET", rawTarget: "/v1/jobs/a%2Eb", headers: [:], body: Data())) else {
            Issue.record("no match")
            return
        }
        #expect(pattern == "/v1/jobs/{name}")
        #expect(parameters == ["name": "a.b"])
    }

    @Test func tellsNotFoundFromMethodNotAllowed() throws {
        guard case .methodNotAllowed(let allowed) = Self.router.match(try HTTPRequest(method: "PUT", rawTarget: "/v1/jobs/x", headers: [:], body: Data())) else {
            Issue.record("expected 405")
            return
        }
        #expect(allowed == ["GET", "DELETE"])
        guard case .notFound = Self.router.match(try HTTPRequest(method: "GET", rawTarget: "/v1/jobs/", headers: [:], body: Data())) else {
            Issue.record("an empty parameter matches nothing")
            return
        }
    }
}
