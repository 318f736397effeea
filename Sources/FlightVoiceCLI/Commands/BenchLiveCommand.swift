import AudioDevices
import AudioInput
import FlightCore
import Foundation
import Recognizer

/// `flightvoice bench-live CLIPS...`: plays clips through the live path in real time and prints how fast answers come.
enum BenchLiveCommand: Command {
    static let name = "bench-live"
    static let summary = "Measure live latency: play clips in real time through the microphone path"
    static let usage = "flightvoice bench-live [--db PATH] [--each] [--predicted-rival] [--candidate-silence SECONDS] FILE|DIR ..."
    static let options: [OptionSpec] = [
        .flag("--each", help: "Print one line per clip as well."),
        .flag("--predicted-rival", help: "Decode the rival alongside today's grammar for the streaming hypothesis's flights instead of once today's grammar has named them (LiveConfiguration.predictsRival on), to compare."),
        .value("--candidate-silence", valueName: "SECONDS",
               help: "Start the background decode after this much quiet instead of EndpointerConfiguration.candidateSilenceSeconds, to compare."),
        RecognizerOptions.model, RecognizerOptions.crossCheck, RecognizerOptions.noNeuralCheck, RecognizerOptions.dictionary,
        CommonOptions.database,
    ]
    static let discussion = """
    Each clip is fed as the kiosk hears it (a second of its own background, the clip, 1.5 s of background) in 64 ms
    chunks, paced in real time. Decision latency runs from the endpointer declaring the end to the final result;
    response time from the end of the last word (the end of the clip's last 10 ms louder than its background: within
    30 dB of its loudest, or in a noisy clip more than 6 dB over its quietest tenth; a decode's segmentation moves with
    what it heard) to the final result, so it includes the endpointer's wait. Also printed: CPU seconds per second of
    audio and the peak resident memory, and, for a busy machine, what the answering decode takes on two idle cores
    (from its threads' CPU time) and the response time that gives (from stream times, which load does not change).
    `--each` adds one line per clip with its ending, where its decode started after the last word and that decode time.
    A measurement, not a test: run it on an otherwise idle machine.

    exit codes: 0 measured · 64 usage · 66 no clips · 69 speech model · 74 database
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard !arguments.positionals.isEmpty else { throw UsageError(message: "name the clips or folders to play") }
        let configuration = try RecognizerOptions.configuration(arguments, settings: context.settings).listeningAlone
        let inputs = try ClipInputs.collect(arguments.positionals).compactMap { input -> String? in
            if case .file(let path) = input { return path } else { return nil }
        }
        guard !inputs.isEmpty else { throw CommandFailure(message: "no audio files found", exitCode: .noInput) }
        var candidateSilence = EndpointerConfiguration().candidateSilenceSeconds
        if let text = arguments.value("candidate-silence") {
            guard let seconds = Double(text), seconds > 0, seconds < 1 else {
                throw UsageError(message: "--candidate-silence takes seconds between 0 and 1, e.g. 0.12")
            }
            candidateSilence = seconds
        }
        let store = try DatabaseOptions.openStore(context)
        let answerer = try SpokenQueryAnswerer(flights: store, configuration: configuration, now: context.now)
        let recognizer = try answerer.makeRecognizer()

        var decisions: [Double] = [], responses: [Double] = [], reasons: [EndpointReason: Int] = [:]
        var decodeTimes: [Double] = [], estimatedResponses: [Double] = []
        var speculative = 0, rivalsAlongside = 0, stoppedDecodes = 0, audioSeconds = 0.0, unanswered = 0
        let cpuBefore = ProcessUsage.cpuSeconds()
        for path in inputs {
            let clip: AudioClip
            do { clip = try AudioFileDecoder.decode(path: path) } catch {
                context.console.printError("\(path): \(error)")
                continue
            }
            let feed = LiveClipFeed(clip: clip.samples, sampleRate: AudioClip.sampleRate)
            var liveConfiguration = LiveConfiguration()
            liveConfiguration.predictsRival = arguments.has("predicted-rival")
            liveConfiguration.endpointer.candidateSilenceSeconds = candidateSilence
            let live = try LiveRecognizer(recognizer: recognizer.recognizer(for: AudioBand(of: clip)), configuration: liveConfiguration)
            let timing = try playInRealTime(feed, through: live)
            stoppedDecodes += live.cancelledBackgroundDecodes
            audioSeconds += Double(feed.samples.count) / Double(AudioClip.sampleRate)
            guard let (utterance, answeredAt) = timing else {
                unanswered += 1
                if arguments.has("each") { context.console.print("\(path)  no utterance found") }
                continue
            }
            decisions.append(utterance.decisionSeconds)
            reasons[utterance.reason, default: 0] += 1
            if utterance.speculative { speculative += 1 }
            if utterance.rivalDecodedAlongside { rivalsAlongside += 1 }
            var line = "\(path)  \(utterance.reason.rawValue)  decision \(milliseconds(utterance.decisionSeconds))"
            decodeTimes.append(utterance.decodeIdleCoresSeconds)
            let wordEnd = Double(feed.soundEnd) / Double(AudioClip.sampleRate)
            let response = answeredAt - wordEnd
            responses.append(response)
            let estimated = estimatedAnswerTime(utterance) - wordEnd
            estimatedResponses.append(estimated)
            line += "  response \(milliseconds(response))  (on idle cores ≈ \(milliseconds(estimated)): decode from +\(milliseconds(utterance.decodeStartedAt - wordEnd))"
            line += " for \(milliseconds(utterance.decodeIdleCoresSeconds)))"
            if utterance.speculative { line += "  (background decode)" }
            if utterance.rivalDecodedAlongside { line += "  (rival alongside)" }
            let steps = utterance.decodeSteps
            line += "  [CPU ms: cepstra \(milliseconds(steps.cepstra).dropLast(3)), grammar \(milliseconds(steps.todaysGrammar).dropLast(3))"
            line += ", phone loop \(milliseconds(steps.phoneLoop).dropLast(3)), open \(milliseconds(steps.openGrammar).dropLast(3))"
            line += ", rival \(milliseconds(steps.rival).dropLast(3))\(steps.rivalAlongside ? " alongside" : steps.rival > 0 ? " after" : "")"
            if steps.crossCheck > 0 { line += ", second model \(milliseconds(steps.crossCheck).dropLast(3))" }
            if steps.neural > 0 {
                line += ", neural \(milliseconds(steps.neural).dropLast(3))"
                if steps.neuralAhead { line += steps.neuralUnused ? " ahead, unused" : " ahead" }
            }
            line += "]"
            if arguments.has("each") { context.console.print(line) }
        }
        let cpu = ProcessUsage.cpuSeconds() - cpuBefore
        let console = context.console
        console.print("clips: \(inputs.count) played, \(decisions.count) answered, \(unanswered) without an utterance")
        console.print("decision latency (end declared → answer): \(summary(decisions))")
        console.print("response time (end of last word → answer): \(summary(responses))")
        console.print("decode time on two idle cores, from its threads' CPU time: \(summary(decodeTimes))")
        console.print("response time on idle cores, estimated from stream times and that decode time: \(summary(estimatedResponses))")
        console.print("endings: " + reasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
                      + "; answered from the background decode: \(speculative) of \(decisions.count)"
                      + "; rival decoded alongside: \(rivalsAlongside)"
                      + "; background decodes stopped by speech resuming: \(stoppedDecodes)")
        console.print(String(format: "CPU: %.3f s per second of audio (%.1f s for %.1f s); peak RSS %.0f MB",
                             audioSeconds > 0 ? cpu / audioSeconds : 0, cpu, audioSeconds, ProcessUsage.peakResidentMegabytes()))
        return .success
    }

    /// When the answer would be ready on idle cores, in stream seconds: the end as the endpointer's rules put it, or the
    /// decode's start plus its CPU time if that is later. Machine load delays only the second (and, for an end on the
    /// decode's reading, the frame the end was declared at, which is therefore taken from the rule's silence).
    private static func estimatedAnswerTime(_ utterance: LiveUtterance) -> Double {
        let end = utterance.reason == .decodedFlight
            ? utterance.speechEnd + EndpointerConfiguration().decodedFlightSilenceSeconds : utterance.endpoint
        return max(end, utterance.decodeStartedAt + utterance.decodeIdleCoresSeconds)
    }

    /// Feeds `feed` chunk by chunk at the moment a microphone would deliver each; returns the first utterance and the
    /// stream time (seconds since the feed began) when its answer was ready.
    private static func playInRealTime(_ feed: LiveClipFeed, through live: LiveRecognizer) throws -> (LiveUtterance, Double)? {
        let clock = ContinuousClock()
        let start = clock.now
        let chunk = Microphone.defaultChunkSamples
        var offset = 0
        while offset < feed.samples.count {
            let end = min(feed.samples.count, offset + chunk)
            let due = start + .seconds(Double(end) / Double(AudioClip.sampleRate))
            if clock.now < due { Thread.sleep(forTimeInterval: (due - clock.now).benchSeconds) }
            for case .final(let utterance) in try live.process(Array(feed.samples[offset..<end])) {
                return (utterance, (clock.now - start).benchSeconds)
            }
            offset = end
        }
        for case .final(let utterance) in try live.finish() { return (utterance, (clock.now - start).benchSeconds) }
        return nil
    }

    private static func summary(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "no data" }
        let sorted = values.sorted()
        let p95 = sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.95).rounded(.up)) - 1)]
        return "median \(milliseconds(sorted[sorted.count / 2])), p95 \(milliseconds(p95)), max \(milliseconds(sorted.last!)) (n=\(sorted.count))"
    }

    private static func milliseconds(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
}

/// This process's CPU time and peak memory (getrusage).
enum ProcessUsage {
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}

private extension Duration {
    var benchSeconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
