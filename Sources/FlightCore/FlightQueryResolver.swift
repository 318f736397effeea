import Foundation

/// Turns a query (typed text, or a recognizer's candidates) into an answer: normalize, look up, suggest.
/// The one place that decides found / not found / not understood, shared by every front end.
public struct FlightQueryResolver: Sendable {
    public let normalizer: SpokenFlightNormalizer
    public let flights: any FlightsDataSource
    /// How many "Did you mean…?" suggestions an answer carries at most.
    public let suggestionLimit: Int

    /// A candidate below this share of the best candidate's score is never answered in its place.
    public static let alternativeScoreRatio = 0.5

    public init(normalizer: SpokenFlightNormalizer, flights: any FlightsDataSource, suggestionLimit: Int = 3) {
        self.normalizer = normalizer
        self.flights = flights
        self.suggestionLimit = suggestionLimit
    }

    /// Answers typed or transcribed text.
    public func answer(_ text: String, now: Date) throws -> QueryAnswer {
        switch normalizer.normalize(text) {
        case .notUnderstood(let failure):
            return QueryAnswer(
                status: .notUnderstood, heard: text, flightNumber: nil, candidates: [],
                lookup: nil, suggestions: [], message: failure.message)
        case .understood(let candidates):
            return try answer(heard: text, candidates: candidates, now: now)
        }
    }

    /// Answers ranked candidates: the best one that flies today, unless only a much weaker reading does.
    public func answer(heard: String, candidates: [FlightCandidate], now: Date) throws -> QueryAnswer {
        guard let best = candidates.first else {
            return QueryAnswer(
                status: .notUnderstood, heard: heard, flightNumber: nil, candidates: [],
                lookup: nil, suggestions: [], message: NormalizationFailure.empty.message)
        }
        for candidate in candidates where candidate.score >= best.score * Self.alternativeScoreRatio {
            if let lookup = try flights.flight(candidate.flight, near: now) {
                return QueryAnswer(
                    status: .found, heard: heard, flightNumber: candidate.flight, candidates: candidates,
                    lookup: lookup, suggestions: [], message: nil)
            }
        }
        let suggestions = try flights.suggestions(for: best.flight, near: now, limit: suggestionLimit)
        return QueryAnswer(
            status: .notFound, heard: heard, flightNumber: best.flight, candidates: candidates,
            lookup: nil, suggestions: suggestions, message: "no flight \(best.flight.display) today")
    }

    /// An answer that asks the traveller to choose: the flights heard as possible, none confidently.
    public func confirmation(heard: String, options: [FlightNumber], candidates: [FlightCandidate], now: Date, message: String) throws -> QueryAnswer {
        let lookups = try options.prefix(suggestionLimit).compactMap { try flights.flight($0, near: now) }
        return QueryAnswer(
            status: .notUnderstood, heard: heard, flightNumber: nil, candidates: candidates,
            lookup: nil, suggestions: lookups, message: message)
    }
}
