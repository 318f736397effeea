import Foundation

/// A failure as the user sees it: a message that says what went wrong and what to do, and its exit code.
struct CommandFailure: Error {
    let message: String
    let exitCode: ExitCode

    init(message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }

    /// Classifies an error from any module.
    init(_ error: any Error) {
        if let failure = error as? CommandFailure {
            self = failure
            return
        }
        message = String(describing: error)
        exitCode = .software
    }
}
