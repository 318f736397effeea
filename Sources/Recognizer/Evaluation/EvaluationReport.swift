import FlightCore

/// How one clip's answer compares with what was said.
public enum EvaluationOutcome: String, Sendable, Hashable, CaseIterable, Codable {
    /// The flight said was answered (or, for a clip without one, no flight was answered).
    case correct
    /// A flight was answered, but not the one said, or one was answered where none was said: the worst outcome.
    case wrongFlight = "wrong_flight"
    /// "Did you mean…?" offering the flight said.
    case confirmIncludesExpected = "confirm_right"
    /// "Did you mean…?" without the flight said among the offers (or where no flight was said).
    case confirmWithoutExpected = "confirm_wrong"
    /// Not understood, no speech, or understood as a flight that does not fly today: ask again.
    case notAnswered = "not_answered"
    /// The clip could not be processed.
    case error

    /// Classifies one clip.
    public init(expected: FlightNumber?, answer: QueryAnswer) {
        switch answer.status {
        case .found:
            self = answer.flightNumber == expected ? .correct : .wrongFlight
        case .error:
            self = .error
        case .notUnderstood where !answer.suggestions.isEmpty:
            let offered = answer.suggestions.flatMap { [$0.requested, $0.flight.number] + $0.flight.codeshares }
            self = expected.map(offered.contains) == true ? .confirmIncludesExpected : .confirmWithoutExpected
        case .notUnderstood, .noSpeech, .notFound:
            self = expected == nil ? .correct : .notAnswered
        }
    }
}

/// Counts of outcomes over a group of clips, with the rates the issue asks for.
public struct EvaluationTally: Sendable, Hashable, Codable {
    public private(set) var clips = 0
    public private(set) var outcomes: [EvaluationOutcome: Int] = [:]
    /// Seconds of audio and of decoding, for the real-time factor.
    public private(set) var audioSeconds = 0.0
    public private(set) var processingSeconds = 0.0

    public init() {}

    /// Adds one clip.
    public mutating func add(_ outcome: EvaluationOutcome, audioSeconds: Double, processingSeconds: Double) {
        clips += 1
        outcomes[outcome, default: 0] += 1
        self.audioSeconds += audioSeconds
        self.processingSeconds += processingSeconds
    }

    public func count(_ outcome: EvaluationOutcome) -> Int { outcomes[outcome] ?? 0 }
    /// Share of clips with this outcome, 0...1 (0 for an empty group).
    public func rate(_ outcome: EvaluationOutcome) -> Double { clips == 0 ? 0 : Double(count(outcome)) / Double(clips) }
    /// Exact-match accuracy: the right flight answered, or no flight where none was said.
    public var exactAccuracy: Double { rate(.correct) }
    /// Decoding seconds per second of audio (per worker).
    public var realTimeFactor: Double { audioSeconds == 0 ? 0 : processingSeconds / audioSeconds }
}

/// The figures of an evaluation run: overall and per value of each grouping column.
public struct EvaluationReport: Sendable {
    public private(set) var overall = EvaluationTally()
    /// Column → value → tally, for the columns asked to group by.
    public private(set) var groups: [String: [String: EvaluationTally]] = [:]
    /// Clips whose outcome was not correct, in manifest order, for inspection.
    public private(set) var misses: [(entry: EvaluationManifest.Entry, outcome: EvaluationOutcome, report: ClipReport)] = []
    public let groupColumns: [String]

    public init(groupColumns: [String]) {
        self.groupColumns = groupColumns
    }

    /// Adds one clip's report.
    public mutating func add(_ entry: EvaluationManifest.Entry, report: ClipReport) {
        let outcome = EvaluationOutcome(expected: entry.expected, answer: report.answer)
        overall.add(outcome, audioSeconds: report.audioDuration, processingSeconds: report.processingSeconds)
        for column in groupColumns {
            let value = entry.columns[column] ?? ""
            groups[column, default: [:]][value, default: EvaluationTally()].add(outcome, audioSeconds: report.audioDuration, processingSeconds: report.processingSeconds)
        }
        if outcome != .correct { misses.append((entry, outcome, report)) }
    }
}
