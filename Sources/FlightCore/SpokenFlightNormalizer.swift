import Foundation

/// Maps what people say or type ("what's the gate for L X forty", "Speedbird 287", "lx 040") to ranked flight numbers.
/// Pure and thread-safe.
public struct SpokenFlightNormalizer: Sendable {
    public let airlines: AirlineDirectory

    public init(airlines: AirlineDirectory) {
        self.airlines = airlines
    }

    /// Reads `text` as a flight number; see `NormalizationOutcome`.
    public func normalize(_ text: String) -> NormalizationOutcome {
        // Interim: written designators only. The spoken-form reader replaces this (issue 2).
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let flight = FlightNumber(parsing: trimmed) else { return .notUnderstood(.empty) }
        return .understood([FlightCandidate(flight: flight, score: 1, readings: [TokenReading(token: trimmed, readAs: flight.canonical, role: .writtenFlightNumber)])])
    }
}
