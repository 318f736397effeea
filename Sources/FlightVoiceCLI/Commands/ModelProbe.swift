import Foundation
import Recognizer

/// Checks a user-supplied speech model in a child process before this process loads it.
///
/// PocketSphinx calls `exit()` on some corrupt model files, which would end a batch without a message or a record.
/// The child (this same executable, run with the hidden `childCommand`) loads the model once; if it dies, the
/// parent reports the library's error lines and exits 69 before decoding anything.
enum ModelProbe {
    /// The hidden subcommand the child runs: `flightvoice __check-model MODEL DICTIONARY`.
    static let childCommand = "__check-model"

    /// Throws a `CommandFailure` (exit 69) naming the model and the library's errors when it cannot be loaded.
    static func check(_ configuration: RecognizerConfiguration) throws {
        guard !configuration.usesPackagedModel else { return }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = [childCommand, configuration.acousticModel, configuration.dictionary]
        let errors = Pipe()
        child.standardError = errors
        child.standardOutput = FileHandle.nullDevice
        do {
            try child.run()
        } catch {
            return  // Cannot re-run ourselves (unusual sandbox): load in-process as before.
        }
        let output = errors.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        guard child.terminationStatus != 0 else { return }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("ERROR") || $0.contains("FATAL") || $0.hasPrefix("recognizer:") }
            .map { "  " + $0.trimmingCharacters(in: .whitespaces) }
        let reason = switch (child.terminationReason, child.terminationStatus) {
        case (.uncaughtSignal, let signal): ": the speech library crashed (signal \(signal)) while reading it"
        case (_, ExitCode.unavailable.rawValue): ""
        case (_, let status): ": the speech library ended the process (exit \(status)) while reading it"
        }
        throw CommandFailure(
            message: (["the speech model \(configuration.acousticModel) (dictionary \(configuration.dictionary)) cannot be loaded\(reason)"] + lines)
                .joined(separator: "\n"),
            exitCode: .unavailable)
    }

    /// The child's side: loads the model once; exit 0 when it loads, 69 with the error on standard error when refused.
    static func runChild(_ arguments: [String], console: Console) -> Int32 {
        guard arguments.count == 2 else { return ExitCode.usage.rawValue }
        var configuration = RecognizerConfiguration()
        configuration.acousticModel = arguments[0]
        configuration.dictionary = arguments[1]
        configuration.decisionRule = .handThresholds  // only the acoustic model is checked here; its decision was by the parent
        configuration.verbose = true
        do {
            try configuration.loadModelOnce()
            return ExitCode.success.rawValue
        } catch {
            // The library's lines were already echoed (verbose), so only the summary line is added.
            console.printError(String(describing: error).split(separator: "\n").first.map(String.init) ?? "")
            return ExitCode.unavailable.rawValue
        }
    }
}
