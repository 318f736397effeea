import FlightCore
import FlightStore
import FlightStorePostgres
import Foundation

/// Which flight database a program uses: a SQLite file (the default, one machine) or a PostgreSQL server (a fleet).
/// Front ends resolve one from their options and environment and open it, without knowing either backend.
public enum FlightDatabaseLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// The environment variable naming a database URL (or SQLite path) for every command.
    public static let environmentVariable = "FLIGHTVOICE_DATABASE"

    /// The database named by `database` (`--database URL|PATH`), else `path` (`--db PATH`), else `FLIGHTVOICE_DATABASE`,
    /// else SQLite's default (`FLIGHTVOICE_DB`, the XDG data folder). A `postgres://` or `postgresql://` URL is
    /// PostgreSQL; anything else a SQLite file.
    public static func resolve(database: String?, path: String?, environment: [String: String]) -> FlightDatabaseLocation {
        if let database, !database.isEmpty { return named(database) }
        if let path, !path.isEmpty { return .sqlite(path: path) }
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty { return named(fromEnvironment) }
        return .sqlite(path: FlightStore.defaultPath(environment: environment))
    }

    private static func named(_ text: String) -> FlightDatabaseLocation {
        PostgresURL.isPostgres(text) ? .postgres(url: text) : .sqlite(path: text)
    }

    /// The file path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): PostgresURL.redacted(url)
        }
    }

    /// Opens the database (creating a SQLite file, or migrating a PostgreSQL database, as needed).
    /// A PostgreSQL server that cannot be reached throws a `PostgresError` whose `isConnectionFailure` is true.
    public func open() throws -> any FlightDatabase {
        switch self {
        case .sqlite(let path): try FlightStore(path: path)
        case .postgres(let url): try PostgresFlightStore(url: url)
        }
    }

    /// A data source for long-running front ends (kiosks, servers): a PostgreSQL database backed by a local SQLite
    /// copy at `snapshotPath` that answers while the server is away (`SnapshottingFlightsDataSource`); a SQLite file
    /// as it is. Both report their freshness and announce changes.
    public func openLive(snapshotPath: String, backoff: ReconnectBackoff = .standard) throws -> any LiveFlightsDataSource {
        switch self {
        case .sqlite(let path):
            return try FlightStore(path: path)
        case .postgres(let url):
            return try SnapshottingFlightsDataSource(
                snapshotPath: snapshotPath, backoff: backoff,
                changes: { PostgresFlightStore.scheduleChanges(url: url, backoff: backoff) },
                openDatabase: { try PostgresFlightStore(url: url, backoff: backoff) })
        }
    }
}
