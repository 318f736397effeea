import Foundation

/// libFuzzer entry: request targets (path and query string) as the HTTP layer splits and decodes them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryString(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let target = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if let request = try? HTTPRequest(method: "GET", rawTarget: target, headers: [:], body: Data()) {
        for (name, value) in request.query {
            precondition(QueryString.percentDecoded(QueryString.uriEncoded(name), plusIsSpace: false) == name, "encoding must round-trip")
            _ = QueryString.uriEncoded(value, encodeSlash: false)
        }
    }
    return 0
}
