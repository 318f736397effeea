import FlightCore
import Foundation

/// Every row of a flight database, as stored: what a local SQLite copy of a shared database holds, and how the
/// built-in day reaches a new PostgreSQL database. Backends copy it verbatim, ids included.
public struct ScheduleSnapshot: Sendable, Hashable {
    /// A row of the airlines table; `spokenNames` as stored ("swiss|swiss air").
    public struct AirlineRow: Sendable, Hashable {
        public let iata: String
        public let icao: String?
        public let name: String
        public let callsign: String?
        public let spokenNames: String

        public init(iata: String, icao: String?, name: String, callsign: String?, spokenNames: String) {
            self.iata = iata
            self.icao = icao
            self.name = name
            self.callsign = callsign
            self.spokenNames = spokenNames
        }
    }

    /// A row of the statuses table; `direction` nil when the status fits either.
    public struct StatusRow: Sendable, Hashable {
        public let status: String
        public let direction: String?
        public let description: String

        public init(status: String, direction: String?, description: String) {
            self.status = status
            self.direction = direction
            self.description = description
        }
    }

    /// A row of the codeshares table: a marketing number of movement `flightID`.
    public struct CodeshareRow: Sendable, Hashable {
        public let flightID: Int
        public let airline: String
        public let number: Int

        public init(flightID: Int, airline: String, number: Int) {
            self.flightID = flightID
            self.airline = airline
            self.number = number
        }
    }

    public let airlines: [AirlineRow]
    public let statuses: [StatusRow]
    public let movements: [MovementRow]
    public let codeshares: [CodeshareRow]

    public init(airlines: [AirlineRow], statuses: [StatusRow], movements: [MovementRow], codeshares: [CodeshareRow]) {
        self.airlines = airlines
        self.statuses = statuses
        self.movements = movements
        self.codeshares = codeshares
    }

    /// The SQL that reads each table in the order the initializer's arrays take it; the same text works on
    /// SQLite and PostgreSQL.
    package static let airlineQuery = "SELECT iata, icao, name, callsign, spoken_names FROM airlines ORDER BY iata"
    package static let statusQuery = "SELECT status, direction, description FROM statuses ORDER BY status"
    package static let movementQuery = "SELECT \(MovementRow.columns) FROM flights f ORDER BY f.id"
    package static let codeshareQuery = "SELECT flight_id, airline, number FROM codeshares ORDER BY flight_id, airline, number"
}

/// One row of the flights table, as stored: `service_date` is "daily" or "YYYY-MM-DD", `scheduled` hub-local "HH:MM".
public struct MovementRow: Sendable, Hashable {
    public let id: Int
    public let airline: String
    public let number: Int
    public let direction: String
    public let airport: String
    public let city: String
    public let serviceDate: String
    public let scheduled: String
    /// Minutes from the scheduled to the estimated time; nil when unknown.
    public let estimatedOffset: Int?
    public let terminal: String?
    public let gate: String?
    public let previousGate: String?
    public let belt: String?
    public let status: String

    /// The columns a row is read from, in the order of the initializer, on table alias `f`.
    package static let columns = """
        f.id, f.airline, f.number, f.direction, f.airport, f.city, f.service_date, f.scheduled, f.estimated_offset, \
        f.terminal, f.gate, f.previous_gate, f.belt, f.status
        """

    public init(id: Int, airline: String, number: Int, direction: String, airport: String, city: String, serviceDate: String,
                scheduled: String, estimatedOffset: Int?, terminal: String?, gate: String?, previousGate: String?, belt: String?,
                status: String) {
        self.id = id
        self.airline = airline
        self.number = number
        self.direction = direction
        self.airport = airport
        self.city = city
        self.serviceDate = serviceDate
        self.scheduled = scheduled
        self.estimatedOffset = estimatedOffset
        self.terminal = terminal
        self.gate = gate
        self.previousGate = previousGate
        self.belt = belt
        self.status = status
    }
}
