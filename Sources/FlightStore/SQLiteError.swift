import CSQLite
import Foundation

/// A failed SQLite call: what was attempted, SQLite's result code and message, the SQL and the database file.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What was being done, e.g. "open", "prepare", "step", "bind", "execute".
    public let operation: String
    /// The SQLite result code, e.g. 26 (`SQLITE_NOTADB`) or 19 (`SQLITE_CONSTRAINT`).
    public let code: Int32
    /// SQLite's own message for the failure (`sqlite3_errmsg`), e.g. "file is not a database".
    public let message: String
    /// The SQL being run, when the failure belongs to a statement.
    public let sql: String?
    /// The database file (":memory:" for an in-memory database).
    public let path: String

    /// Creates an error from its parts; `SQLiteConnection` builds these from the live handle.
    public init(operation: String, code: Int32, message: String, sql: String? = nil, path: String) {
        self.operation = operation
        self.code = code
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// SQLite's generic name for `code`, e.g. "file is not a database" for 26.
    public var codeDescription: String { String(cString: sqlite3_errstr(code)) }

    /// One line for logs and the terminal: operation, code, message, file and SQL.
    public var description: String {
        var text = "SQLite \(operation) failed on \(path): \(message) (code \(code)"
        if message != codeDescription { text += ", \(codeDescription)" }
        text += ")"
        if let sql { text += " in: \(sql.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "))" }
        return text
    }
}
