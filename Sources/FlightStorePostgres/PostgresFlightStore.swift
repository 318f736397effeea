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

    /// Changes announced by any process, heard on a connection of its own (see the static `scheduleChanges`).
    public func scheduleChanges() -> AsyncStream<ScheduleChange> {
        Self.scheduleChanges(url: url, backoff: backoff)
    }

    /// Changes announced on the database at `url` (`LISTEN flightvoice_schedule`), reconnecting with `backoff` while
    /// it is unreachable; after a reconnection, the current revision (changes made meanwhile were not heard).
    public static func scheduleChanges(url: String, backoff: ReconnectBackoff = .standard) -> AsyncStream<ScheduleChange> {
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
            try connection.replaceRows(with: snapshot)
            try PostgresSchema.moveIDSequencePastRows(connection)
        }
    }

    public func snapshot() throws -> ScheduleSnapshot {
        try withConnection { connection in
            // One consistent view across the four reads.
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            defer { _ = try? connection.execute("COMMIT") }
            return try connection.snapshot()
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

extension PostgresConnection: ScheduleDatabase {
    /// PostgreSQL's numbered parameters: `$1`, `$2`, …
    package static func marker(_ index: Int) -> String { "$\(index)" }

    package var databaseName: String { server }

    package func rows<Row>(_ sql: String, _ values: [SQLiteValue], read: (any ScheduleRow) throws -> Row) throws -> [Row] {
        try executePrepared(sql, values.map(\.postgresText)).map(read)
    }
}

extension PostgresRow: ScheduleRow {
    package func text(column index: Int) -> String { text(at: index) }
    package func optionalText(column index: Int) -> String? { optionalText(at: index) }
    package func integer(column index: Int) -> Int { integer(at: index) }
    package func optionalInteger(column index: Int) -> Int? { optionalInteger(at: index) }
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
