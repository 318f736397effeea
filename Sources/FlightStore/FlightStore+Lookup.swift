import FlightCore
import Foundation

extension FlightStore {
    /// The movement sold under `number` (operating or codeshare) whose scheduled instant is nearest to `now`;
    /// the rules are `ScheduleLookup`'s, shared with every backend.
    public func flight(_ number: FlightNumber, near now: Date) throws -> FlightLookup? {
        try withConnection { database in try ScheduleLookup.flight(number, near: now, in: database) }
    }

    /// Up to `limit` other flights a traveller may have meant (see `ScheduleLookup.suggestions`).
    public func suggestions(for number: FlightNumber, near now: Date, limit: Int) throws -> [FlightLookup] {
        try withConnection { database in try ScheduleLookup.suggestions(for: number, near: now, limit: limit, in: database) }
    }

    /// Every operating and codeshare number with a movement from yesterday to tomorrow (daily rows always), sorted.
    public func flightNumbers(near now: Date) throws -> [FlightNumber] {
        try withConnection { database in try ScheduleLookup.numbers(near: now, in: database) }
    }

    /// The airlines table as a directory; spoken names are split on "|" with empty pieces dropped.
    public func airlineDirectory() throws -> AirlineDirectory {
        try withConnection { database in AirlineDirectory(try database.airlines()) }
    }
}

extension SQLiteConnection: ScheduleReading {
    /// SQLite's numbered parameters: `?1`, `?2`, …
    package static func marker(_ index: Int) -> String { "?\(index)" }

    package var databaseName: String { path }

    package func movements(soldAs number: FlightNumber, firstDay: String, lastDay: String) throws -> [(row: MovementRow, viaCodeshare: Bool)] {
        try query(ScheduleSQL.movements(marker: Self.marker),
                  [.text(number.airline), .integer(Int64(number.number)), .text(firstDay), .text(lastDay)]) { statement in
            (row: MovementRow(statement), viaCodeshare: statement.integer(at: 14) == 1)
        }
    }

    package func soldNumbers(firstDay: String, lastDay: String) throws -> [FlightNumber] {
        try query(ScheduleSQL.soldNumbers(marker: Self.marker), [.text(firstDay), .text(lastDay)]) {
            FlightNumber(airline: $0.text(at: 0), number: $0.integer(at: 1))
        }.compactMap { $0 }
    }

    package func airline(iata: String) throws -> Airline? {
        try query(ScheduleSQL.airline(marker: Self.marker), [.text(iata)], read: Self.airline(from:)).first
    }

    package func codeshares(ofMovement id: Int) throws -> [FlightNumber] {
        try query(ScheduleSQL.codeshares(marker: Self.marker), [.integer(Int64(id))]) {
            FlightNumber(airline: $0.text(at: 0), number: $0.integer(at: 1))
        }.compactMap { $0 }
    }

    package func airlines() throws -> [Airline] {
        try query(ScheduleSnapshot.airlineQuery, read: Self.airline(from:))
    }

    /// An airline from a row of `iata, icao, name, callsign, spoken_names`.
    static func airline(from statement: SQLiteStatement) -> Airline {
        ScheduleLookup.airline(iata: statement.text(at: 0), icao: statement.optionalText(at: 1), name: statement.text(at: 2),
                               callsign: statement.optionalText(at: 3), spokenNames: statement.text(at: 4))
    }
}

extension MovementRow {
    /// Reads the columns in `MovementRow.columns` order.
    init(_ statement: SQLiteStatement) {
        self.init(id: statement.integer(at: 0), airline: statement.text(at: 1), number: statement.integer(at: 2),
                  direction: statement.text(at: 3), airport: statement.text(at: 4), city: statement.text(at: 5),
                  serviceDate: statement.text(at: 6), scheduled: statement.text(at: 7), estimatedOffset: statement.optionalInteger(at: 8),
                  terminal: statement.optionalText(at: 9), gate: statement.optionalText(at: 10), previousGate: statement.optionalText(at: 11),
                  belt: statement.optionalText(at: 12), status: statement.text(at: 13))
    }
}
