import FlightStore
import Foundation

/// A failed libpq call: what was attempted, libpq's (or the server's) message, the SQLSTATE, the SQL and the server.
public struct PostgresError: Error, CustomStringConvertible, Sendable, Hashable {
    /// Whether the server could be used at all.
    public enum Kind: Sendable, Hashable {
        /// No usable connection: the server is down or unreachable, refused the login, or the link broke.
        case connection
        /// The server ran the statement and refused it (constraint, syntax, lock, ...).
        case statement
    }

    /// What was being done, e.g. "connect", "execute", "listen", "migrate".
    public let operation: String
    public let kind: Kind
    /// The five-character SQLSTATE the server sent, e.g. "23505" for a unique violation; nil for client-side failures.
    public let sqlState: String?
    /// libpq's own message (`PQerrorMessage` / `PQresultErrorMessage`), trimmed.
    public let message: String
    /// The SQL being run, when the failure belongs to a statement.
    public let sql: String?
    /// The server, as `PostgresURL.redacted` writes it (never with a password).
    public let server: String

    /// Creates an error from its parts; `PostgresConnection` builds these from the live handle.
    public init(operation: String, kind: Kind, sqlState: String? = nil, message: String, sql: String? = nil, server: String) {
        self.operation = operation
        self.kind = kind
        self.sqlState = sqlState
        self.message = message.trimmingCharacters(in: .whitespacesAndNewlines)
        self.sql = sql
        self.server = server
    }

    /// True when the server could not be reached or the connection broke (exit code 76 in the CLI).
    public var isConnectionFailure: Bool { kind == .connection }

    /// libpq's message on one line (its connection messages span several).
    public var singleLineMessage: String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "; ")
    }

    /// One line for logs and the terminal: operation, server, message, SQLSTATE and SQL.
    public var description: String {
        if kind == .connection {
            let sentence = singleLineMessage.last.map { ".?!".contains($0) } == true ? singleLineMessage : singleLineMessage + "."
            return "cannot reach the PostgreSQL database \(server) (\(operation)): \(sentence) Check that the server runs and the URL is right (--database or FLIGHTVOICE_DATABASE)."
        }
        var text = "PostgreSQL \(operation) failed on \(server): \(singleLineMessage)"
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let sql { text += " in: \(sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))" }
        return text
    }
}

extension PostgresError: DatabaseFailure {
    public var databaseMessage: String { singleLineMessage }
    public var isUnreachable: Bool { isConnectionFailure }
}

/// Connection URLs as people and logs see them.
public enum PostgresURL {
    /// True for `postgres://…` and `postgresql://…` URLs, the forms `--database` takes for PostgreSQL.
    public static func isPostgres(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The URL with any password replaced by "***", for messages and `db status`.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
