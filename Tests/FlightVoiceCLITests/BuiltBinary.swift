import Foundation

/// Runs the built `flightvoice` executable the way a user does, with a private database and a fixed "now".
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
    let databasePath: String

    /// A fresh temporary folder with its own database path (the database is created on first use).
    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        databasePath = folder.appendingPathComponent("flights.sqlite").path
    }

    /// Removes the temporary folder.
    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs `flightvoice ARGUMENTS` with FLIGHTVOICE_DB and FLIGHTVOICE_NOW set, feeding `input` on standard input.
    func run(_ arguments: [String], input: Data? = nil, environment extra: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = Self.packageRoot
        var environment = ProcessInfo.processInfo.environment
        environment["FLIGHTVOICE_DB"] = databasePath
        environment["FLIGHTVOICE_DATABASE"] = nil  // a developer's shared database must not leak into tests
        environment["FLIGHTVOICE_NOW"] = Self.fixedNow
        environment["XDG_DATA_HOME"] = folder.path
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
