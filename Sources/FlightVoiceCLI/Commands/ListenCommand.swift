import AudioDevices
import FlightCore
import Foundation
import Presenter
import Recognizer

/// `flightvoice listen`: answers flight numbers spoken into the microphone, one after another.
enum ListenCommand: Command {
    static let name = "listen"
    static let summary = "Answer flight numbers said into the microphone: flightvoice listen --once"
    static let usage = "flightvoice listen [--device NAME] [--once] [--format text|jsonl] [--db PATH]"
    static let options: [OptionSpec] = [
        .value("--device", "-d", valueName: "NAME", help: "ALSA capture device (setting `microphone`; default: default)."),
        .flag("--once", help: "Exit after the first answer, with ask's exit codes."),
        .value("--format", "-f", valueName: "FORMAT", help: "text (default) or jsonl: events speech_started, partial, final (final has the fields of recognize --format jsonl)."),
        RecognizerOptions.model, RecognizerOptions.crossCheck, RecognizerOptions.noNeuralCheck, RecognizerOptions.dictionary, RecognizerOptions.verbose,
        CommonOptions.database,
    ]
    static let discussion = """
    Listens until interrupted: each query ends after a short pause (sooner when a whole flight number was heard).
    When standard error is not a terminal it gets one logfmt line per query ("event=query source=microphone status=…").
    On a terminal the words heard so far are shown on one updating line. Coughs and short noises are ignored.

    exit codes: 0 found (or interrupted) · 2 not understood · 3 no such flight today · 64 usage · 69 speech model ·
    71 microphone unavailable · 74 database
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "listen takes no arguments (did you mean ask?)") }
        let jsonLines = try arguments.choice("format", from: ["text", "jsonl"]) == "jsonl"
        let device = context.settings[.microphone].value
        guard device != "none" else { throw UsageError(message: "listen needs a microphone, but the microphone setting is none (\(context.settings[.microphone].source.description)); give --device NAME") }
        let once = arguments.has("once")
        let configuration = try RecognizerOptions.configuration(arguments, settings: context.settings)
        let store = try DatabaseOptions.openStore(context)
        let answerer = try SpokenQueryAnswerer(flights: store, configuration: configuration, now: context.now)
        let service = try LiveRecognitionService(vocabulary: answerer.vocabulary, configuration: configuration)
        let console = context.console
        let options = PresentationOptions(now: context.now, isTerminal: console.outputIsTerminal)
        let updatesLine = console.outputIsTerminal && !jsonLines
        // One logfmt line per query on standard error when it is not a terminal (a service's journal, a log file).
        let logsQueries = !console.errorIsTerminal

        return try AsyncBridge.wait {
            do {
                for try await event in service.events(for: Microphone.chunks(device: device)) {
                    switch event {
                    case .speechStarted(let at):
                        if jsonLines { console.print(LiveEventOutput.speechStarted(at: at)) }
                    case .partial(let text):
                        if jsonLines { console.print(LiveEventOutput.partial(text)) }
                        if updatesLine { console.writeOut("\r\u{1B}[K… \(text)") }
                    case .discarded, .reply:
                        if updatesLine { console.writeOut("\r\u{1B}[K") }
                    case .final(let utterance):
                        let answer = try answerer.answer(for: utterance.result)
                        let report = ClipReport(path: "microphone:\(device)", answer: answer, transcript: utterance.result.transcript,
                                                audioDuration: utterance.result.audioDuration, processingSeconds: utterance.result.decodeSeconds, error: nil)
                        if updatesLine { console.writeOut("\r\u{1B}[K") }
                        if logsQueries {
                            console.printError(LogLine.query(answer, source: "microphone", audioSeconds: report.audioDuration, decodeSeconds: report.processingSeconds).description)
                        }
                        if jsonLines {
                            console.print(LiveEventOutput.final(report))
                        } else if answer.status == .noSpeech {
                            continue
                        } else {
                            console.print(AnswerText.render(answer, options: options))
                        }
                        if once { return ExitCode(answer.status) }
                    }
                }
                return .success
            } catch let error as AudioDeviceError {
                throw CommandFailure(message: error.microphoneMessage, exitCode: .microphoneUnavailable)
            }
        }
    }
}

/// Runs async work from a synchronous command and waits for it.
enum AsyncBridge {
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = OutcomeBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }

    /// Safety of `@unchecked Sendable`: written once by the task before it signals, read after the wait.
    private final class OutcomeBox<T>: @unchecked Sendable {
        private var outcome: Result<T, any Error>?
        func set(_ value: Result<T, any Error>) { outcome = value }
        func get() throws -> T { try outcome!.get() }
    }
}
