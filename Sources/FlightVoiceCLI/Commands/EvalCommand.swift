import AudioDevices
import AudioInput
import FlightCore
import Foundation
import Recognizer
import Synchronization

/// `flightvoice eval MANIFEST.tsv`: accuracy, wrong answers and speed on clips with known answers.
enum EvalCommand: Command {
    static let name = "eval"
    static let summary = "Measure accuracy on clips with known answers: flightvoice eval corpus/manifest.tsv --by condition"
    static let usage = "flightvoice eval [options] MANIFEST.tsv"
    static let options: [OptionSpec] = [
        .value("--by", valueName: "COLUMN", help: "Also report per value of this manifest column (repeatable)."),
        .value("--jobs", "-j", valueName: "N", help: "Decode N clips at once (setting `workers`; default: all cores)."),
        .flag("--misses", help: "List every clip that was not answered exactly, with what was heard."),
        .value("--features", valueName: "FILE", help: "Write each clip's decision measures (fit score, its parts, SNR) as TSV, for choosing thresholds."),
        .flag("--live", help: "Feed each clip through the live (microphone) path in 64 ms chunks, with a second of its own background first."),
        .value("--live-audio", valueName: "DIR", help: "With --live: write the audio each clip's answer was decoded from as DIR/CLIP.wav (`recognize` on it gives the live answer) and where each query started and ended (and whether its rival was decoded alongside) as DIR/endpoints.tsv."),
        .flag("--rival", help: "Measure every clip's lead over today's other flights (rival_margin), and with --cross-check the second model's decision (cross_check_flight, cross_check_probability), not only where they decide."),
        .flag("--neural", help: "Run the neural model's pass (Whisper tiny.en scoring today's flights) on every clip heard and write its reading (neural_flight, neural_margin, …) to --features, not only where the decision asks it."),
        .value("--neural-beam", valueName: "N", help: "With the neural pass: partial candidates kept per token depth (default 32)."),
        .value("--neural-prompt", valueName: "TEXT", help: "With the neural pass: the text its decoder is given as what came before (default: the decision's neural check's, the stock model's \"\(DecisionModel.stock.neuralCheck?.prompt ?? "")\"; \"\" for none)."),
        .value("--neural-margin-seconds", valueName: "S", help: "With the neural pass: seconds of padding encoded after the clip instead of Whisper's 30 s window (default 1; 30 encodes the whole window)."),
        .value("--beams", valueName: "HMM,PHONE,WORD", help: "Today's grammar's beams (-beam, -pbeam, -wbeam), for measuring others than the decision model's; e.g. 1e-50,1e-50,1e-35."),
        .value("--silence-probability", valueName: "P", help: "Probability of a pause between words (-silprob) in every grammar pass, for measuring others than the decision model's (default 0.005, the library's); e.g. 0.1."),
        RecognizerOptions.model, RecognizerOptions.crossCheck, RecognizerOptions.noNeuralCheck, RecognizerOptions.dictionary, RecognizerOptions.verbose,
    ] + RecognizerOptions.measurement + [
        CommonOptions.database,
        CommonOptions.sharedDatabase,
    ]
    static let discussion = """
    MANIFEST is a TSV whose header has at least `path` (relative to the manifest) and `flight` (the expected flight
    number, empty when none is said). A clip is exact when the flight said is answered, or when no flight is answered
    where none was said. A wrong flight is a flight answered where another or none was said: the worst outcome.
    "Did you mean…?" answers are counted apart. The real-time factor is decoding time over audio time, per worker.

    exit codes: 0 measured · 64 usage · 65 bad manifest · 66 manifest missing · 69 speech model · 74 database or --features file · 76 database server unreachable
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.count == 1, let manifestPath = arguments.positionals.first else {
            throw UsageError(message: "name one manifest (a TSV with path and flight columns)")
        }
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            throw CommandFailure(message: "\(manifestPath): no such file", exitCode: .noInput)
        }
        let jobs = try context.settings.integer(.workers, in: SettingKey.workerRange)
        var configuration = try RecognizerOptions.configuration(arguments, settings: context.settings)
        configuration.alwaysReadsRival = arguments.has("rival")
        configuration.alwaysReadsNeural = arguments.has("neural")
        if let beam = arguments.value("neural-beam") {
            guard let width = Int(beam), width > 0 else { throw UsageError(message: "--neural-beam takes a positive count, not '\(beam)'") }
            configuration.neuralPass.beamWidth = width
        }
        if let prompt = arguments.value("neural-prompt") { configuration.neuralPass.prompt = prompt }
        if let margin = arguments.value("neural-margin-seconds") {
            guard let seconds = Double(margin), seconds >= 0, seconds <= 30 else {
                throw UsageError(message: "--neural-margin-seconds takes seconds from 0 to 30, not '\(margin)'")
            }
            configuration.neuralPass.encoderMarginSeconds = seconds
        }
        if let beams = arguments.value("beams") {
            let values = beams.split(separator: ",").compactMap { Double($0) }
            guard values.count == 3, values.allSatisfy({ $0 > 0 && $0 < 1 }) else {
                throw UsageError(message: "--beams takes three probabilities between 0 and 1, HMM,PHONE,WORD (e.g. 1e-50,1e-50,1e-35), not '\(beams)'")
            }
            (configuration.beam, configuration.phoneBeam, configuration.wordBeam) = (values[0], values[1], values[2])
        }
        if let silence = arguments.value("silence-probability") {
            guard let probability = Double(silence), probability > 0, probability <= 1 else {
                throw UsageError(message: "--silence-probability takes a probability above 0 and at most 1 (e.g. 0.1), not '\(silence)'")
            }
            configuration.silenceProbability = probability
        }
        let manifest: EvaluationManifest
        do {
            manifest = try EvaluationManifest(contentsOf: manifestPath)
        } catch {
            throw CommandFailure(message: String(describing: error), exitCode: .dataError)
        }
        let groupColumns = arguments.values(of: "by")
        for column in groupColumns where !manifest.columns.contains(column) {
            throw UsageError(message: "the manifest has no column '\(column)' (it has \(manifest.columns.joined(separator: ", ")))")
        }
        let store = try DatabaseOptions.openStore(context)
        let answerer = try SpokenQueryAnswerer(flights: store, configuration: configuration, now: context.now)

        let featuresPath = arguments.value("features")
        let live = arguments.has("live")
        let liveAudioDirectory = arguments.value("live-audio")
        if let liveAudioDirectory {
            guard live else { throw UsageError(message: "--live-audio needs --live") }
            do {
                try FileManager.default.createDirectory(atPath: liveAudioDirectory, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure(message: "\(liveAudioDirectory): cannot create the folder (\(error.localizedDescription))", exitCode: .ioError)
            }
        }
        let endpointRows = Mutex([String](repeating: "", count: manifest.entries.count))
        let entries = manifest.entries
        let report = Mutex(EvaluationReport(groupColumns: groupColumns))
        let featureRows = Mutex([String](repeating: "", count: entries.count))
        let elapsedSeconds = try ClipBatch.run(Array(entries.indices), jobs: jobs, answerer: answerer, console: context.console, live: live, answer: { index, recognizer in
            let entry = entries[index]
            var result: RecognitionResult?
            let decode = { try AudioFileDecoder.decode(path: entry.resolvedPath) }
            let clipReport = live
                ? answerer.report(path: entry.path, decode: decode, recognize: { clip in
                    let feed = LiveClipFeed(clip: clip.samples, sampleRate: AudioClip.sampleRate)
                    // A telephone clip is heard as by a kiosk on a telephone line: by the telephone recognizer throughout.
                    let listening = try recognizer.recognizer(for: AudioBand(of: clip))
                    // Each clip is heard as by a kiosk just switched on, whichever clips this worker decoded before.
                    listening.restartStreaming()
                    let listener = try LiveRecognizer(recognizer: listening)
                    guard let liveAudioDirectory else { return try listener.firstResult(for: feed, chunkSamples: Microphone.defaultChunkSamples) }
                    let (utterance, audio) = try listener.firstUtteranceWithAudio(for: feed, chunkSamples: Microphone.defaultChunkSamples)
                    let row = try LiveAudioDump.write(entry: entry, feed: feed, utterance: utterance, audio: audio, into: liveAudioDirectory)
                    endpointRows.withLock { $0[index] = row }
                    return utterance?.result
                }, inspect: { result = $0 })
                : answerer.report(path: entry.path, decode: decode, recognizer: recognizer, inspect: { result = $0 })
            if featuresPath != nil {
                featureRows.withLock { $0[index] = DecisionFeatures.row(entry: entry, report: clipReport, result: result) }
            }
            return clipReport
        }, deliver: { index, clipReport in
            report.withLock { $0.add(entries[index], report: clipReport) }
        })
        if let featuresPath {
            try writeTable([DecisionFeatures.header] + featureRows.withLock { $0 }, to: featuresPath, failure: "cannot write the features")
        }
        if let liveAudioDirectory {
            try writeTable([LiveAudioDump.header] + endpointRows.withLock { $0 }.filter { !$0.isEmpty },
                           to: (liveAudioDirectory as NSString).appendingPathComponent("endpoints.tsv"), failure: "cannot write")
        }
        let finished = report.withLock { $0 }
        context.console.print(EvaluationText.render(finished, wallSeconds: elapsedSeconds, workers: jobs, listMisses: arguments.has("misses")))
        return .success
    }
}

extension EvalCommand {
    /// Writes TSV `lines` to `path`; a failure is exit 74 saying `failure` and why.
    fileprivate static func writeTable(_ lines: [String], to path: String, failure: String) throws {
        do {
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure(message: "\(path): \(failure) (\(error.localizedDescription))", exitCode: .ioError)
        }
    }
}

/// The evaluation report as a table for people.
enum EvaluationText {
    static func render(_ report: EvaluationReport, wallSeconds: Double, workers: Int, listMisses: Bool) -> String {
        var lines: [String] = []
        let header = "group".padding(toLength: 22, withPad: " ", startingAt: 0) + "clips   exact   wrong  confirm✓  confirm✗  unanswered  errors"
        lines.append(header)
        lines.append(row("all", report.overall))
        for column in report.groupColumns {
            lines.append("by \(column):")
            for (value, tally) in (report.groups[column] ?? [:]).sorted(by: { $0.key < $1.key }) {
                lines.append(row("  " + (value.isEmpty ? "(empty)" : value), tally))
            }
        }
        let overall = report.overall
        lines.append("")
        lines.append("wrong flights: \(overall.count(.wrongFlight)) of \(overall.clips) clips (\(percent(overall.rate(.wrongFlight))))")
        lines.append(String(format: "speed: %.1f s of audio decoded in %.1f s on %d workers; real-time factor %.3f per worker",
                            overall.audioSeconds, wallSeconds, workers, overall.realTimeFactor))
        if listMisses && !report.misses.isEmpty {
            lines.append("")
            lines.append("misses:")
            for miss in report.misses {
                let expected = miss.entry.expected?.canonical ?? "(none)"
                let answered = miss.report.answer.flightNumber?.canonical ?? miss.report.answer.status.rawValue
                lines.append("  \(miss.outcome.rawValue)  \(miss.entry.path)  expected \(expected), got \(answered)  heard \"\(miss.report.transcript.text)\"")
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ label: String, _ tally: EvaluationTally) -> String {
        let cells = [
            String(tally.clips).leftPadded(5), percent(tally.exactAccuracy).leftPadded(7), percent(tally.rate(.wrongFlight)).leftPadded(7),
            percent(tally.rate(.confirmIncludesExpected)).leftPadded(9), percent(tally.rate(.confirmWithoutExpected)).leftPadded(9),
            percent(tally.rate(.notAnswered)).leftPadded(11), String(tally.count(.error)).leftPadded(7),
        ]
        return label.padding(toLength: 22, withPad: " ", startingAt: 0) + cells.joined(separator: " ")
    }

    private static func percent(_ rate: Double) -> String { String(format: "%.1f%%", rate * 100) }
}

private extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}

/// `eval --live --live-audio DIR`: the audio each clip's live answer was decoded from, and where its query was heard.
enum LiveAudioDump {
    static let header = ["path", "audio", "reason", "speech_start_s", "speech_end_s", "endpoint_s", "decode_started_s", "decoded_s",
                         "rival_alongside"]
        .joined(separator: "\t")

    /// Writes the decoded audio (when there was a query) and returns the clip's row; times are seconds into the clip.
    static func write(entry: EvaluationManifest.Entry, feed: LiveClipFeed, utterance: LiveUtterance?, audio: [Int16]?,
                      into directory: String) throws -> String {
        let name = entry.path.replacingOccurrences(of: "/", with: "__") + ".wav"
        let clipStart = Double(feed.clipStart) / Double(AudioClip.sampleRate)
        guard let utterance, let audio else { return [entry.path, "", "no_query", "", "", "", "", "", ""].joined(separator: "\t") }
        let path = (directory as NSString).appendingPathComponent(name)
        do {
            try WAVEncoder.data(samples: audio, sampleRate: AudioClip.sampleRate).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure(message: "\(path): cannot write (\(error.localizedDescription))", exitCode: .ioError)
        }
        func clipTime(_ seconds: Double) -> String { String(format: "%.2f", seconds - clipStart) }
        return [entry.path, name, utterance.reason.rawValue, clipTime(utterance.speechStart), clipTime(utterance.speechEnd),
                clipTime(utterance.endpoint), clipTime(utterance.decodeStartedAt),
                String(format: "%.2f", Double(audio.count) / Double(AudioClip.sampleRate)),
                utterance.rivalDecodedAlongside ? "yes" : "no"].joined(separator: "\t")
    }
}
