import CMicroHTTPD
import Foundation
import Synchronization

/// Limits and addresses of an `HTTPServer`.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind: an IPv4 or IPv6 literal (127.0.0.1 keeps the service on this machine).
    public var host = "127.0.0.1"
    /// The port; 0 asks the system for a free one (see `HTTPServer.port`).
    public var port: UInt16 = 8080
    /// Bodies larger than this are refused with 413 (by Content-Length before reading, or when they grow past it).
    public var maximumBodyBytes = 64 * 1024 * 1024
    /// A connection that sends or reads nothing for this long is closed (idle keep-alive and stalled clients).
    public var idleTimeoutSeconds: UInt32 = 30
    /// A request whose body is still arriving after this long is cut off (a client trickling bytes to hold a thread).
    public var bodyDeadlineSeconds: Double = 120
    /// At most this many connections at once; each has its own thread, which lets handlers block (long polls, SSE).
    public var connectionLimit: UInt32 = 512

    public init() {}
}

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// True for an IPv4 or IPv6 address literal, the only hosts `HTTPServerConfiguration` takes.
public func isIPAddressLiteral(_ host: String) -> Bool {
    var v4 = in_addr(), v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
}

/// An HTTP/1.1 server on libmicrohttpd: one thread per connection, requests handed whole to `handler`.
///
/// Thread safety: `Sendable`. The daemon handle is owned here and stopped in `stop()` or `deinit`; `handler` is called
/// concurrently from the connection threads and may block.
public final class HTTPServer: Sendable {
    /// The port the server listens on (the system's choice when the configuration asked for 0).
    public let port: UInt16
    private let daemon: Mutex<DaemonHandle?>
    private let context: ServerContext

    /// Binds and starts serving; throws `HTTPServerError` when the address cannot be bound.
    public init(configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) throws {
        context = ServerContext(configuration: configuration, handler: handler)
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        var flags = MHD_USE_THREAD_PER_CONNECTION.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
        let started: OpaquePointer?
        var addressV4 = sockaddr_in()
        var addressV6 = sockaddr_in6()
        if inet_pton(AF_INET, configuration.host, &addressV4.sin_addr) == 1 {
            addressV4.sin_family = sa_family_t(AF_INET)
            addressV4.sin_port = configuration.port.bigEndian
            started = withUnsafePointer(to: &addressV4) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.start(flags: flags, address: $0, context: contextPointer, configuration: configuration) }
            }
        } else if inet_pton(AF_INET6, configuration.host, &addressV6.sin6_addr) == 1 {
            addressV6.sin6_family = sa_family_t(AF_INET6)
            addressV6.sin6_port = configuration.port.bigEndian
            flags |= MHD_USE_IPv6.rawValue
            started = withUnsafePointer(to: &addressV6) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Self.start(flags: flags, address: $0, context: contextPointer, configuration: configuration) }
            }
        } else {
            throw HTTPServerError(message: "'\(configuration.host)' is not an IP address; give an IPv4 or IPv6 literal such as 127.0.0.1")
        }
        guard let started else {
            let reason = errno
            let hint = reason == EADDRINUSE ? " (another program uses the port; choose another with --port)"
                : reason == EADDRNOTAVAIL ? " (the address is not one of this machine's)" : ""
            throw HTTPServerError(message: "cannot listen on \(configuration.host):\(configuration.port): \(String(cString: strerror(reason)))\(hint)")
        }
        daemon = Mutex(DaemonHandle(pointer: started))
        port = fv_mhd_bound_port(started)
    }

    private static func start(flags: UInt32, address: UnsafePointer<sockaddr>, context: UnsafeMutableRawPointer, configuration: HTTPServerConfiguration) -> OpaquePointer? {
        fv_mhd_start_daemon(flags, address, accessHandler, context, requestCompleted, context, uriLogger, context,
                            configuration.idleTimeoutSeconds, configuration.connectionLimit, 128 * 1024)
    }

    deinit { stop() }

    /// Stops listening and closes every connection; idempotent. Handlers still running finish first.
    public func stop() {
        let running = daemon.withLock { handle -> DaemonHandle? in
            defer { handle = nil }
            return handle
        }
        if let running { MHD_stop_daemon(running.pointer) }
    }
}

/// The daemon pointer, moved into the server's `Mutex`; only `stop()` uses it, once.
private struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What the C callbacks reach through their `cls` pointer.
private final class ServerContext: Sendable {
    let configuration: HTTPServerConfiguration
    let handler: @Sendable (HTTPRequest) -> HTTPResponse

    init(configuration: HTTPServerConfiguration, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.configuration = configuration
        self.handler = handler
    }
}

/// One request in flight: created by the URI logger, filled by the access handler, released when the request completes.
/// Only the connection's own thread touches it.
private final class RequestState {
    let rawTarget: String
    let startedAt = Date()
    var headers: [String: String] = [:]
    var body = Data()
    var sawHeaders = false
    var tooLarge = false

    init(rawTarget: String) { self.rawTarget = rawTarget }
}

/// The body stream of a streamed response: bytes produced but not yet taken by the library.
private final class StreamState {
    let next: @Sendable () -> Data?
    var pending = Data()
    var finished = false
    init(next: @escaping @Sendable () -> Data?) { self.next = next }
}

private let uriLogger: fv_mhd_uri_log_callback = { _, uri, _ in
    let state = RequestState(rawTarget: uri.map { String(cString: $0) } ?? "/")
    return Unmanaged.passRetained(state).toOpaque()
}

private let requestCompleted: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let pointer = requestContext.pointee else { return }
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    requestContext.pointee = nil
}

private let headerCollector: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let state = Unmanaged<RequestState>.fromOpaque(cls).takeUnretainedValue()
    let name = String(cString: key).lowercased()
    let text = value.map { String(cString: $0) } ?? ""
    state.headers[name] = state.headers[name].map { "\($0),\(text)" } ?? text
    return .YES
}

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, _, method, _, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let statePointer = requestContext.pointee else { return .NO }
    let server = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    let state = Unmanaged<RequestState>.fromOpaque(statePointer).takeUnretainedValue()
    let limit = server.configuration.maximumBodyBytes

    if !state.sawHeaders {
        state.sawHeaders = true
        _ = MHD_get_connection_values(connection, MHD_ValueKind(rawValue: 1)! /* MHD_HEADER_KIND */, headerCollector, statePointer)
        if let declared = state.headers["content-length"].flatMap(Int.init), declared > limit {
            return queue(errorResponse(413, "PayloadTooLarge", "the body is \(declared) bytes; the limit is \(limit)"), on: connection)
        }
        return .YES
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let size = uploadDataSize.pointee
        uploadDataSize.pointee = 0
        if Date().timeIntervalSince(state.startedAt) > server.configuration.bodyDeadlineSeconds { return .NO }
        if state.tooLarge || state.body.count + size > limit {
            state.tooLarge = true
            state.body = Data()
        } else if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: size) { state.body.append($0, count: size) }
        }
        return .YES
    }
    if state.tooLarge {
        return queue(errorResponse(413, "PayloadTooLarge", "the body is larger than the limit of \(limit) bytes"), on: connection)
    }
    let response: HTTPResponse
    do {
        let request = try HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", rawTarget: state.rawTarget, headers: state.headers, body: state.body)
        response = server.handler(request)
    } catch {
        response = errorResponse(400, "BadRequest", String(describing: error))
    }
    state.body = Data()
    return queue(response, on: connection)
}

/// The `{"error": {...}}` body used for failures the HTTP layer itself answers.
func errorResponse(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
    let body = try! JSONSerialization.data(withJSONObject: ["error": ["code": code, "message": message]], options: [.sortedKeys, .withoutEscapingSlashes])
    return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: .bytes(body))
}

private let streamReader: MHD_ContentReaderCallback = { cls, _, buffer, maximum in
    guard let cls, let buffer else { return fv_mhd_content_reader_end_with_error }
    let stream = Unmanaged<StreamState>.fromOpaque(cls).takeUnretainedValue()
    while stream.pending.isEmpty {
        if stream.finished { return fv_mhd_content_reader_end_of_stream }
        if let chunk = stream.next() { stream.pending = chunk } else { stream.finished = true }
    }
    let count = min(maximum, stream.pending.count)
    stream.pending.copyBytes(to: UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: count)
    stream.pending = stream.pending.count == count ? Data() : Data(stream.pending.dropFirst(count))
    return count
}

private let streamFreed: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    Unmanaged<StreamState>.fromOpaque(cls).release()
}

/// Bytes a streamed response hands the library per read.
private let streamBlockSize = 4096

private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
    let handle: OpaquePointer?
    switch response.body {
    case .bytes(let data):
        handle = data.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(data.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode(rawValue: 2)! /* MHD_RESPMEM_MUST_COPY */)
        }
    case .stream(let next):
        let stream = Unmanaged.passRetained(StreamState(next: next)).toOpaque()
        handle = MHD_create_response_from_callback(fv_mhd_size_unknown, streamBlockSize, streamReader, stream, streamFreed)
    }
    guard let handle else { return .NO }
    defer { MHD_destroy_response(handle) }
    for (name, value) in response.headers { _ = MHD_add_response_header(handle, name, value) }
    return MHD_queue_response(connection, UInt32(response.status), handle)
}
