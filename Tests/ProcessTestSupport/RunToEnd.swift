import Foundation

/// Runs a program to its end; returns its exit status and its standard output and error together. An empty value in
/// `environment` removes that variable (a developer's own settings must not leak into a test); `folder` is its working
/// directory (this process's when nil).
public func runToEnd(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                     in folder: URL? = nil) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    var all = ProcessInfo.processInfo.environment
    for (key, value) in environment { all[key] = value.isEmpty ? nil : value }
    process.environment = all
    if let folder { process.currentDirectoryURL = folder }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
}
