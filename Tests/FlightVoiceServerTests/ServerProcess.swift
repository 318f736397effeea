import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The built `flightvoice serve` running as a child process on a free loopback port, with its own data folder.
final class ServerProcess: @unchecked Sendable {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        /// The body as a JSON object (empty when it is not one).
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        /// The native API's `error.code`.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
        func header(_ name: String) -> String? { headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = packageRoot.appendingPathComponent("Samples")
    static let fixtures = packageRoot.appendingPathComponent("Tests/FlightVoiceServerTests/Fixtures")
    /// A moment on the seed day, as the CLI's end-to-end tests use.
    static let fixedNow = "2026-11-30T12:00:00+01:00"

    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flightvoice")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/flightvoice")
    }

    /// A fresh temporary data folder.
    static func makeDataFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    let process = Process()
    let dataFolder: URL
    private let output = OutputBuffer()
    private(set) var port = 0
    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts the server and waits for its "listening on" line (and, unless told otherwise, for /healthz to be 200).
    init(dataFolder: URL? = nil, arguments: [String] = [], waitUntilHealthy: Bool = true) throws {
        self.dataFolder = try dataFolder ?? Self.makeDataFolder()
        process.executableURL = Self.executable
        process.arguments = ["serve", "--port", "0", "--data", self.dataFolder.path, "--workers", "1"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["FLIGHTVOICE_NOW"] = Self.fixedNow
        // An empty settings file: this machine's /etc/flightvoice/flightvoice.conf must not reach a test.
        environment["FLIGHTVOICE_CONFIG"] = "/dev/null"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { [output] handle in output.append(handle.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = outputText
            if let range = text.range(of: "listening on http://127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), text[range.upperBound...].dropFirst(digits.count).hasPrefix("\n") {
                    self.port = port
                    break
                }
            }
            guard process.isRunning else { throw ServerFailure("the server exited with \(process.terminationStatus): \(text)") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard port != 0 else { throw ServerFailure("the server did not say where it listens: \(outputText)") }
        if waitUntilHealthy {
            while Date() < deadline {
                if (try? request("GET", "/healthz").status) == 200 { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
            throw ServerFailure("/healthz never became 200")
        }
    }

    /// Everything the server printed so far.
    var outputText: String { output.text }

    /// A secret the server keeps in its data folder.
    func secret(_ name: String) throws -> String {
        try String(contentsOf: dataFolder.appendingPathComponent(name), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// One HTTP request; `timeout` bounds the whole exchange.
    func request(_ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:], timeout: Double = 90) throws -> Response {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        request.httpBody = body
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Response, any Error>?>(nil)
        URLSession.shared.dataTask(with: request) { data, response, error in
            if let error {
                result.withLock { $0 = .failure(error) }
            } else if let http = response as? HTTPURLResponse {
                let headers = Dictionary(http.allHeaderFields.map { ("\($0.key)", "\($0.value)") }, uniquingKeysWith: { first, _ in first })
                result.withLock { $0 = .success(Response(status: http.statusCode, headers: headers, body: data ?? Data())) }
            }
            done.signal()
        }.resume()
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw ServerFailure("no response to \(method) \(path)") }
        let response = try outcome.get()
        // Every response any test sees must be one docs/openapi.yaml promises.
        OpenAPIConformanceTests.checkIfDocumented(method, path: path, response)
        return response
    }

    /// Creates a job from a clip with the parameters in the query string.
    func createJob(_ name: String, clip: URL, query: String = "languageCode=en-US") throws -> Response {
        try request("POST", "/v1/transcription-jobs?name=\(name)&\(query)", body: try Data(contentsOf: clip), headers: ["Content-Type": "audio/wav"])
    }

    /// Ends the server with `signal` and waits for it; returns its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Stops the server if it still runs and removes its data folder.
    func cleanUp() {
        stop(signal: SIGKILL)
        try? FileManager.default.removeItem(at: dataFolder)
    }
}

/// What a child process printed, appended from the pipe's reader.
final class OutputBuffer: Sendable {
    private let data = Mutex(Data())
    func append(_ chunk: Data) { data.withLock { $0.append(chunk) } }
    var text: String { data.withLock { String(decoding: $0, as: UTF8.self) } }
}

struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A loopback HTTP receiver for callbacks: records every POST and answers with the next status from a script.
final class CallbackReceiver: @unchecked Sendable {
    /// One POST as it arrived.
    struct Arrival: Sendable {
        /// `FlightVoice-Delivery-Id`: the idempotency key a real receiver deduplicates on.
        let deliveryID: String?
        /// `FlightVoice-Job`.
        let job: String?
        /// What the receiver answered.
        let status: Int
        let body: Data
        /// When the body had arrived.
        let time: Date
    }

    /// A scripted status that answers nothing and keeps the connection open: the sender is left mid-send.
    static let noAnswer = 0

    private let listener: Int32
    let port: Int
    private let state = Mutex<(arrivals: [Arrival], statuses: [Int], unanswered: [Int32])>(([], [], []))

    /// Listens on a free loopback port; answers the first POSTs with `statuses` in turn (`noAnswer`: not at all), then
    /// with 200.
    init(statuses: [Int] = []) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound else { throw ServerFailure("cannot listen for callbacks") }
        port = Int(UInt16(bigEndian: address.sin_port))
        state.withLock { $0.statuses = statuses }
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    var url: String { "http://127.0.0.1:\(port)/hook" }
    /// Every POST so far, answered 2xx or not.
    var arrivals: [Arrival] { state.withLock { $0.arrivals } }
    /// The bodies accepted (answered 200) so far, duplicates included.
    var received: [Data] { arrivals.filter { $0.status == 200 }.map(\.body) }
    /// The accepted bodies after deduplicating on the delivery id, as a receiver following the contract keeps them.
    var receivedOncePerDeliveryID: [Data] {
        var seen = Set<String>()
        return arrivals.filter { $0.status == 200 && seen.insert($0.deliveryID ?? "").inserted }.map(\.body)
    }

    private func serve() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            var request = Data()
            var buffer = [UInt8](repeating: 0, count: 65536)
            // Read the head, then Content-Length bytes of body.
            while true {
                let count = read(connection, &buffer, buffer.count)
                guard count > 0 else { break }
                request.append(contentsOf: buffer[0..<count])
                if let headEnd = request.range(of: Data("\r\n\r\n".utf8)) {
                    let head = String(decoding: request[..<headEnd.lowerBound], as: UTF8.self)
                    func header(_ name: String) -> String? {
                        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
                    }
                    let length = header("content-length").flatMap { Int($0) } ?? 0
                    if request.count - headEnd.upperBound >= length {
                        let body = request[headEnd.upperBound..<(headEnd.upperBound + length)]
                        let status = state.withLock { recorded -> Int in
                            let status = recorded.statuses.isEmpty ? 200 : recorded.statuses.removeFirst()
                            recorded.arrivals.append(Arrival(deliveryID: header("flightvoice-delivery-id"), job: header("flightvoice-job"), status: status, body: Data(body), time: Date()))
                            if status == Self.noAnswer { recorded.unanswered.append(connection) }
                            return status
                        }
                        if status == Self.noAnswer { break }
                        let reply = "HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        _ = reply.withCString { write(connection, $0, strlen($0)) }
                        break
                    }
                }
            }
            if !state.withLock({ $0.unanswered.contains(connection) }) { close(connection) }
        }
    }
}

/// Polls `condition` until it holds or `seconds` pass.
func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.1)
    }
    return try condition()
}
