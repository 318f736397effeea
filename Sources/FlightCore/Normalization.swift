/// What a spoken or typed token was taken to mean while normalizing.
public enum TokenRole: String, Sendable, Codable, Hashable {
    /// Carrier phrase or hesitation ("what's the gate for", "um", "please", "flight").
    case filler
    /// A spelled letter of an airline code ("L", "lima", "x-ray").
    case airlineLetter = "airline_letter"
    /// A digit that is part of an airline code ("U two" → U2).
    case airlineDigit = "airline_digit"
    /// An airline name or callsign ("Swiss", "Speedbird").
    case airlineName = "airline_name"
    /// A written or spelled ICAO code ("SWR", "S W R").
    case airlineICAO = "airline_icao"
    /// A written designator ("LX40").
    case writtenFlightNumber = "written_flight_number"
    /// Part of the flight number ("four", "forty", "double", "hundred").
    case number
}

/// One token of the input and what it was read as.
public struct TokenReading: Sendable, Codable, Hashable {
    /// The token as heard or typed, e.g. "x-ray".
    public let token: String
    /// What it contributed, e.g. "X", "40", "LX", or "" for fillers.
    public let readAs: String
    public let role: TokenRole

    public init(token: String, readAs: String, role: TokenRole) {
        self.token = token
        self.readAs = readAs
        self.role = role
    }
}

/// One reading of an utterance as a flight number, with how plausible it is.
public struct FlightCandidate: Sendable, Codable, Hashable {
    public let flight: FlightNumber
    /// 0...1, higher is more plausible; the first candidate of a result has the highest score.
    public let score: Double
    /// How each token was read for this candidate.
    public let readings: [TokenReading]

    public init(flight: FlightNumber, score: Double, readings: [TokenReading]) {
        self.flight = flight
        self.score = score
        self.readings = readings
    }
}

/// Why an utterance could not be read as a flight number: never a guess.
public enum NormalizationFailure: Error, Sendable, Hashable {
    /// Nothing but fillers, or nothing at all.
    case empty
    /// A number was heard but no airline ("forty").
    case noAirline
    /// An airline was heard but no number ("Swiss").
    case noNumber(airline: String)
    /// More than four digits ("L X one two three four five").
    case tooManyDigits(String)
    /// Words that are neither fillers, airlines nor numbers.
    case unrecognizedWords([String])
    /// The airline code is well formed but no airline has it ("Q Q forty" when QQ is unknown).
    case unknownAirline(String)

    /// One sentence for a traveller or operator.
    public var message: String {
        switch self {
        case .empty: "nothing that sounds like a flight number was said"
        case .noAirline: "no airline was said: say the airline letters or name before the number"
        case .noNumber(let airline): "no flight number was said after the airline \(airline)"
        case .tooManyDigits(let digits): "\(digits) has more than four digits: flight numbers have one to four"
        case .unrecognizedWords(let words): "not a flight number: did not understand \(words.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .unknownAirline(let code): "\(code) is not a known airline code"
        }
    }
}

/// Normalizer output: ranked candidates (best first, never empty) or the reason there are none.
public enum NormalizationOutcome: Sendable, Hashable {
    case understood([FlightCandidate])
    case notUnderstood(NormalizationFailure)

    /// The best candidate, if any.
    public var best: FlightCandidate? {
        if case .understood(let candidates) = self { return candidates.first }
        return nil
    }
}
