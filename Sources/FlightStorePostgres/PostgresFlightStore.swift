import FlightCore
import FlightStore
import Foundation

/// Today's flights in a PostgreSQL database shared by a fleet of kiosks and servers: the second `FlightDatabase`,
/// answering with the same rules as the SQLite `FlightStore` (`ScheduleLookup`, `CSVImportPlan`).
///
/// Opening it applies the schema migrations (once per database, under an advisory lock). Every write runs in one
/// transaction that also bumps the schedule revision and `NOTIFY`s `flightvoice_schedule`, so every process hears it.
///
/// Thread safety: `Sendable`. The one connection is confined (`ConfinedPostgresConnection`), so calls from any task
/// run one at a time; when the link breaks, the next call reconnects, no more often than `backoff` allows.
public final class PostgresFlightStore: FlightDatabase {
    /// The URL as messages show it (no password).
    public var server: String { connection.server }
    /// The connection URL, to open the separate listening connection of `scheduleChanges()`.
    private let url: String
    private let backoff: ReconnectBackoff
    private let connection: ConfinedPostgresConnection

    /// Connects to `url` and brings the schema up to date (seeding the built-in day into a new database).
    /// Throws a `.connection` `PostgresError` when the server cannot be reached.
    public init(url: String, backoff: ReconnectBackoff = .standard) throws {
        self.url = url
        self.backoff = backoff
        connection = try ConfinedPostgresConnection(url: url, backoff: backoff)
    }

    /// Runs `body` with a healthy connection, one caller at a time (see `ConfinedPostgresConnection`).
    func withConnection<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try connection.withConnection(body)
    }

    /// Runs `body` in one transaction that also bumps the revision and announces it on `flightvoice_schedule`.
    func writeTransaction<Result: Sendable>(_ body: (PostgresConnection) throws -> Result) throws -> Result {
        try withConnection { connection in
            try connection.transaction {
                let result = try body(connection)
                let revision = try connection.integer("UPDATE schedule_revision SET revision = revision + 1 RETURNING revision") ?? 0
                try connection.execute("SELECT pg_notify($1, $2)", [PostgresSchema.changeChannel, String(revision)])
                return result
            }
        }
    }

    // MARK: - FlightsDataSource

    public func flight(_ number: FlightNumber, near now: Date) throws -> FlightLookup? {
        try withConnection { connection in try ScheduleLookup.flight(number, near: now, in: connection) }
    }

    public func suggestions(for number: FlightNumber, near now: Date, limit: Int) throws -> [FlightLookup] {
        try withConnection { connection in try ScheduleLookup.suggestions(for: number, near: now, limit: limit, in: connection) }
    }

    public func flightNumbers(near now: Date) throws -> [FlightNumber] {
        try withConnection { connection in try ScheduleLookup.numbers(near: now, in: connection) }
    }

    public func airlineDirectory() throws -> AirlineDirectory {
        try withConnection { connection in AirlineDirectory(try connection.airlines()) }
    }

    // MARK: - Revision and changes

    /// The counter every write transaction bumps: equal values mean the same flights.
    public func scheduleRevision() throws -> Int64 {
        try withConnection { connection in Int64(try connection.integer("SELECT revision FROM schedule_revision") ?? 0) }
    }

    /// Changes announced by any process, heard on a connection of its own (`LISTEN flightvoice_schedule`); after a
    /// reconnection, the current revision (changes made meanwhile were not heard).
    public func scheduleChanges() -> AsyncStream<ScheduleChange> {
        PostgresListener.stream(
            url: url, channel: PostgresSchema.changeChannel, backoff: backoff,
            resync: { connection throws(PostgresError) in .revised(revision: Int64(try connection.integer("SELECT revision FROM schedule_revision") ?? 0)) },
            notification: { payload in .revised(revision: Int64(payload) ?? 0) },
            unreachable: { error in .unreachable(message: error.singleLineMessage) })
    }

    // MARK: - Writing

    public func importCSV(text: String, now: Date) throws -> CSVImportSummary {
        let plan = try CSVImportPlan(text: text)
        return try writeTransaction { connection in try plan.apply(to: connection, now: now) }
    }

    public func reset() throws {
        try replaceSchedule(with: try FlightStore.builtInDay())
    }

    public func replaceSchedule(with snapshot: ScheduleSnapshot) throws {
        try writeTransaction { connection in
            for table in ScheduleSnapshot.tablesInDeletionOrder { try connection.execute("DELETE FROM \(table)") }
            try PostgresSchema.insert(snapshot, into: connection)
        }
    }

    public func snapshot() throws -> ScheduleSnapshot {
        try withConnection { connection in
            // One consistent view across the four reads.
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? connection.execute("COMMIT") }
            return ScheduleSnapshot(
                airlines: try connection.query(ScheduleSnapshot.airlineQuery) {
                    .init(iata: $0.text(at: 0), icao: $0.optionalText(at: 1), name: $0.text(at: 2), callsign: $0.optionalText(at: 3), spokenNames: $0.text(at: 4))
                },
                statuses: try connection.query(ScheduleSnapshot.statusQuery) {
                    .init(status: $0.text(at: 0), direction: $0.optionalText(at: 1), description: $0.text(at: 2))
                },
                movements: try connection.query(ScheduleSnapshot.movementQuery, read: MovementRow.init),
                codeshares: try connection.query(ScheduleSnapshot.codeshareQuery) {
                    .init(flightID: $0.integer(at: 0), airline: $0.text(at: 1), number: $0.integer(at: 2))
                }
            )
        }
    }

    public func status() throws -> FlightStoreStatus {
        try withConnection { connection in
            let totals = try connection.execute("""
                SELECT count(*), count(*) FILTER (WHERE direction = 'departure'), count(*) FILTER (WHERE direction = 'arrival') FROM flights
                """)[0]
            let byStatus = try connection.query(
                "SELECT s.status, count(f.id) FROM statuses s LEFT JOIN flights f ON f.status = s.status GROUP BY s.status"
            ) { ($0.text(at: 0), $0.integer(at: 1)) }
            return FlightStoreStatus(
                path: server,
                schemaVersion: try PostgresSchema.currentVersion(connection),
                journalMode: "postgresql",
                flights: totals.integer(at: 0),
                departures: totals.integer(at: 1),
                arrivals: totals.integer(at: 2),
                airlines: try connection.integer("SELECT count(*) FROM airlines") ?? 0,
                codeshares: try connection.integer("SELECT count(*) FROM codeshares") ?? 0,
                flightsByStatus: Dictionary(byStatus, uniquingKeysWith: +)
            )
        }
    }
}

extension PostgresConnection: ScheduleReading, ScheduleWriting {
    /// PostgreSQL's numbered parameters: `$1`, `$2`, …
    package static func marker(_ index: Int) -> String { "$\(index)" }

    package var databaseName: String { server }

    package func movements(soldAs number: FlightNumber, firstDay: String, lastDay: String) throws -> [(row: MovementRow, viaCodeshare: Bool)] {
        try query(ScheduleSQL.movements(marker: Self.marker), [number.airline, String(number.number), firstDay, lastDay]) { row in
            (row: MovementRow(row), viaCodeshare: row.integer(at: 14) == 1)
        }
    }

    package func soldNumbers(firstDay: String, lastDay: String) throws -> [FlightNumber] {
        try query(ScheduleSQL.soldNumbers(marker: Self.marker), [firstDay, lastDay]) {
            FlightNumber(airline: $0.text(at: 0), number: $0.integer(at: 1))
        }.compactMap { $0 }
    }

    package func airline(iata: String) throws -> Airline? {
        try query(ScheduleSQL.airline(marker: Self.marker), [iata], read: Self.airline(from:)).first
    }

    package func codeshares(ofMovement id: Int) throws -> [FlightNumber] {
        try query(ScheduleSQL.codeshares(marker: Self.marker), [String(id)]) {
            FlightNumber(airline: $0.text(at: 0), number: $0.integer(at: 1))
        }.compactMap { $0 }
    }

    package func airlines() throws -> [Airline] {
        try query(ScheduleSnapshot.airlineQuery, read: Self.airline(from:))
    }

    package func writeStatement(_ sql: String, _ values: [SQLiteValue]) throws -> [[String?]] {
        try execute(sql, values.map(\.postgresText)).map(\.values)
    }

    /// An airline from a row of `iata, icao, name, callsign, spoken_names`.
    static func airline(from row: PostgresRow) -> Airline {
        ScheduleLookup.airline(iata: row.text(at: 0), icao: row.optionalText(at: 1), name: row.text(at: 2),
                               callsign: row.optionalText(at: 3), spokenNames: row.text(at: 4))
    }
}

extension MovementRow {
    /// Reads the columns in `MovementRow.columns` order.
    init(_ row: PostgresRow) {
        self.init(id: row.integer(at: 0), airline: row.text(at: 1), number: row.integer(at: 2), direction: row.text(at: 3),
                  airport: row.text(at: 4), city: row.text(at: 5), serviceDate: row.text(at: 6), scheduled: row.text(at: 7),
                  estimatedOffset: row.optionalInteger(at: 8), terminal: row.optionalText(at: 9), gate: row.optionalText(at: 10),
                  previousGate: row.optionalText(at: 11), belt: row.optionalText(at: 12), status: row.text(at: 13))
    }
}

extension SQLiteValue {
    /// The value as libpq's text format sends it; nil is SQL NULL.
    var postgresText: String? {
        switch self {
        case .null: nil
        case .integer(let integer): String(integer)
        case .text(let text): text
        }
    }
}
