import Foundation
import Testing

/// Golden-file comparison. Files live in `Tests/PresenterTests/Golden/` (a copied resource of the test bundle).
/// To re-record on purpose: `RECORD_GOLDEN=1 swift test --filter PresenterTests`, which writes into the source
/// tree (found through `#filePath`), then review the diff with `git diff Tests/PresenterTests/Golden`.
enum Golden {
    /// True when the run should overwrite golden files instead of comparing with them.
    static let isRecording = ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1"

    /// The source tree's Golden folder, next to this file.
    static func sourceFolder(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true)
    }

    /// Compares `actual` (plus a final newline) with the golden file `name`, or records it when recording.
    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let contents = actual.hasSuffix("\n") ? actual : actual + "\n"
        if isRecording {
            let url = sourceFolder().appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
            return
        }
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden") else {
            Issue.record("missing golden file Golden/\(name); record it with RECORD_GOLDEN=1 swift test --filter PresenterTests", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(contents == expected, "output differs from Golden/\(name); if the change is intended, re-record with RECORD_GOLDEN=1 swift test --filter PresenterTests", sourceLocation: sourceLocation)
    }
}
