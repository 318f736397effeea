import AudioInput
import FlightCore
import Foundation

/// Turns recognized speech into answers: today's grammar for the recognizers, the recognizer's decision into a
/// `QueryAnswer`. Shared by every front end (batch, kiosk, HTTP). `Sendable`; make one recognizer per thread.
public struct SpokenQueryAnswerer: Sendable {
    public let vocabulary: FlightVocabulary
    public let configuration: RecognizerConfiguration
    public let resolver: FlightQueryResolver
    /// The instant answers are given for.
    public let now: Date

    /// Reads today's flights and airlines from `flights`.
    public init(flights: any FlightsDataSource, configuration: RecognizerConfiguration, now: Date) throws {
        let airlines = try flights.airlineDirectory()
        vocabulary = FlightVocabulary(airlines: airlines, flights: try flights.flightNumbers(near: now))
        resolver = FlightQueryResolver(normalizer: SpokenFlightNormalizer(airlines: airlines), flights: flights)
        self.configuration = configuration
        self.now = now
    }

    /// A recognizer for today's flights, for use on the calling thread only. One of `workers` decoding at once: when
    /// they occupy every core, its passes run on the calling thread alone, since a helper thread there only adds
    /// switching between threads (2 batch workers on 2 cores: 10% more CPU and wall time with it).
    public func makeRecognizer(amongWorkers workers: Int = 1) throws -> FlightRecognizer {
        var configuration = configuration
        if workers >= ProcessInfo.processInfo.activeProcessorCount { configuration.concurrentPasses = false }
        return try FlightRecognizer(vocabulary: vocabulary, configuration: configuration)
    }

    /// The answer to one recognized utterance: a wrong flight is never answered where the decision has doubts.
    public func answer(for result: RecognitionResult) throws -> QueryAnswer {
        try answer(for: result, now: now)
    }

    /// The answer to one recognized utterance at `now` (a kiosk answers for the moment it is asked).
    public func answer(for result: RecognitionResult, now: Date) throws -> QueryAnswer {
        let heard = result.transcript.text
        switch result.decision {
        case .noSpeech:
            return QueryAnswer(status: .noSpeech, heard: heard, flightNumber: nil, candidates: [], lookup: nil, suggestions: [], message: "no speech was heard")
        case .rejected(let reason):
            return QueryAnswer(status: .notUnderstood, heard: heard, flightNumber: nil, candidates: result.candidates, lookup: nil, suggestions: [], message: reason.message)
        case .confirm(let flights):
            let spoken = flights.prefix(resolver.suggestionLimit).map(\.display).joined(separator: " or ")
            return try resolver.confirmation(heard: heard, options: flights, candidates: result.candidates, now: now, message: "not sure what was said: did you mean \(spoken)?")
        case .accepted(let flight):
            let chosen = result.candidates.first { $0.flight == flight } ?? FlightCandidate(flight: flight, score: 1, readings: [])
            return try resolver.answer(heard: heard, candidates: [chosen], now: now)
        }
    }

    /// Decodes and answers one clip; any failure becomes an `error` report, so no clip is ever lost. `inspect` sees the
    /// recognizer's full result when there is one (for decision measures).
    public func report(path: String, decode: () throws -> AudioClip, recognizer: FlightRecognizer,
                       inspect: (RecognitionResult) -> Void = { _ in }) -> ClipReport {
        report(path: path, decode: decode, recognize: { try recognizer.recognize($0) }, inspect: inspect)
    }

    /// Decodes and answers one clip with `recognize`, which returns nil when it heard no query at all (the live path).
    public func report(path: String, decode: () throws -> AudioClip, recognize: (AudioClip) throws -> RecognitionResult?,
                       inspect: (RecognitionResult) -> Void = { _ in }) -> ClipReport {
        let started = Date()
        var transcript = Transcript.empty
        var duration = 0.0
        do {
            let clip = try decode()
            duration = clip.duration
            guard let result = try recognize(clip) else {
                let answer = QueryAnswer(status: .noSpeech, heard: "", flightNumber: nil, candidates: [], lookup: nil, suggestions: [], message: "no speech was heard")
                return ClipReport(path: path, answer: answer, transcript: transcript, audioDuration: duration, processingSeconds: Date().timeIntervalSince(started), error: nil)
            }
            inspect(result)
            transcript = result.transcript
            let answer = try answer(for: result)
            return ClipReport(path: path, answer: answer, transcript: transcript, audioDuration: duration, processingSeconds: Date().timeIntervalSince(started), error: nil)
        } catch {
            let message = String(describing: error)
            let answer = QueryAnswer(status: .error, heard: transcript.text, flightNumber: nil, candidates: [], lookup: nil, suggestions: [], message: message)
            return ClipReport(path: path, answer: answer, transcript: transcript, audioDuration: duration, processingSeconds: Date().timeIntervalSince(started), error: message)
        }
    }
}
