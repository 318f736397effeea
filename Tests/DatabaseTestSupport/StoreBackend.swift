import FlightStore
import FlightStoreSelection
import Foundation

/// The backends the shared store tests run against: SQLite always, PostgreSQL when `TestPostgres` has a server.
public enum StoreBackend: String, Sendable, CaseIterable, CustomStringConvertible {
    case sqlite
    case postgres

    /// The backends available here; PostgreSQL only with `FLIGHTVOICE_TEST_DATABASE` set.
    public static var configured: [StoreBackend] { TestPostgres.isConfigured ? [.sqlite, .postgres] : [.sqlite] }

    public var description: String { rawValue }
}

/// The databases one test uses: a temporary folder for SQLite files, fresh PostgreSQL databases, all removed at the end.
/// Keep it in a stored property of the suite, so it lives exactly as long as the test.
public final class StoreFixture: @unchecked Sendable {
    /// The folder for SQLite files and other temporary files.
    public let folder: URL
    private let lock = NSLock()
    private var createdDatabases: [String] = []

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
        for url in createdDatabases { TestPostgres.dropDatabase(url: url) }
    }

    /// A path inside the folder (nothing is created).
    public func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A new, not yet created database of `backend`: a file path in the folder, or a fresh PostgreSQL database.
    public func newLocation(_ backend: StoreBackend) throws -> FlightDatabaseLocation {
        switch backend {
        case .sqlite:
            return .sqlite(path: path("flights-\(UUID().uuidString).sqlite"))
        case .postgres:
            let url = try TestPostgres.createDatabase()
            lock.withLock { createdDatabases.append(url) }
            return .postgres(url: url)
        }
    }

    /// The URL of a fresh, empty PostgreSQL database, dropped with the fixture.
    public func newPostgresDatabase() throws -> String {
        guard case .postgres(let url) = try newLocation(.postgres) else { preconditionFailure("a PostgreSQL location was asked for") }
        return url
    }

    /// A new database of `backend` holding the built-in day.
    public func seededStore(_ backend: StoreBackend) throws -> (store: any FlightDatabase, location: FlightDatabaseLocation) {
        let location = try newLocation(backend)
        return (try location.open(), location)
    }

    /// A new database of `backend` with the seed's airlines and statuses but no flights, so a test controls which exist.
    public func emptyStore(_ backend: StoreBackend) throws -> any FlightDatabase {
        let store = try seededStore(backend).store
        let seed = try store.snapshot()
        try store.replaceSchedule(with: ScheduleSnapshot(airlines: seed.airlines, statuses: seed.statuses, movements: [], codeshares: []))
        return store
    }

    /// The first column of the first row of `sql` (valid on both backends), read directly from the database.
    public func text(_ sql: String, in location: FlightDatabaseLocation) throws -> String? {
        switch location {
        case .sqlite(let path):
            return try SQLiteConnection(path: path, mode: .readWrite).text(sql)
        case .postgres(let url):
            return try TestPostgres.column(sql, url: url).first ?? nil
        }
    }
}
