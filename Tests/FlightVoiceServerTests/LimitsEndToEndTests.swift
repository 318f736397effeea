import Foundation
import Testing

/// Limits with clear answers: a full queue, idle and stalled clients.
@Suite(.serialized) struct LimitsEndToEndTests {
    /// Fifteen seconds of quiet noise as headerless 16-bit PCM: a job that keeps the only worker busy for a while.
    static let longClip: Data = {
        var generator = SystemRandomNumberGenerator()
        let samples = (0..<(16000 * 15)).map { _ in Int16.random(in: -300...300, using: &generator) }
        return samples.withUnsafeBytes { Data($0) }
    }()

    /// Creates job `job` from `longClip` and waits until the only worker decodes it.
    static func occupyTheWorker(_ server: ServerProcess, job: String) throws {
        let busy = try server.request("POST", "/v1/transcription-jobs?name=\(job)&languageCode=en-US&mediaFormat=pcm&mediaSampleRateHertz=16000", body: longClip)
        #expect(busy.status == 201)
        #expect(eventually(10) { (try? server.request("GET", "/v1/transcription-jobs/\(job)").json["status"] as? String) == "IN_PROGRESS" })
    }

    @Test func aFullQueueAnswers503WithRetryAfter() throws {
        let server = try ServerProcess(arguments: ["--max-queued-jobs", "1"])
        defer { server.cleanUp() }
        try Self.occupyTheWorker(server, job: "busy")
        #expect(try server.createJob("waiting", clip: ServerProcess.samples.appendingPathComponent("lx40.wav")).status == 201)
        let refused = try server.createJob("refused", clip: ServerProcess.samples.appendingPathComponent("lx40.wav"))
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "5")
        #expect(refused.errorCode == "ServiceUnavailable")
        #expect(try server.request("GET", "/v1/transcription-jobs/refused").status == 404, "a refused job leaves nothing behind")
    }

    @Test func idleAndStalledClientsAreDisconnected() throws {
        let server = try ServerProcess(arguments: ["--idle-timeout", "2"])
        defer { server.cleanUp() }
        for partial in ["", "POST /v1/recognize HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nRIFF"] {
            let connection = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(connection) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(server.port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(connection, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
            #expect(connected == 0)
            _ = partial.withCString { write(connection, $0, strlen($0)) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let started = Date()
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(connection, &buffer, buffer.count)
            #expect(count == 0, "the server closed the connection")
            #expect(Date().timeIntervalSince(started) < 8)
        }
        #expect(try server.request("GET", "/healthz").status == 200, "the server still serves others")
    }
}
