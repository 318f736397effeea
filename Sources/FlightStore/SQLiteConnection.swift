import CSQLite
import Foundation

/// SQLite's "copy this buffer now" destructor; the C macro `SQLITE_TRANSIENT` does not import into Swift.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to a statement parameter.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)

    /// `.text`, or `.null` for nil.
    package static func optionalText(_ value: String?) -> SQLiteValue { value.map(SQLiteValue.text) ?? .null }
    /// `.integer`, or `.null` for nil.
    package static func optionalInteger(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
}

/// One open SQLite database: owns its `sqlite3*`, opened in `init` and closed in `deinit`.
///
/// Thread rule: not `Sendable`. Use a connection from one thread at a time; `FlightStore` confines its connection
/// behind a `Mutex` so that every call runs serially. Statements it prepares must not outlive it on another thread.
package final class SQLiteConnection {
    /// How a connection opens its file.
    package enum OpenMode: Sendable {
        /// Read and write an existing file; fail when it is missing.
        case readWrite
        /// Read and write, creating the file when it is missing.
        case readWriteCreate
    }

    /// The file this connection opened (":memory:" for a private in-memory database).
    package let path: String
    /// The owned handle, closed in deinit.
    private let handle: OpaquePointer

    /// Opens `path`; SQLite reads the file lazily, so a garbage file fails on the first statement, not here.
    package init(path: String, mode: OpenMode) throws(SQLiteError) {
        self.path = path
        var flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        if mode == .readWriteCreate { flags |= SQLITE_OPEN_CREATE }
        var pointer: OpaquePointer?
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(pointer)
            throw SQLiteError(operation: "open", code: code, message: message, path: path)
        }
        handle = pointer
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Rows inserted, updated or deleted through this connection since it opened (`sqlite3_total_changes64`).
    package var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// The error for a call on this connection that returned `code`, with SQLite's current message.
    package func error(_ operation: String, code: Int32, sql: String? = nil) -> SQLiteError {
        SQLiteError(operation: operation, code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql, path: path)
    }

    /// Runs a script of one or more statements that return no rows the caller needs (schema, pragmas, seed).
    package func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard code == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            throw SQLiteError(operation: "execute", code: code, message: message, sql: sql, path: path)
        }
    }

    /// Runs a script statement by statement inside the caller's transaction, skipping the script's own
    /// `BEGIN`/`COMMIT`/`END` so that a seed written for the sqlite3 shell can run in one transaction here.
    package func executeScriptInsideTransaction(_ script: String) throws {
        try script.withCString { start in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var pointer: OpaquePointer?
                var tail: UnsafePointer<CChar>?
                let code = sqlite3_prepare_v2(handle, current, -1, &pointer, &tail)
                guard code == SQLITE_OK else {
                    throw error("prepare", code: code, sql: String(String(cString: current).prefix(200)))
                }
                cursor = tail
                guard let pointer else { continue }  // only comments or whitespace were left
                defer { sqlite3_finalize(pointer) }
                let sql = String(cString: sqlite3_sql(pointer))
                let keyword = Self.firstKeyword(of: sql)
                if ["BEGIN", "COMMIT", "END"].contains(keyword) { continue }
                var stepCode = sqlite3_step(pointer)
                while stepCode == SQLITE_ROW { stepCode = sqlite3_step(pointer) }
                guard stepCode == SQLITE_DONE else { throw error("step", code: stepCode, sql: sql) }
            }
        }
    }

    /// The first word of a statement, upper case, after leading whitespace and comments.
    static func firstKeyword(of sql: String) -> String {
        var rest = Substring(sql)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("--") {
                rest = rest.drop { $0 != "\n" }
            } else if rest.hasPrefix("/*") {
                guard let end = rest.range(of: "*/") else { return "" }
                rest = rest[end.upperBound...]
            } else {
                return rest.prefix { $0.isLetter }.uppercased()
            }
        }
    }

    /// Compiles one statement.
    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs one statement with `values` bound to its parameters, ignoring any rows.
    package func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
    }

    /// Every row of a query, each read by `read` while the statement is positioned on it.
    package func query<Row>(_ sql: String, _ values: [SQLiteValue] = [], read: (SQLiteStatement) throws -> Row) throws -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try read(statement)) }
        return rows
    }

    /// The first column of the first row as an integer, or nil when there is no row or it is NULL.
    package func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.optionalInteger(at: 0) : nil
    }

    /// The first column of the first row as text, or nil when there is no row or it is NULL.
    package func text(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try prepare(sql)
        try statement.bind(values)
        return try statement.step() ? statement.optionalText(at: 0) : nil
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; any error rolls everything back and is rethrown.
    package func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// The row id of the most recent successful INSERT on this connection.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Sets how long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    package func setBusyTimeout(milliseconds: Int32) throws(SQLiteError) {
        let code = sqlite3_busy_timeout(handle, milliseconds)
        guard code == SQLITE_OK else { throw error("busy_timeout", code: code) }
    }

    /// The raw handle, for `SQLiteStatement` only.
    fileprivate var rawHandle: OpaquePointer { handle }
}

/// Connections are confined to one owner at a time; never shared across tasks (see the thread rule above).
@available(*, unavailable)
extension SQLiteConnection: Sendable {}

/// One prepared statement: owns its `sqlite3_stmt*`, finalized in `deinit`.
///
/// Thread rule: not `Sendable`; used on the thread of the connection that prepared it. It keeps its connection
/// alive, so the database is never closed under a live statement.
package final class SQLiteStatement {
    /// The connection that prepared this statement.
    package let connection: SQLiteConnection
    /// The SQL text, for error messages.
    package let sql: String
    private let handle: OpaquePointer

    fileprivate init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        self.connection = connection
        self.sql = sql
        var pointer: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.rawHandle, sql, -1, &pointer, nil)
        guard code == SQLITE_OK, let pointer else {
            sqlite3_finalize(pointer)
            throw connection.error("prepare", code: code == SQLITE_OK ? SQLITE_MISUSE : code, sql: sql)
        }
        handle = pointer
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to parameters 1, 2, … after clearing earlier bindings.
    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let integer): code = sqlite3_bind_int64(handle, index, integer)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, transientDestructor)
            }
            guard code == SQLITE_OK else { throw connection.error("bind parameter \(index)", code: code, sql: sql) }
        }
    }

    /// Advances to the next row: true when positioned on a row, false when the statement is done.
    package func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error("step", code: code, sql: sql)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    package func reset() {
        sqlite3_reset(handle)
    }

    /// True when column `index` (0-based) of the current row is NULL.
    package func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` (0-based) as an integer; NULL reads as 0.
    package func integer(at index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` (0-based) as an integer, nil for NULL.
    package func optionalInteger(at index: Int32) -> Int? { isNull(at: index) ? nil : integer(at: index) }

    /// Column `index` (0-based) as text; NULL reads as "".
    package func text(at index: Int32) -> String {
        guard let characters = sqlite3_column_text(handle, index) else { return "" }
        return String(cString: characters)
    }

    /// Column `index` (0-based) as text, nil for NULL.
    package func optionalText(at index: Int32) -> String? { isNull(at: index) ? nil : text(at: index) }
}

/// Statements belong to the thread using their connection.
@available(*, unavailable)
extension SQLiteStatement: Sendable {}
