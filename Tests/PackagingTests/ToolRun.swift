import Foundation
import ProcessTestSupport

/// Running a system tool from a test: found on the PATH, its output and exit status kept together.
enum ToolRun {
    /// The full path of `tool` on the PATH, or nil.
    static func path(of tool: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/sbin:/sbin"
        return folders.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `tool ARGUMENTS`; a tool that is not installed is a failure that names the Makefile target installing it.
    static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil) throws -> (status: Int32, output: String) {
        guard let executable = path(of: tool) else { throw MissingTool(tool: tool) }
        return try runToEnd(executable, arguments, environment: environment, in: folder)
    }

    /// A tool the tests need is not installed.
    struct MissingTool: Error, CustomStringConvertible {
        let tool: String
        var description: String { "\(tool) is not installed: `make test-deps` (or `make test`) installs the tools the tests use" }
    }
}
