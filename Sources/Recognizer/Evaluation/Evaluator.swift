import AudioInput
import FlightCore
import Foundation
import Synchronization

/// What happened to one clip of an evaluation.
public struct ClipOutcome: Sendable {
    /// The manifest row.
    public let entry: EvaluationManifest.Entry
    /// The decision, nil when the clip could not be read or decoded (see `error`).
    public let decision: RecognitionDecision?
    /// The best hypothesis.
    public let transcript: String
    /// Log-likelihood ratio per frame of the best path, when there was speech.
    public let logLikelihoodRatio: Double?
    /// Log-likelihood ratio per frame over the words that name the flight.
    public let flightWordsRatio: Double?
    /// Estimated signal-to-noise ratio in dB.
    public let signalToNoiseRatio: Double?
    /// Utterance confidence, 0...1.
    public let confidence: Double
    /// Audio length in seconds.
    public let audioSeconds: Double
    /// Decoding time in seconds.
    public let decodeSeconds: Double
    /// Why the clip failed, when it did.
    public let error: String?

    /// True when the answer is exactly right: the expected flight accepted, or, with no flight said, none accepted
    /// nor offered (rejected or no speech).
    public var isCorrect: Bool {
        switch (entry.expected, decision) {
        case (let expected?, .accepted(let flight)?): flight == expected
        case (nil, .rejected?), (nil, .noSpeech?): true
        default: false
        }
    }

    /// True when a flight was answered that was not said: a wrong flight, or a flight where none was said.
    public var isFalseAccept: Bool {
        guard case .accepted(let flight)? = decision else { return false }
        return flight != entry.expected
    }

    /// True when the traveller was asked to confirm.
    public var isConfirm: Bool {
        if case .confirm? = decision { return true }
        return false
    }

    /// True when asked to confirm and the expected flight was first among the offers.
    public var isConfirmOfExpected: Bool {
        if case .confirm(let flights)? = decision, let expected = entry.expected { return flights.first == expected }
        return false
    }

    /// True for a rejection (speech, not a flight).
    public var isRejected: Bool {
        if case .rejected? = decision { return true }
        return false
    }

    /// True when judged to hold no speech.
    public var isNoSpeech: Bool { decision == .noSpeech }
}

/// Counts over a set of clips.
public struct EvaluationTally: Sendable, Hashable {
    /// Clips counted.
    public var clips = 0
    /// Clips with the exactly right answer (`ClipOutcome.isCorrect`).
    public var correct = 0
    /// Flights answered that were not said.
    public var falseAccepts = 0
    /// Confirmation questions asked.
    public var confirms = 0
    /// Confirmation questions whose first offer was the flight said.
    public var confirmsOfExpected = 0
    /// Rejections (speech, not a flight).
    public var rejections = 0
    /// Clips judged silent.
    public var noSpeech = 0
    /// Clips that could not be read or decoded.
    public var errors = 0
    /// Total audio, seconds.
    public var audioSeconds = 0.0
    /// Total decoding time, seconds.
    public var decodeSeconds = 0.0

    /// Share of clips answered exactly right, 0...1.
    public var accuracy: Double { clips == 0 ? 0 : Double(correct) / Double(clips) }
    /// Share of clips answered with a flight that was not said, 0...1.
    public var falseAcceptRate: Double { clips == 0 ? 0 : Double(falseAccepts) / Double(clips) }
    /// Decoding time per second of audio (one worker's view).
    public var realTimeFactor: Double { audioSeconds == 0 ? 0 : decodeSeconds / audioSeconds }

    mutating func add(_ outcome: ClipOutcome) {
        clips += 1
        if outcome.isCorrect { correct += 1 }
        if outcome.isFalseAccept { falseAccepts += 1 }
        if outcome.isConfirm { confirms += 1 }
        if outcome.isConfirmOfExpected { confirmsOfExpected += 1 }
        if outcome.isRejected { rejections += 1 }
        if outcome.isNoSpeech { noSpeech += 1 }
        if outcome.error != nil { errors += 1 }
        audioSeconds += outcome.audioSeconds
        decodeSeconds += outcome.decodeSeconds
    }
}

/// The result of an evaluation: every clip's outcome, totals, and totals per value of each grouping column.
public struct EvaluationReport: Sendable {
    /// Per clip, in manifest order.
    public let outcomes: [ClipOutcome]
    /// Over all clips.
    public let overall: EvaluationTally
    /// Grouping column → (value, tally) sorted by value.
    public let groups: [(column: String, values: [(value: String, tally: EvaluationTally)])]
    /// Wall-clock seconds for the whole run (all workers).
    public let wallSeconds: Double
    /// Worker threads used.
    public let jobs: Int

    /// A plain-text table: overall and per group, then the clips answered with a wrong flight.
    public func rendered() -> String {
        func row(_ label: String, _ tally: EvaluationTally) -> String {
            let cells = [label.padding(toLength: 22, withPad: " ", startingAt: 0),
                         String(format: "%5d", tally.clips),
                         String(format: "%6.1f%%", tally.accuracy * 100),
                         String(format: "%5d", tally.falseAccepts),
                         String(format: "%6.1f%%", tally.falseAcceptRate * 100),
                         String(format: "%5d", tally.confirms), String(format: "%5d", tally.confirmsOfExpected),
                         String(format: "%5d", tally.rejections), String(format: "%5d", tally.noSpeech),
                         String(format: "%6.3f", tally.realTimeFactor)]
            return cells.joined(separator: " ")
        }
        let header = ["".padding(toLength: 22, withPad: " ", startingAt: 0), "clips", " exact", "wrong", " wrong%",
                      "conf", "c=ok", "rej", "none", "   RTF"].joined(separator: " ")
        var lines = [header, row("overall", overall)]
        for group in groups {
            lines.append("by \(group.column):")
            for (value, tally) in group.values { lines.append(row("  " + (value.isEmpty ? "(empty)" : value), tally)) }
        }
        let wrong = outcomes.filter(\.isFalseAccept)
        if !wrong.isEmpty {
            lines.append("wrong flights answered:")
            for outcome in wrong {
                lines.append("  \((outcome.entry.path as NSString).lastPathComponent): said \(outcome.entry.expected?.canonical ?? "no flight"), answered \(outcome.decision?.acceptedFlight?.canonical ?? "?") (\"\(outcome.transcript)\")")
            }
        }
        let errors = outcomes.compactMap(\.error)
        if !errors.isEmpty { lines.append("errors:"); lines += errors.map { "  " + $0 } }
        lines.append(String(format: "%d clips, %.1f s of audio, wall %.1f s with %d workers", overall.clips, overall.audioSeconds, wallSeconds, jobs))
        return lines.joined(separator: "\n")
    }
}

/// Decodes a manifest's clips in parallel (one recognizer per worker thread) and tallies the answers.
public enum Evaluator {
    /// Reads a clip as 16 kHz mono samples.
    public typealias AudioLoader = @Sendable (String) throws -> [Int16]

    /// AudioInput's decoder: WAV, FLAC, Ogg, MP3, M4A at any rate, converted to 16 kHz mono.
    public static let fileLoader: AudioLoader = { path in try AudioFileDecoder.decode(path: path).samples }

    /// Evaluates `manifest` against `vocabulary` with `jobs` worker threads, grouping totals by `groupBy` columns.
    public static func run(manifest: EvaluationManifest, vocabulary: FlightVocabulary,
                           configuration: RecognizerConfiguration = RecognizerConfiguration(), jobs: Int = 2,
                           groupBy: [String] = [], loadAudio: @escaping AudioLoader = fileLoader) throws -> EvaluationReport {
        try configuration.validate()
        let clock = ContinuousClock()
        let started = clock.now
        let entries = manifest.entries
        let workers = max(1, min(jobs, entries.count))
        let next = Atomic<Int>(0)
        let outcomes = Mutex<[ClipOutcome?]>(Array(repeating: nil, count: entries.count))
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchGroup()
        for index in 0..<workers {
            done.enter()
            let thread = Thread {
                defer { done.leave() }
                let recognizer: FlightRecognizer
                do {
                    recognizer = try FlightRecognizer(vocabulary: vocabulary, configuration: configuration)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                    return
                }
                while true {
                    let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard position < entries.count else { return }
                    let outcome = evaluate(entries[position], recognizer: recognizer, loadAudio: loadAudio)
                    outcomes.withLock { $0[position] = outcome }
                }
            }
            thread.name = "FlightVoice.eval.\(index)"
            thread.start()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
        let results = outcomes.withLock { $0.compactMap { $0 } }
        var overall = EvaluationTally()
        results.forEach { overall.add($0) }
        let groups = groupBy.map { column in
            var tallies: [String: EvaluationTally] = [:]
            for outcome in results { tallies[outcome.entry.columns[column, default: ""], default: EvaluationTally()].add(outcome) }
            return (column: column, values: tallies.keys.sorted().map { (value: $0, tally: tallies[$0]!) })
        }
        return EvaluationReport(outcomes: results, overall: overall, groups: groups,
                                wallSeconds: (clock.now - started).seconds, jobs: workers)
    }

    private static func evaluate(_ entry: EvaluationManifest.Entry, recognizer: FlightRecognizer, loadAudio: AudioLoader) -> ClipOutcome {
        do {
            let samples = try loadAudio(entry.path)
            let result = try recognizer.recognize(samples: samples)
            return ClipOutcome(entry: entry, decision: result.decision, transcript: result.transcript.text,
                               logLikelihoodRatio: result.logLikelihoodRatio, flightWordsRatio: result.flightWordsRatio, signalToNoiseRatio: result.signalToNoiseRatio, confidence: result.confidence,
                               audioSeconds: result.audioDuration, decodeSeconds: result.decodeSeconds, error: nil)
        } catch {
            return ClipOutcome(entry: entry, decision: nil, transcript: "", logLikelihoodRatio: nil, flightWordsRatio: nil, signalToNoiseRatio: nil, confidence: 0,
                               audioSeconds: 0, decodeSeconds: 0, error: "\(entry.path): \(error)")
        }
    }
}
