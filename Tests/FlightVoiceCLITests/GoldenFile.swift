import Foundation
import Testing

/// Compares output with a file in Golden/; `RECORD_GOLDEN=1` rewrites the file instead (only on purpose).
enum GoldenFile {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "output differs from Golden/\(name); re-record on purpose with RECORD_GOLDEN=1", sourceLocation: sourceLocation)
    }
}
