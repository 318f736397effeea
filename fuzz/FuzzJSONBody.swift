import Foundation

/// libFuzzer entry: job-creation JSON bodies through the service's decoder and validation, and any JSON back into a value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(bytes: data, count: size)
    if let fields = try? JSONBody.decode(JobCreationFields.self, from: body) { _ = try? fields.validated() }
    if let value = DecodedJSON.parse(String(decoding: body, as: UTF8.self)) { _ = value.serialized() }
    return 0
}
