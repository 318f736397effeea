import CSQLite
import FlightCore
import Foundation
import Synchronization

/// Today's flights at the hub in a SQLite database: the `FlightsDataSource` of the CLI, kiosk and server.
///
/// Thread safety: `Sendable`. The one connection lives behind a `Mutex`, so calls from any task run one at a time;
/// other processes may use the same file (WAL mode, busy timeout).
public final class FlightStore: FlightDatabase, LiveFlightsDataSource {
    /// The schema version this code reads and writes (`PRAGMA user_version`).
    public static let schemaVersion = 1
    /// How long a statement waits for another process's write lock before failing, in milliseconds.
    public static let busyTimeoutMilliseconds: Int32 = 5_000
    /// The path of the database file, or ":memory:" for `inMemory()`.
    public let path: String
    private let connection: Mutex<SQLiteConnection>

    /// The tables and columns a FlightVoice database must have; extra tables or columns are tolerated.
    static let requiredColumns: [(table: String, columns: [String])] = [
        ("airlines", ["iata", "icao", "name", "callsign", "spoken_names"]),
        ("statuses", ["status", "direction", "description"]),
        ("flights", ["id", "airline", "number", "direction", "airport", "city", "service_date", "scheduled",
                     "estimated_offset", "terminal", "gate", "previous_gate", "belt", "status"]),
        ("codeshares", ["flight_id", "airline", "number"]),
    ]

    /// Opens the database at `path`, or creates it (with its parent directories) from the embedded seed when the file
    /// does not exist. Throws `FlightStoreError.notAFlightVoiceDatabase` for a file that is not SQLite, is corrupt,
    /// or lacks the FlightVoice schema; `SQLiteError` for other SQLite failures (permissions, locks).
    public init(path: String) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            try Self.createSeededFile(at: path)
        }
        let database = try SQLiteConnection(path: path, mode: .readWrite)
        try database.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds)
        do {
            try Self.validateSchema(of: database)
        } catch let error as SQLiteError where error.code == SQLITE_NOTADB || error.code == SQLITE_CORRUPT {
            throw FlightStoreError.notAFlightVoiceDatabase(path: path, reason: "\(error.message) (SQLite code \(error.code))")
        }
        // Only after the file proved to be ours: these change it.
        try database.execute("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA foreign_keys = ON")
        connection = Mutex(database)
    }

    private init(path: String, seededConnection database: sending SQLiteConnection) {
        self.path = path
        connection = Mutex(database)
    }

    /// A private in-memory database built from the embedded seed: for tests, tools and the normalizer's airlines.
    public static func inMemory() throws -> FlightStore {
        let path = ":memory:"
        let database = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try database.execute("PRAGMA foreign_keys = ON")
        try seed(database)
        return FlightStore(path: path, seededConnection: database)
    }

    /// Where the database lives unless `--db` says otherwise: `FLIGHTVOICE_DB`, else
    /// `$XDG_DATA_HOME/flightvoice/flights.sqlite`, else `$HOME/.local/share/flightvoice/flights.sqlite`.
    /// Empty variables count as unset, and a relative `XDG_DATA_HOME` is ignored (XDG Base Directory rules).
    public static func defaultPath(environment: [String: String]) -> String {
        if let explicit = environment["FLIGHTVOICE_DB"], !explicit.isEmpty { return explicit }
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            dataHome = (home as NSString).appendingPathComponent(".local/share")
        }
        return (dataHome as NSString).appendingPathComponent("flightvoice/flights.sqlite")
    }

    /// Replaces everything in the database with the embedded seed, in one transaction.
    public func reset() throws {
        try connection.withLock { database in
            // Foreign keys cannot be switched inside a transaction; off while tables are dropped in any order.
            try database.execute("PRAGMA foreign_keys = OFF")
            defer { try? database.execute("PRAGMA foreign_keys = ON") }
            try database.transaction {
                let objects = try database.query(
                    "SELECT type, name FROM sqlite_master WHERE type IN ('view', 'trigger', 'table') AND name NOT LIKE 'sqlite_%'"
                ) { (type: $0.text(at: 0), name: $0.text(at: 1)) }
                for object in objects.sorted(by: { $0.type == "table" ? false : $1.type == "table" }) {
                    try database.execute("DROP \(object.type.uppercased()) IF EXISTS \"\(object.name.replacingOccurrences(of: "\"", with: "\"\""))\"")
                }
                try database.executeScriptInsideTransaction(embeddedSeedSQL)
                try Self.validateSchema(of: database)
            }
        }
    }

    /// Counts of what the database holds, with its path and schema version.
    public func status() throws -> FlightStoreStatus {
        try connection.withLock { database in
            let totals = try database.query(
                "SELECT count(*), total(direction = 'departure'), total(direction = 'arrival') FROM flights"
            ) { (flights: $0.integer(at: 0), departures: $0.integer(at: 1), arrivals: $0.integer(at: 2)) }[0]
            let byStatus = try database.query(
                "SELECT s.status, count(f.id) FROM statuses s LEFT JOIN flights f ON f.status = s.status GROUP BY s.status"
            ) { ($0.text(at: 0), $0.integer(at: 1)) }
            return FlightStoreStatus(
                path: path,
                schemaVersion: try database.integer("PRAGMA user_version") ?? 0,
                journalMode: try database.text("PRAGMA journal_mode") ?? "",
                flights: totals.flights,
                departures: totals.departures,
                arrivals: totals.arrivals,
                airlines: try database.integer("SELECT count(*) FROM airlines") ?? 0,
                codeshares: try database.integer("SELECT count(*) FROM codeshares") ?? 0,
                flightsByStatus: Dictionary(byStatus, uniquingKeysWith: +)
            )
        }
    }

    /// A file on this machine is always current.
    public var freshness: ScheduleFreshness { .live }

    /// Runs `body` with the connection, one caller at a time.
    func withConnection<Result: Sendable>(_ body: (SQLiteConnection) throws -> Result) throws -> Result {
        try connection.withLock { database in try body(database) }
    }

    // MARK: - Creating and checking files

    /// Builds a seeded database beside `path` and moves it into place, so a file at `path` is always complete.
    /// If another process created `path` meanwhile, its file is kept.
    private static func createSeededFile(at path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw FlightStoreError.cannotCreateDatabase(path: path, reason: "cannot create the directory \(directory): \(error.localizedDescription)")
            }
        }
        let temporaryPath = "\(path).creating-\(UUID().uuidString)"
        defer { for suffix in ["", "-journal", "-wal", "-shm"] { unlink(temporaryPath + suffix) } }
        do {
            let database = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate)
            try database.execute("PRAGMA foreign_keys = ON")
            try seed(database)
        } catch let error as SQLiteError {
            throw FlightStoreError.cannotCreateDatabase(path: path, reason: error.description)
        }
        // link(2) fails with EEXIST instead of replacing a file another process created in the meantime.
        if link(temporaryPath, path) != 0, errno != EEXIST, rename(temporaryPath, path) != 0 {
            throw FlightStoreError.cannotCreateDatabase(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Runs a seed script (the embedded one unless a test says otherwise) on an empty database in one
    /// transaction and checks the result.
    static func seed(_ database: SQLiteConnection, script: String = embeddedSeedSQL) throws {
        try database.transaction {
            try database.executeScriptInsideTransaction(script)
            try validateSchema(of: database)
        }
    }

    /// Throws `FlightStoreError.notAFlightVoiceDatabase` unless the schema version and required tables are present.
    /// Reading a file that is not SQLite throws `SQLiteError` with `SQLITE_NOTADB`.
    static func validateSchema(of database: SQLiteConnection) throws {
        let version = try database.integer("PRAGMA user_version") ?? 0
        let tableCount = try database.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        guard version == schemaVersion else {
            let reason = tableCount == 0 && version == 0
                ? "it is an empty SQLite database"
                : "its schema version (PRAGMA user_version) is \(version), expected \(schemaVersion)"
            throw FlightStoreError.notAFlightVoiceDatabase(path: database.path, reason: reason)
        }
        for (table, columns) in requiredColumns {
            let present = Set(try database.query("SELECT name FROM pragma_table_info(?1)", [.text(table)]) { $0.text(at: 0) })
            guard !present.isEmpty else {
                throw FlightStoreError.notAFlightVoiceDatabase(path: database.path, reason: "it has no \(table) table")
            }
            let missing = columns.filter { !present.contains($0) }
            guard missing.isEmpty else {
                throw FlightStoreError.notAFlightVoiceDatabase(
                    path: database.path, reason: "its \(table) table lacks the columns \(missing.joined(separator: ", "))")
            }
        }
    }
}

/// What a flight database holds: counts for `flightvoice db status`.
public struct FlightStoreStatus: Sendable, Hashable, Codable {
    /// The database file, or ":memory:".
    public let path: String
    /// `PRAGMA user_version`; `FlightStore.schemaVersion` for a healthy database.
    public let schemaVersion: Int
    /// `PRAGMA journal_mode`: "wal" for files, "memory" for in-memory databases.
    public let journalMode: String
    /// All movement rows, daily and dated.
    public let flights: Int
    /// Movement rows leaving the hub.
    public let departures: Int
    /// Movement rows reaching the hub.
    public let arrivals: Int
    /// Rows in the airlines table.
    public let airlines: Int
    /// Marketing numbers attached to movements.
    public let codeshares: Int
    /// Movement rows per status text as displays show it (`FlightStatus.rawValue`); every known status, zeros included.
    public let flightsByStatus: [String: Int]

    /// Creates a status report; `FlightStore.status()` is the usual source.
    public init(path: String, schemaVersion: Int, journalMode: String, flights: Int, departures: Int, arrivals: Int,
                airlines: Int, codeshares: Int, flightsByStatus: [String: Int]) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.journalMode = journalMode
        self.flights = flights
        self.departures = departures
        self.arrivals = arrivals
        self.airlines = airlines
        self.codeshares = codeshares
        self.flightsByStatus = flightsByStatus
    }
}
