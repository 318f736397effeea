import FlightCore
import Foundation

/// The words of the kiosk's screens: a found flight's card fields, the confirmation question, the idle prompt.
/// Layout (boxes, big letters, countdown) belongs to the kiosk; the wording lives here with the other renderers.
public enum KioskText {
    /// The fields of a flight's card.
    public struct Card: Sendable, Hashable {
        /// "LX 40".
        public let flight: String
        /// "Swiss".
        public let airline: String
        /// "to New York (JFK)" or "from London (LHR)".
        public let route: String
        /// "departs 13:05 (on time)", "arrives 09:40 (expected 09:52)".
        public let time: String
        /// "Boarding", "Cancelled".
        public let status: String
        /// "GATE" for departures, "BELT" for arrivals.
        public let placeLabel: String
        /// The gate or belt, nil when not yet assigned.
        public let place: String?
        /// "Gate changed: was E12, now E34", when it changed.
        public let change: String?
        /// "Terminal E", when known.
        public let terminal: String?
        /// "Sold as LX 3287, operated by British Airways as BA 287", for a codeshare.
        public let codeshare: String?
    }

    /// The card of a found flight.
    public static func card(_ lookup: FlightLookup, options: PresentationOptions) -> Card {
        let flight = lookup.flight
        let plain = TerminalStyle(enabled: false)
        let departure = flight.direction == .departure
        var change: String?
        if departure, flight.gateChanged, let previous = flight.previousGate, let gate = flight.gate {
            change = "Gate changed: was \(previous), now \(gate)"
        }
        return Card(
            flight: flight.number.display, airline: flight.airline.name,
            route: "\(departure ? "to" : "from") \(flight.airport.city) (\(flight.airport.iata))",
            time: FlightCard.timing(flight, options: options, style: plain),
            status: flight.status.displayText,
            placeLabel: departure ? "GATE" : "BELT", place: departure ? flight.gate : flight.belt,
            change: change, terminal: flight.terminal.map { "Terminal \($0)" },
            codeshare: lookup.isCodeshare ? FlightCard.codeshareLine(lookup) : nil)
    }

    /// "Did you mean LX 40 to New York? Say yes or no, or press Y or N." (the first suggestion; nil without one).
    public static func confirmation(_ suggestions: [FlightLookup]) -> String? {
        guard let first = suggestions.first else { return nil }
        return "Did you mean \(first.requested.display) \(first.flight.direction == .departure ? "to" : "from") \(first.flight.airport.city)? Say yes or no, or press Y or N."
    }

    /// The confirmation question to speak: "Did you mean L X 40 to New York? Please say yes or no."
    public static func spokenConfirmation(_ suggestions: [FlightLookup]) -> String? {
        guard let first = suggestions.first else { return nil }
        return "Did you mean \(SpokenAnswer.spelled(first.requested)) \(first.flight.direction == .departure ? "to" : "from") \(first.flight.airport.city)? Please say yes or no."
    }

    /// "No flight LX 41 today." and the suggestions, as `AnswerText` words them.
    public static func notFound(_ answer: QueryAnswer, options: PresentationOptions) -> [String] {
        AnswerText.notFound(answer, options: options).components(separatedBy: "\n")
    }

    /// "Say your flight number, like 'L X forty' or 'Swiss forty'".
    public static func prompt(_ options: PresentationOptions) -> String {
        let phrases = options.example.phrases.prefix(2).map { "'\($0)'" }
        return "Say your flight number, like \(AnswerText.listed(phrases, conjunction: "or"))"
    }

    /// The hub's clock time of `date`, "12:04".
    public static func clock(_ date: Date) -> String { HubTime.clock(date) }
}
