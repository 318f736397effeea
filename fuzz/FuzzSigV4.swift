/// libFuzzer entry: SigV4 Authorization headers and canonical requests. Input lines: Authorization header, method,
/// request target, then "name: value" header lines.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSigV4(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard lines.count >= 3, let authorization = try? SigV4Canonical.parseAuthorization(lines[0]) else { return 0 }
    var headers: [String: String] = [:]
    for line in lines.dropFirst(3) {
        let pair = line.split(separator: ":", maxSplits: 1)
        if pair.count == 2 { headers[pair[0].lowercased()] = String(pair[1]) }
    }
    let target = lines[2]
    let question = target.firstIndex(of: "?")
    let path = String(target[..<(question ?? target.endIndex)])
    let query = question.map { String(target[target.index(after: $0)...]) } ?? ""
    if let canonical = try? SigV4Canonical.canonicalRequest(method: lines[1], rawPath: path, rawQuery: query, headers: headers,
                                                             signedHeaders: authorization.signedHeaders, payloadHash: "UNSIGNED-PAYLOAD", service: authorization.service) {
        _ = SigV4Canonical.stringToSign(amzDate: "20261201T000000Z", scope: authorization.scope, canonicalRequestHash: String(canonical.count))
    }
    return 0
}
