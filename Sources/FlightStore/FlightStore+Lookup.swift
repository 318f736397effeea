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

extension SQLiteConnection: ScheduleDatabase {
    /// SQLite's numbered parameters: `?1`, `?2`, …
    package static func marker(_ index: Int) -> String { "?\(index)" }

    package var databaseName: String { path }

    package func rows<Row>(_ sql: String, _ values: [SQLiteValue], read: (any ScheduleRow) throws -> Row) throws -> [Row] {
        try query(sql, values) { try read($0) }
    }
}

extension SQLiteStatement: ScheduleRow {
    package func text(column index: Int) -> String { text(at: Int32(index)) }
    package func optionalText(column index: Int) -> String? { optionalText(at: Int32(index)) }
    package func integer(column index: Int) -> Int { integer(at: Int32(index)) }
    package func optionalInteger(column index: Int) -> Int? { optionalInteger(at: Int32(index)) }
}
