import AudioInput
import FlightCore
import FlightStore
import Foundation
import Presenter
import Recognizer
import Synchronization

/// `flightvoice recognize FILE|DIR|-...`: answers recorded clips, one or ten thousand, in parallel.
enum RecognizeCommand: Command {
    static let name = "recognize"
    static let summary = "Answer recorded clips: flightvoice recognize Samples/lx40.wav"
    static let usage = "flightvoice recognize [options] FILE|DIR|- ..."
    static let options: [OptionSpec] = [
        .value("--format", "-f", valueName: "FORMAT", help: "text (default), jsonl (one JSON object per clip), or transcribe (Amazon Transcribe job JSON)."),
        .value("--out", "-o", valueName: "DIR", help: "With --format transcribe: write DIR/<clip name>.json per clip instead of printing."),
        .value("--jobs", "-j", valueName: "N", help: "Decode N clips at once, one decoder each (setting `workers`; default: all cores)."),
        .value("--raw-rate", valueName: "HZ", help: "Read headerless files as 16-bit little-endian mono PCM at HZ."),
        .value("--account-id", valueName: "ID", help: "accountId written in Transcribe documents (default flightvoice-local)."),
        .value("--write-grammar", valueName: "DIR", help: "Write today's grammar to DIR/today.jsgf, the automaton its passes search to DIR/today.fsg and the pronunciations it adds to the dictionary to DIR/added.dict (to decode the same grammar with pocketsphinx_batch -jsgf or -fsg); no clips needed."),
        RecognizerOptions.model, RecognizerOptions.crossCheck, RecognizerOptions.noNeuralCheck, RecognizerOptions.dictionary, RecognizerOptions.verbose,
        CommonOptions.database,
        CommonOptions.sharedDatabase,
    ]
    static let discussion = """
    Directories are searched recursively for audio files (\(ClipInputs.audioExtensions.sorted().joined(separator: ", "))).
    "-" reads one clip from standard input. Every clip gets one output record, in the order given, even when it
    cannot be read. A summary goes to standard error, and a progress bar when standard error is a terminal.

    exit codes: 0 every clip processed · 1 some clips could not be read · 64 usage · 69 speech model unusable · 74 database or --out/--write-grammar files · 76 database server unreachable
    """

    enum Format: String { case text, jsonl, transcribe }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        if let grammarFolder = arguments.value("write-grammar") {
            try writeGrammar(to: grammarFolder, arguments: arguments, context: context)
            if arguments.positionals.isEmpty { return .success }
        }
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "name the clips or folders to recognize, or - for standard input") }
        let format = Format(rawValue: try arguments.choice("format", from: ["text", "jsonl", "transcribe"]) ?? "text")!
        let outputFolder = arguments.value("out")
        if outputFolder != nil && format != .transcribe { throw UsageError(message: "--out goes with --format transcribe") }
        let jobs = try context.settings.integer(.workers, in: SettingKey.workerRange)
        let rawRate = try arguments.integer("raw-rate", in: AudioFileDecoder.minimumSampleRate...AudioFileDecoder.maximumSampleRate)
        let accountID = arguments.value("account-id") ?? TranscribeDocument.defaultAccountID
        let configuration = try RecognizerOptions.configuration(arguments, settings: context.settings)

        let inputs = try ClipInputs.collect(arguments.positionals)
        if let outputFolder { try createFolder(outputFolder) }
        let store = try DatabaseOptions.openStore(context)
        let answerer = try SpokenQueryAnswerer(flights: store, configuration: configuration, now: context.now)

        let options = PresentationOptions(now: context.now, isTerminal: context.console.outputIsTerminal)
        let reports = Mutex<[ClipReport]>([])
        let writeFailures = Mutex<[String]>([])
        let elapsedSeconds = try ClipBatch.run(inputs, jobs: jobs, answerer: answerer, console: context.console, answer: { input, recognizer in
            answerer.report(for: input, rawSampleRate: rawRate, recognizer: recognizer)
        }, deliver: { _, report in
            switch format {
            case .text: context.console.print(ClipReportOutput.textLine(report, options: options))
            case .jsonl: context.console.print(ClipReportOutput.jsonLine(report))
            case .transcribe:
                let document = TranscribeDocument.render(report, accountID: accountID, pretty: outputFolder != nil)
                if let outputFolder {
                    let file = URL(fileURLWithPath: outputFolder).appendingPathComponent(TranscribeDocument.jobName(forPath: report.path) + ".json")
                    do {
                        try (document + "\n").write(to: file, atomically: true, encoding: .utf8)
                    } catch {
                        writeFailures.withLock { $0.append("\(file.path): \(error.localizedDescription)") }
                    }
                } else {
                    context.console.print(document)
                }
            }
            reports.withLock { $0.append(report) }
        })
        let all = reports.withLock { $0 }
        context.console.printError(BatchProgress.summaryLine(all, elapsedSeconds: elapsedSeconds))
        for failure in writeFailures.withLock({ $0 }) { context.console.printError("flightvoice recognize: cannot write \(failure)") }
        if !writeFailures.withLock({ $0 }).isEmpty { return .ioError }
        return all.contains { $0.answer.status == .error } ? .someInputsFailed : .success
    }

    /// Writes today's grammar and the dictionary entries the recognizer adds for it: with Debian's dictionary, what
    /// today's-grammar pass decodes against.
    private static func writeGrammar(to folder: String, arguments: ParsedArguments, context: CommandContext) throws {
        let store = try DatabaseOptions.openStore(context)
        let recognizer = try SpokenQueryAnswerer(flights: store, configuration: try RecognizerOptions.configuration(arguments, settings: context.settings), now: context.now)
            .makeRecognizer()
        try createFolder(folder)
        let added = recognizer.addedPronunciations.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        for (name, text) in [("today.jsgf", recognizer.grammar.jsgf), ("today.fsg", try recognizer.todaysAutomaton()), ("added.dict", added)] {
            let file = URL(fileURLWithPath: folder).appendingPathComponent(name)
            do {
                try text.write(to: file, atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure(message: "cannot write \(file.path): \(error.localizedDescription)", exitCode: .ioError)
            }
        }
    }

    private static func createFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure(message: "cannot create the output folder \(path): \(error.localizedDescription)", exitCode: .ioError)
        }
    }
}
