@testable import FlightVoiceServer
import Foundation
import Testing

/// Signature Version 4 against AWS's published test suite ("get-vanilla", "get-vanilla-query-order-key-case").
@Suite struct SigV4Tests {
    static let secret = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    func sign(query: String, signature: String) throws -> String {
        let header = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=\(signature)"
        let authorization = try SigV4Canonical.parseAuthorization(header)
        let canonical = try SigV4Canonical.canonicalRequest(method: "GET", rawPath: "/", rawQuery: query,
                                                            headers: ["host": "example.amazonaws.com", "x-amz-date": "20150830T123600Z"],
                                                            signedHeaders: authorization.signedHeaders, payloadHash: Self.emptyHash, service: authorization.service)
        let stringToSign = SigV4Canonical.stringToSign(amzDate: "20150830T123600Z", scope: authorization.scope, canonicalRequestHash: Crypto.hex(Crypto.sha256(Array(canonical.utf8))))
        return SigV4Verifier.signature(secret: Self.secret, scope: authorization, stringToSign: stringToSign)
    }

    @Test func getVanilla() throws {
        let expected = "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
        #expect(try sign(query: "", signature: expected) == expected)
    }

    @Test func queryParametersAreSortedAndEncoded() throws {
        let expected = "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"
        #expect(try sign(query: "Param2=value2&Param1=value1", signature: expected) == expected)
    }

    @Test(arguments: ["Basic abc", "AWS4-HMAC-SHA256 Credential=K/2015/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00",
                      "AWS4-HMAC-SHA256 Credential=K/20150830/us-east-1/s3/aws4_request, SignedHeaders=x-amz-date, Signature=" + String(repeating: "0", count: 64),
                      "AWS4-HMAC-SHA256 SignedHeaders=host"])
    func malformedAuthorizationHeadersSayWhy(_ header: String) {
        #expect(throws: SigV4Canonical.Malformed.self) { try SigV4Canonical.parseAuthorization(header) }
    }

    @Test func constantTimeComparison() {
        #expect(Crypto.constantTimeEqual("token", "token"))
        #expect(!Crypto.constantTimeEqual("token", "tokeN"))
        #expect(!Crypto.constantTimeEqual("token", "token-longer"))
    }
}

/// Names and keys from clients never reach outside the data folder.
@Suite struct DataFolderTests {
    @Test(arguments: ["..", "../x", "a/../../b", "/etc/passwd", "a//b", "a/./b", "a/", "", String(repeating: "k", count: 1025), "a\u{0}b"])
    func escapingKeysAreRefused(_ key: String) {
        #expect(DataFolder.objectPath(bucket: "calls", key: key) == nil)
    }

    @Test(arguments: ["..", ".", "A", "ab", "Calls", "a_b", "-" + String(repeating: "b", count: 63), ".hidden"])
    func badBucketsAreRefused(_ bucket: String) {
        #expect(DataFolder.objectPath(bucket: bucket, key: "k") == nil)
    }

    @Test func ordinaryKeysStayInTheirBucket() {
        #expect(DataFolder.objectPath(bucket: "calls", key: "incoming/query 1.wav") == "s3/calls/incoming/query 1.wav")
        #expect(DataFolder.objectPath(bucket: "my.bucket-1", key: "..a/b..") == "s3/my.bucket-1/..a/b..")
    }

    @Test(arguments: [("j1", true), ("a.b_c-D", true), ("..", false), (".", false), ("a/b", false), ("a b", false), ("", false), (String(repeating: "x", count: 201), false)])
    func jobNames(_ name: String, _ valid: Bool) {
        #expect(DataFolder.isValidJobName(name) == valid)
    }
}
