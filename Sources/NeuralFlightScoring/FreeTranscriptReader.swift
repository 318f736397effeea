import FlightCore

/// What a free transcript names, read by the spoken-form normalizer.
public struct FreeTranscriptReading: Sendable, Hashable {
    /// The transcript as decoded ("LX 40.", "L.A.H. for 100").
    public let transcript: String
    /// The normalizer's outcome: its readings, best first, or why there are none.
    public let outcome: NormalizationOutcome
    /// The most plausible reading that is one of today's flights; nil when no reading is.
    public let todaysFlight: FlightNumber?

    /// The normalizer's most plausible reading, whether or not it flies today.
    public var bestReading: FlightNumber? { outcome.best?.flight }
    /// True when the most plausible reading is one of today's flights.
    public var bestReadingFliesToday: Bool { bestReading != nil && bestReading == todaysFlight }
}

/// Reads Whisper's free transcript ("Alex 40", "LX 40.") through the spoken-form normalizer and keeps whether it
/// names one of today's flights. Pure and `Sendable`.
public struct FreeTranscriptReader: Sendable {
    public let normalizer: SpokenFlightNormalizer
    /// Today's flight numbers (operating and codeshare).
    public let todaysFlights: Set<FlightNumber>

    public init(airlines: AirlineDirectory, todaysFlights: some Sequence<FlightNumber>) {
        normalizer = SpokenFlightNormalizer(airlines: airlines)
        self.todaysFlights = Set(todaysFlights)
    }

    /// The reading of `transcript`.
    public func read(_ transcript: String) -> FreeTranscriptReading {
        let outcome = normalizer.normalize(transcript)
        var todaysFlight: FlightNumber?
        if case .understood(let candidates) = outcome {
            todaysFlight = candidates.first { todaysFlights.contains($0.flight) }?.flight
        }
        return FreeTranscriptReading(transcript: transcript, outcome: outcome, todaysFlight: todaysFlight)
    }
}
