import CPostgres
import Foundation

/// One row of a result, as text (libpq's text format): column values by position, nil for SQL NULL.
package struct PostgresRow: Sendable {
    package let values: [String?]

    /// Column `index` as text; NULL reads as "".
    package func text(at index: Int) -> String { values[index] ?? "" }
    /// Column `index` as text, nil for NULL.
    package func optionalText(at index: Int) -> String? { values[index] }
    /// Column `index` as an integer; NULL or non-numeric text reads as 0.
    package func integer(at index: Int) -> Int { values[index].flatMap { Int($0) } ?? 0 }
    /// Column `index` as an integer, nil for NULL.
    package func optionalInteger(at index: Int) -> Int? { values[index].flatMap { Int($0) } }
}

/// A notification received on a channel this connection listens to.
package struct PostgresNotification: Sendable, Hashable {
    package let channel: String
    package let payload: String
}

/// One connection to a PostgreSQL server: owns its `PGconn*`, opened in `init` and closed (`PQfinish`) in `deinit`.
///
/// Thread rule: not `Sendable`. Use a connection from one thread at a time: `PostgresFlightStore` confines its
/// connection in `ConfinedPostgresConnection`, `PostgresListener` keeps its own on its listening thread. Results are copied
/// out and freed (`PQclear`) before a call returns, so no libpq pointer outlives a call.
package final class PostgresConnection {
    /// How long connecting may take before libpq gives up, in seconds, unless the URL says otherwise.
    package static let defaultConnectTimeoutSeconds = 5

    /// The server as messages show it: the URL without its password.
    package let server: String
    private let handle: OpaquePointer

    /// Connects to `url` (`postgres://user@host:port/database?…`, or any libpq connection string).
    /// Throws a `.connection` error when the server is down, unreachable or refuses the login.
    package init(url: String, connectTimeoutSeconds: Int = defaultConnectTimeoutSeconds) throws(PostgresError) {
        server = PostgresURL.redacted(url)
        // Later entries override earlier ones, so a connect_timeout in the URL wins over the default.
        let keywords = ["connect_timeout", "application_name", "dbname"]
        let values = [String(connectTimeoutSeconds), "flightvoice", url]
        let connection = withCStrings(keywords) { keywordPointers in
            withCStrings(values) { valuePointers in PQconnectdbParams(keywordPointers, valuePointers, 1) }
        }
        guard let connection else {
            throw PostgresError(operation: "connect", kind: .connection, message: "libpq could not allocate a connection", server: server)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(operation: "connect", kind: .connection, message: message, server: server)
        }
        // Server notices ("relation already exists, skipping") would go to stderr; they are not for users.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    deinit {
        PQfinish(handle)
    }

    /// Statements prepared on this session, by SQL text: each is parsed and planned once, then only executed.
    private var preparedStatements: [String: String] = [:]

    /// Statements that succeeded on this connection: a caller that sees it unchanged after a failure knows nothing ran.
    package private(set) var successfulStatements = 0

    /// False once the link to the server broke; `reconnect()` tries to restore it.
    package var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Re-establishes a broken connection with the same parameters (`PQreset`); throws when the server is still away.
    package func reconnect() throws(PostgresError) {
        PQreset(handle)
        preparedStatements = [:]  // a new session has none
        guard isConnected else { throw connectionError("reconnect") }
    }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, … as text (nil is SQL NULL) and returns its rows.
    /// Never builds SQL from values: parameters always travel separately (`PQexecParams`).
    @discardableResult
    package func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> [PostgresRow] {
        let result = withOptionalCStrings(parameters) { pointers in
            PQexecParams(handle, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        return try rows(of: result, operation: "execute", sql: sql)
    }

    /// Like `execute`, for the statements a program runs again and again (lookups): prepared once per session
    /// (`PQprepare`), then executed with text parameters (`PQexecPrepared`), saving the parse and plan each time.
    package func executePrepared(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> [PostgresRow] {
        let name: String
        if let known = preparedStatements[sql] {
            name = known
        } else {
            name = "flightvoice_\(preparedStatements.count + 1)"
            try rows(of: PQprepare(handle, name, sql, Int32(parameters.count), nil), operation: "prepare", sql: sql)
            preparedStatements[sql] = name
        }
        let result = withOptionalCStrings(parameters) { pointers in
            PQexecPrepared(handle, name, Int32(pointers.count), pointers, nil, nil, 0)
        }
        return try rows(of: result, operation: "execute", sql: sql)
    }

    /// Runs a fixed script of several statements (migrations); never call it with text built from input.
    package func executeScript(_ sql: StaticString) throws(PostgresError) {
        let text = sql.description
        try rows(of: PQexec(handle, text), operation: "execute script", sql: text)
    }

    /// Every row of a query (a prepared statement), each read by `read`.
    package func query<Row>(_ sql: String, _ parameters: [String?] = [], read: (PostgresRow) throws -> Row) throws -> [Row] {
        try executePrepared(sql, parameters).map(read)
    }

    /// The first column of the first row as an integer, nil when there is no row or it is NULL.
    package func integer(_ sql: String, _ parameters: [String?] = []) throws(PostgresError) -> Int? {
        try execute(sql, parameters).first?.optionalInteger(at: 0)
    }

    /// Runs `body` inside `BEGIN … COMMIT`; any error rolls everything back and is rethrown.
    package func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if PQtransactionStatus(handle) != PQTRANS_IDLE { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    // MARK: - Notifications

    /// The socket to wait on for notifications (`PQsocket`), -1 when the connection is broken.
    package var socket: Int32 { PQsocket(handle) }

    /// Reads whatever the server sent (`PQconsumeInput`) and returns the notifications it held, oldest first.
    package func receiveNotifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else { throw connectionError("receive notifications") }
        var notifications: [PostgresNotification] = []
        while let notification = PQnotifies(handle) {
            notifications.append(PostgresNotification(channel: String(cString: notification.pointee.relname),
                                                      payload: String(cString: notification.pointee.extra)))
            PQfreemem(notification)
        }
        return notifications
    }

    // MARK: - Results and errors

    /// Copies `result`'s rows out, frees it, and throws for anything but success.
    @discardableResult
    private func rows(of result: OpaquePointer?, operation: String, sql: String) throws(PostgresError) -> [PostgresRow] {
        guard let result else { throw connectionError(operation, sql: sql) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let message = String(cString: PQresultErrorMessage(result))
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            // A broken link also ends here (PGRES_FATAL_ERROR without SQLSTATE, or class 08: connection exception).
            let broken = !isConnected || sqlState?.hasPrefix("08") == true
            throw PostgresError(operation: operation, kind: broken ? .connection : .statement, sqlState: sqlState,
                                message: message.isEmpty ? String(cString: PQerrorMessage(handle)) : message, sql: sql, server: server)
        }
        successfulStatements += 1
        let rowCount = PQntuples(result), columnCount = PQnfields(result)
        var rows: [PostgresRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            rows.append(PostgresRow(values: (0..<columnCount).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }))
        }
        return rows
    }

    /// A `.connection` error with libpq's current message.
    private func connectionError(_ operation: String, sql: String? = nil) -> PostgresError {
        PostgresError(operation: operation, kind: .connection, message: String(cString: PQerrorMessage(handle)), sql: sql, server: server)
    }
}

/// Connections are confined to one owner at a time; never shared across tasks (see the thread rule above).
@available(*, unavailable)
extension PostgresConnection: Sendable {}

/// Calls `body` with a C array of the strings, valid only during the call.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
    withOptionalCStrings(strings, { pointers in body(pointers + [nil]) })
}

/// Calls `body` with a C array of the strings (NULL for nil), valid only during the call.
private func withOptionalCStrings<Result>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    return body(copies.map { $0.map { UnsafePointer($0) } })
}
