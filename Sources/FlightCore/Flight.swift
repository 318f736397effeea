import Foundation

/// Whether a movement leaves or reaches the hub.
public enum FlightDirection: String, Sendable, Codable, CaseIterable {
    case departure
    case arrival
}

/// The status vocabulary of the departure and arrival displays (see docs/commands.md, "Flight statuses").
public enum FlightStatus: String, Sendable, Codable, CaseIterable {
    case scheduled
    case onTime = "on time"
    case checkInOpen = "check-in open"
    case boarding
    case finalCall = "final call"
    case gateClosed = "gate closed"
    case departed
    case delayed
    case cancelled
    case diverted
    case expected
    case landed
    case arrived

    /// The words a display shows, e.g. "Check-in open".
    public var displayText: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// The far end of a movement: where a departure goes or an arrival comes from.
public struct Airport: Hashable, Sendable, Codable {
    /// IATA airport code, e.g. "JFK".
    public let iata: String
    /// City as displays show it, e.g. "New York".
    public let city: String

    public init(iata: String, city: String) {
        self.iata = iata
        self.city = city
    }
}

/// One movement on one day at the hub: the record a lookup answers with.
public struct Flight: Hashable, Sendable, Codable {
    /// The operating flight number.
    public let number: FlightNumber
    /// The operating airline.
    public let airline: Airline
    public let direction: FlightDirection
    /// Destination of a departure, origin of an arrival.
    public let airport: Airport
    /// Scheduled time (an instant; shown in the hub's time zone).
    public let scheduled: Date
    /// Estimated or actual time, when known.
    public let estimated: Date?
    public let terminal: String?
    /// Departure gate; nil for arrivals and when not yet assigned.
    public let gate: String?
    /// The gate announced before a gate change, when the gate changed.
    public let previousGate: String?
    /// Baggage reclaim belt for arrivals.
    public let belt: String?
    public let status: FlightStatus
    /// Marketing numbers under which other airlines sell this flight.
    public let codeshares: [FlightNumber]

    public init(
        number: FlightNumber, airline: Airline, direction: FlightDirection, airport: Airport,
        scheduled: Date, estimated: Date?, terminal: String?, gate: String?, previousGate: String?,
        belt: String?, status: FlightStatus, codeshares: [FlightNumber]
    ) {
        self.number = number
        self.airline = airline
        self.direction = direction
        self.airport = airport
        self.scheduled = scheduled
        self.estimated = estimated
        self.terminal = terminal
        self.gate = gate
        self.previousGate = previousGate
        self.belt = belt
        self.status = status
        self.codeshares = codeshares
    }

    /// True when the gate shown differs from the one first announced.
    public var gateChanged: Bool { previousGate != nil && previousGate != gate }
}

/// The answer to "where is flight X": the movement found, and the number that was asked for (maybe a codeshare).
public struct FlightLookup: Hashable, Sendable, Codable {
    public let requested: FlightNumber
    public let flight: Flight

    public init(requested: FlightNumber, flight: Flight) {
        self.requested = requested
        self.flight = flight
    }

    /// True when the traveller asked for a marketing (codeshare) number of the operating flight.
    public var isCodeshare: Bool { requested != flight.number }
}
