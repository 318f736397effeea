/// libFuzzer entry: multipart bodies; the first line is the Content-Type header, the rest the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 10) ?? bytes.count
    let header = String(decoding: bytes[..<newline], as: UTF8.self)
    let boundary = Multipart.boundary(fromContentType: header) ?? "b"
    if let parts = try? Multipart.parse(Array(bytes.dropFirst(newline + 1)), boundary: boundary) {
        for part in parts { _ = part.text }
    }
    return 0
}
