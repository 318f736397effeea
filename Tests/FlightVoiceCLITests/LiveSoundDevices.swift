import Foundation

/// A file-backed ALSA microphone and speaker for end-to-end tests on machines without a sound card: the microphone
/// plays a headerless 16 kHz clip (an ALSA `file` PCM's `infile` over a `null` slave), the speaker writes what it is
/// given to a file. Selected with `ALSA_CONFIG_PATH`, as shared/TECH-NOTES.md describes.
struct LiveSoundDevices {
    static let fixtures = BuiltBinary.packageRoot.appendingPathComponent("Tests/FlightVoiceCLITests/LiveFixtures")
    /// The capture device's name in the test configuration.
    static let microphone = "testmic"
    /// The playback device's name in the test configuration.
    static let speaker = "testspeaker"
    /// 16-bit mono samples per second of the fixtures.
    static let sampleRate = 16_000

    let configuration: URL
    let played: URL
    let microphoneInput: URL

    /// Writes a configuration in `folder` whose microphone plays `clips` (fixture names, with `gapSeconds` of room
    /// noise between them) and whose speaker writes to `played.raw`; without clips it defines no microphone at all.
    init(in folder: URL, clips: [String]?, gapSeconds: Double = 0) throws {
        configuration = folder.appendingPathComponent("asound.conf")
        played = folder.appendingPathComponent("played.raw")
        microphoneInput = folder.appendingPathComponent("microphone.raw")
        var text = """
        pcm.nullslave { type null }
        pcm.\(Self.speaker) { type file slave.pcm "nullslave" file "\(played.path)" format "raw" }

        """
        if let clips {
            var audio = Data()
            for (index, clip) in clips.enumerated() {
                if index > 0 { audio += Self.roomNoise(seconds: gapSeconds) }
                audio += try Data(contentsOf: Self.fixtures.appendingPathComponent(clip + ".raw"))
            }
            try audio.write(to: microphoneInput)
            text += """
            pcm.\(Self.microphone) { type file slave.pcm "nullslave" file "/dev/null" infile "\(microphoneInput.path)" format "raw" }

            """
        }
        try text.write(to: configuration, atomically: true, encoding: .utf8)
    }

    /// The environment that points alsa-lib at this configuration.
    var environment: [String: String] { ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configuration.path)"] }

    /// Faint deterministic noise (about -66 dBFS), like a quiet room between two queries.
    static func roomNoise(seconds: Double) -> Data {
        var state: UInt32 = 12345
        var data = Data()
        for _ in 0..<Int(seconds * Double(sampleRate)) {
            state = state &* 1_103_515_245 &+ 12345
            let sample = Int16(Int(state >> 16) % 33 - 16)
            withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }
}

/// The kiosk running in a detached tmux session of its own (own server socket), read with `capture-pane`.
final class KioskSession {
    let socket = "flightvoice-test-\(UUID().uuidString.prefix(8))"
    let binary: BuiltBinary

    /// Starts `flightvoice kiosk ARGUMENTS` in an 80×24 terminal with the test database, a fixed "now" and `environment`.
    init(binary: BuiltBinary, arguments: [String], environment: [String: String], columns: Int = 80, rows: Int = 24) throws {
        self.binary = binary
        var exports = ["FLIGHTVOICE_CONFIG": binary.settingsPath, "FLIGHTVOICE_NOW": BuiltBinary.fixedNow, "XDG_DATA_HOME": binary.folder.path,
                       "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        exports.merge(environment) { _, new in new }
        let script = binary.folder.appendingPathComponent("kiosk-\(socket).sh")
        let lines = ["#!/bin/sh"] + exports.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'" }
            + ["'\(BuiltBinary.executable.path)' kiosk " + arguments.map { "'\($0)'" }.joined(separator: " ") + " 2>'\(binary.folder.path)/kiosk-stderr.txt'",
               "echo \"kiosk exited with status $?\"", "sleep 600"]
        try (lines.joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        try tmux(["new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "sh '\(script.path)'"], capturing: false)
    }

    /// Ends the kiosk and its terminal (without capturing output: the test's folder may already be gone).
    deinit { _ = try? tmux(["kill-server"], capturing: false) }

    /// The screen as text.
    func screen() throws -> String { try tmux(["capture-pane", "-p"]) }

    /// Waits up to `timeout` seconds for a screen that satisfies `condition`; returns the last screen seen.
    @discardableResult
    func waitFor(timeout: Double = 60, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? screen()) ?? last
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return last
    }

    /// Types `keys` (tmux key names such as "Enter", "Escape", "C-c", or literal text).
    func send(_ keys: String...) throws { try tmux(["send-keys"] + keys) }

    /// Sends literal text.
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    /// Runs tmux with posix_spawn and waits for it; the output goes through a file. Foundation's `Process` never
    /// returned here once tmux had started its server.
    @discardableResult
    private func tmux(_ arguments: [String], capturing: Bool = true) throws -> String {
        let outputPath = binary.folder.appendingPathComponent("tmux-output-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, capturing ? outputPath : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = (["/usr/bin/tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The test runner's threads block most signals, and a spawned process inherits that mask: a tmux server
        // started with it never exits on kill-server. Start tmux with no signal blocked and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return capturing ? ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "") : ""
    }
}
