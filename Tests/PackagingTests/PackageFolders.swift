import Foundation
import FlightVoiceCLI

/// Where the package's files and the built program are, seen from the tests.
enum PackageFolders {
    /// The package root, found from this file's location.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `flightvoice` built beside the test bundle (`swift build --build-tests` builds both).
    static var builtProgram: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("flightvoice")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return root.appendingPathComponent(".build/debug/flightvoice")
    }

    /// A fresh temporary folder; the caller removes it.
    static func makeTemporaryFolder(_ purpose: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-\(purpose)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A console whose output a test reads afterwards.
final class CapturedConsole: @unchecked Sendable {
    private let lock = NSLock()
    private var outputText = ""
    private var errorText = ""

    var output: String { lock.withLock { outputText } }
    var errors: String { lock.withLock { errorText } }

    var console: Console {
        Console(writeOut: { [self] text in lock.withLock { outputText += text } },
                writeError: { [self] text in lock.withLock { errorText += text } },
                outputIsTerminal: false, errorIsTerminal: false)
    }
}
