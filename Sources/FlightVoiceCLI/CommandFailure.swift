import FlightStore
import Foundation

/// A failure as the user sees it: a message that says what went wrong and what to do, and its exit code.
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    let exitCode: ExitCode

    var description: String { message }

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
        switch error {
        case is ConfigurationError: exitCode = .configuration
        case is CSVImportError: exitCode = .dataError
        case FlightStoreError.cannotReadFile: exitCode = .noInput
        case let failure as any DatabaseFailure where failure.isUnreachable: exitCode = .databaseUnreachable
        case is FlightStoreError, is any DatabaseFailure: exitCode = .ioError
        default: exitCode = .software
        }
    }
}
