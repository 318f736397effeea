import Foundation

/// Where a command writes: standard output and standard error, and whether they are terminals.
/// Tests pass a capturing console; the executable passes `Console.standard`.
public struct Console: Sendable {
    public let writeOut: @Sendable (String) -> Void
    public let writeError: @Sendable (String) -> Void
    /// True when standard output is a terminal (colour and layout for people).
    public let outputIsTerminal: Bool
    /// True when standard error is a terminal (progress bars).
    public let errorIsTerminal: Bool

    public init(writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void, outputIsTerminal: Bool, errorIsTerminal: Bool) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's own standard output and error.
    public static var standard: Console {
        Console(
            writeOut: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            outputIsTerminal: isatty(STDOUT_FILENO) == 1,
            errorIsTerminal: isatty(STDERR_FILENO) == 1)
    }

    /// Writes `line` and a newline to standard output.
    public func print(_ line: String) { writeOut(line + "\n") }
    /// Writes `line` and a newline to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }
}
