import Foundation
import Testing
@testable import FlightVoiceCLI

/// The systemd units as installed (`systemd-analyze verify`), and the service's sd_notify messages, received on a
/// socket as systemd would receive them.
@Suite struct ServiceUnitTests {
    static let units = ["flightvoice.service", "flightvoice-kiosk@.service"]

    /// The units as `make install` writes them, pointing at the built program, with the man pages they name.
    static func installUnits() throws -> (folder: URL, manuals: URL) {
        let folder = try PackageFolders.makeTemporaryFolder("units")
        let binaryFolder = PackageFolders.builtProgram.deletingLastPathComponent().path
        for unit in units {
            let template = try String(contentsOf: PackageFolders.root.appendingPathComponent("packaging/systemd/\(unit).in"), encoding: .utf8)
            try Data(template.replacingOccurrences(of: "@BINDIR@", with: binaryFolder).utf8).write(to: folder.appendingPathComponent(unit))
        }
        let manuals = folder.appendingPathComponent("man")
        let captured = CapturedConsole()
        #expect(FlightVoiceCommand.main(arguments: ["help", "--man", "--output", manuals.appendingPathComponent("man1").path], console: captured.console) == 0, "\(captured.errors)")
        return (folder, manuals)
    }

    @Test func bothUnitsPassSystemdAnalyzeVerify() throws {
        let (folder, manuals) = try Self.installUnits()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An instance of the kiosk template as `systemctl enable flightvoice-kiosk@tty2` would make it.
        let files = [folder.appendingPathComponent("flightvoice.service").path, folder.appendingPathComponent("flightvoice-kiosk@.service").path,
                     folder.appendingPathComponent("flightvoice-kiosk@tty2.service").path]
        try FileManager.default.copyItem(atPath: files[1], toPath: files[2])
        // verify also checks that the Documentation= man pages exist: MANPATH finds the generated ones.
        let run = try ToolRun.run("systemd-analyze", ["verify"] + files, environment: ["MANPATH": manuals.path, "SYSTEMD_LOG_COLOR": "0"], in: folder)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.isEmpty, "\(run.output)")
    }

    @Test func verifyCatchesABrokenUnit() throws {
        let (folder, manuals) = try Self.installUnits()
        defer { try? FileManager.default.removeItem(at: folder) }
        let unit = folder.appendingPathComponent("flightvoice.service")
        let text = try String(contentsOf: unit, encoding: .utf8).replacingOccurrences(of: "/flightvoice serve", with: "/no-such-program serve")
        try Data(text.utf8).write(to: unit)
        let run = try ToolRun.run("systemd-analyze", ["verify", unit.path], environment: ["MANPATH": manuals.path], in: folder)
        #expect(run.status != 0)
        #expect(run.output.contains("no-such-program"), "\(run.output)")
    }

    @Test func theServiceUnitIsHardenedAndNotifies() throws {
        let text = try String(contentsOf: PackageFolders.root.appendingPathComponent("packaging/systemd/flightvoice.service.in"), encoding: .utf8)
        let settings = Set(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map(String.init))
        for line in ["Type=notify", "WatchdogSec=30", "User=flightvoice", "ProtectSystem=strict", "ReadWritePaths=/var/lib/flightvoice",
                     "StateDirectory=flightvoice", "NoNewPrivileges=yes", "PrivateTmp=yes", "ProtectHome=yes",
                     "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6", "ExecStart=@BINDIR@/flightvoice serve"] {
            #expect(settings.contains(line), "flightvoice.service lacks \(line)")
        }
        let kiosk = try String(contentsOf: PackageFolders.root.appendingPathComponent("packaging/systemd/flightvoice-kiosk@.service.in"), encoding: .utf8)
        for line in ["TTYPath=/dev/%I", "StandardInput=tty", "StandardOutput=tty", "Restart=always", "SupplementaryGroups=audio",
                     "ExecStart=@BINDIR@/flightvoice kiosk"] {
            #expect(kiosk.contains("\n\(line)\n"), "flightvoice-kiosk@.service lacks \(line)")
        }
    }

    /// Starts the built `flightvoice serve` on a free port with its data in `folder`, notifying `socket` as systemd's
    /// NOTIFY_SOCKET, with a watchdog of `watchdogMicroseconds` (none when nil).
    static func startServer(in folder: URL, notifying socket: NotificationSocket, watchdogMicroseconds: String?) throws -> Process {
        let server = Process()
        server.executableURL = PackageFolders.builtProgram
        server.arguments = ["serve", "--port", "0", "--data", folder.appendingPathComponent("data").path, "--workers", "1"]
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        environment["WATCHDOG_USEC"] = watchdogMicroseconds
        environment["WATCHDOG_PID"] = nil
        environment["FLIGHTVOICE_DATABASE"] = nil
        // No settings file: an installed /etc/flightvoice/flightvoice.conf (the package test's) must not leak in.
        environment["FLIGHTVOICE_CONFIG"] = "/dev/null"
        environment["FLIGHTVOICE_NOW"] = "2026-11-30T12:00:00+01:00"
        server.environment = environment
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        return server
    }

    @Test func serveTellsSystemdItIsReadyAliveAndStopping() throws {
        let folder = try PackageFolders.makeTemporaryFolder("notify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = try NotificationSocket(path: folder.appendingPathComponent("notify").path)
        // A watchdog of 0.4 s: pings every 0.2 s.
        let server = try Self.startServer(in: folder, notifying: socket, watchdogMicroseconds: "400000")
        defer { if server.isRunning { server.terminate() } }

        let ready = try #require(socket.receive(timeout: 120), "no notification within 120 s")
        #expect(ready.contains("READY=1"), "\(ready)")
        #expect(ready.contains("STATUS=listening on http://127.0.0.1:"), "\(ready)")
        let pings = (0..<3).compactMap { _ in socket.receive(timeout: 5) }
        #expect(pings == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"])

        server.terminate()
        var stopping: String?
        while let message = socket.receive(timeout: 10) {
            if message.contains("STOPPING=1") { stopping = message; break }
        }
        #expect(stopping?.contains("STATUS=draining") == true, "\(stopping ?? "no STOPPING=1")")
        server.waitUntilExit()
        #expect(server.terminationStatus == 0)
    }

    @Test func withoutAWatchdogServeOnlySaysReady() throws {
        let folder = try PackageFolders.makeTemporaryFolder("notify")
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = try NotificationSocket(path: folder.appendingPathComponent("notify").path)
        let server = try Self.startServer(in: folder, notifying: socket, watchdogMicroseconds: nil)
        defer { if server.isRunning { server.terminate() } }
        let ready = try #require(socket.receive(timeout: 120), "no notification within 120 s")
        #expect(ready.hasPrefix("READY=1"))
        #expect(socket.receive(timeout: 1) == nil, "no watchdog pings without WATCHDOG_USEC")
        server.terminate()
        server.waitUntilExit()
    }
}

/// A Unix datagram socket bound where `NOTIFY_SOCKET` points, as systemd's own is.
final class NotificationSocket {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailure("socket: errno \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw SocketFailure("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { close(descriptor); throw SocketFailure("bind \(path): errno \(errno)") }
    }

    /// The next datagram as text, or nil when none arrives within `timeout` seconds.
    func receive(timeout: Double) -> String? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    struct SocketFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
