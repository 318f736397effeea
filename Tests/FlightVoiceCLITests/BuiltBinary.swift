import Foundation

/// Runs the built `flightvoice` executable the way a user does, with a private settings file, database and data
/// folder, and a fixed "now".
struct BuiltBinary {
    struct Run {
        let exitCode: Int32
        let standardOutput: String
        let standardError: String
    }

    /// The package root, found from this file's location.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable beside the test bundle (`swift build --build-tests` and `swift test` build both).
    static var executable: URL {
        let testBundleFolder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let besideTests = testBundleFolder.appendingPathComponent("flightvoice")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/flightvoice")
    }

    /// A moment on the seed day: 12:00 in Zurich, 2026-11-30.
    static let fixedNow = "2026-11-30T12:00:00+01:00"

    let folder: URL
    /// The default database location under the private XDG_DATA_HOME: created from the built-in day on first use.
    let databasePath: String
    /// The settings file every run reads (FLIGHTVOICE_CONFIG): empty unless a test writes it, so that this machine's
    /// /etc/flightvoice/flightvoice.conf never reaches a test.
    let settingsPath: String

    /// A fresh temporary folder with its own (empty) settings file and database path.
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        databasePath = folder.appendingPathComponent("flightvoice/flights.sqlite").path
        settingsPath = folder.appendingPathComponent("flightvoice.conf").path
        try Data().write(to: URL(fileURLWithPath: settingsPath))
    }

    /// Writes `text` as the settings file the runs read.
    func writeSettings(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: settingsPath))
    }

    /// The environment every run gets: the private settings file, data folder and "now", and no database variable.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["FLIGHTVOICE_CONFIG"] = settingsPath
        environment["FLIGHTVOICE_DB"] = nil  // a developer's own database must not leak into tests
        environment["FLIGHTVOICE_DATABASE"] = nil  // nor a shared one
        environment["FLIGHTVOICE_NOW"] = Self.fixedNow
        environment["XDG_DATA_HOME"] = folder.path
        return environment
    }

    /// Removes the temporary folder.
    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `flightvoice ARGUMENTS` in `environment` plus `extra`, feeding `input` on standard input.
    func run(_ arguments: [String], input: Data? = nil, environment extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = Self.packageRoot
        var environment = self.environment
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let output = Pipe(), error = Pipe(), standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        // Read both pipes before waiting, so a large output cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(exitCode: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self), standardError: String(decoding: errorData, as: UTF8.self))
    }
}
