import FlightStore
import FlightStorePostgres
import FlightStoreSelection
import Foundation

/// The PostgreSQL server tests may use: `FLIGHTVOICE_TEST_DATABASE`, set by `make test`
/// (`scripts/with-test-postgres.sh` starts a throw-away cluster). Each test gets a database of its own on it.
public enum TestPostgres {
    /// The variable naming the server (a URL to any database on it; tests create their own beside it).
    public static let environmentVariable = "FLIGHTVOICE_TEST_DATABASE"

    /// Why PostgreSQL tests are skipped when no server is configured.
    public static let skipReason = "FLIGHTVOICE_TEST_DATABASE is not set, so the PostgreSQL tests are skipped; `make test` starts a throw-away server and sets it"

    /// The configured server URL, or nil.
    public static var serverURL: String? {
        ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// True when a server is configured.
    public static var isConfigured: Bool { serverURL != nil }

    /// Creates an empty database with a unique name on the configured server and returns its URL.
    public static func createDatabase() throws -> String {
        guard let serverURL, var components = URLComponents(string: serverURL) else {
            throw PostgresError(operation: "create test database", kind: .connection, message: "\(environmentVariable) is not set", server: "")
        }
        let name = "flightvoice_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        // A database name is an identifier, which cannot be a parameter; this one is built from hex digits only.
        try PostgresConnection(url: serverURL).execute("CREATE DATABASE \(name) TEMPLATE template0")
        components.path = "/\(name)"
        return components.string!
    }

    /// Drops a database `createDatabase()` made, closing any connection still open on it.
    public static func dropDatabase(url: String) {
        guard let serverURL, let name = testDatabaseName(url) else { return }
        _ = try? PostgresConnection(url: serverURL).execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Makes a database `createDatabase()` made unreachable, as a server outage would: new connections are refused
    /// and every open one is cut. `false` lets connections in again.
    public static func simulateOutage(of url: String, _ outage: Bool) throws {
        guard let serverURL, let name = testDatabaseName(url) else { return }
        let admin = try PostgresConnection(url: serverURL)
        try admin.execute("ALTER DATABASE \(name) ALLOW_CONNECTIONS \(outage ? "false" : "true")")
        if outage {
            try admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", [name])
        }
    }

    /// The name of a database `createDatabase()` made (hex digits after a fixed prefix, safe as an identifier), else nil.
    private static func testDatabaseName(_ url: String) -> String? {
        guard let name = URLComponents(string: url)?.path.dropFirst(), name.hasPrefix("flightvoice_test_"),
              name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return String(name)
    }

    /// Runs one statement on the database at `url` and returns the first column of each row.
    public static func column(_ sql: String, _ parameters: [String?] = [], url: String) throws -> [String?] {
        try PostgresConnection(url: url).execute(sql, parameters).map { $0.values.first ?? nil }
    }
}
