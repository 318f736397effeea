import FlightCore
import Foundation

/// A flight database a program can read, answer from, import into and reset, whichever backend holds it:
/// `FlightStore` (SQLite, one machine) or `PostgresFlightStore` (a fleet sharing one server).
/// Front ends take `any FlightDatabase` and never need to know which.
public protocol FlightDatabase: FlightsDataSource, ScheduleRevisionSource {
    /// Counts of what the database holds, with its name and schema version.
    func status() throws -> FlightStoreStatus
    /// Upserts the flights of a CSV text in one transaction; a bad row throws `CSVImportError` and nothing is written.
    func importCSV(text: String, now: Date) throws -> CSVImportSummary
    /// Replaces everything with the built-in service day, in one transaction.
    func reset() throws
    /// Every row, as stored: for a local copy that answers while the database is unreachable.
    func snapshot() throws -> ScheduleSnapshot
    /// Replaces every row with `snapshot`'s, in one transaction.
    func replaceSchedule(with snapshot: ScheduleSnapshot) throws
    /// Announcements of committed changes by any process, for rebuilding grammars; ends when the task is cancelled.
    func scheduleChanges() -> AsyncStream<ScheduleChange>
}

extension FlightDatabase {
    /// Imports the CSV file at `path`; see `importCSV(text:now:)`. Errors name the file.
    public func importCSV(contentsOf path: String, now: Date = Date()) throws -> CSVImportSummary {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FlightStoreError.cannotReadFile(path: path, reason: "\(error.localizedDescription) (a UTF-8 CSV file is expected)")
        }
        do {
            return try importCSV(text: text, now: now)
        } catch var error as CSVImportError {
            error.file = path
            throw error
        }
    }

    /// Imports CSV text as of now; see `importCSV(text:now:)`.
    public func importCSV(text: String) throws -> CSVImportSummary {
        try importCSV(text: text, now: Date())
    }
}

/// What a long-running front end (a kiosk, a server) answers from: flights, a revision and a stream of changes to
/// rebuild grammars by, and how current the answers are. `FlightDatabaseLocation.openLive(snapshotPath:)` opens one.
public protocol LiveFlightsDataSource: FlightsDataSource, ScheduleRevisionSource {
    /// Where answers come from right now, and how old they are when they come from a local copy.
    var freshness: ScheduleFreshness { get }
    /// Announcements of committed changes by any process; ends when the consumer cancels.
    func scheduleChanges() -> AsyncStream<ScheduleChange>
}

/// How current a data source's answers are.
public enum ScheduleFreshness: Sendable, Hashable {
    /// From the database itself.
    case live
    /// From a local copy taken at `takenAt`, because the database is unreachable (`reason`): show its age.
    case snapshot(takenAt: Date, reason: String)
}

/// What a schedule-change stream reports.
public enum ScheduleChange: Sendable, Hashable {
    /// The flights changed (or may have: after a reconnection); the database's revision is now `revision`.
    case revised(revision: Int64)
    /// The database cannot be reached; the stream keeps retrying and reports `.revised` once it is back.
    case unreachable(message: String)
}

/// An error from a database library that says whether the server was reachable at all, so callers can fall back
/// to a local copy or exit with "database unreachable" (76) instead of "database unusable" (74).
public protocol DatabaseFailure: Error {
    /// The library's own message, one line.
    var databaseMessage: String { get }
    /// True when the server could not be reached or the link broke; false when it refused a statement.
    var isUnreachable: Bool { get }
}

extension SQLiteError: DatabaseFailure {
    public var databaseMessage: String { message }
    /// A file is never "unreachable": SQLite errors are about the file itself.
    public var isUnreachable: Bool { false }
}

/// Delays between attempts to reach a database again: doubling from `initial` up to `maximum`.
public struct ReconnectBackoff: Sendable, Hashable {
    /// The wait after the first failure, in seconds.
    public var initial: TimeInterval
    /// The longest wait between attempts, in seconds.
    public var maximum: TimeInterval

    /// Quick enough that a restarted server is noticed within seconds, sparse enough not to flood a struggling one.
    public static let standard = ReconnectBackoff(initial: 0.25, maximum: 10)

    public init(initial: TimeInterval, maximum: TimeInterval) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The wait after `failures` consecutive failed attempts (1 for the first).
    public func delay(afterFailures failures: Int) -> TimeInterval {
        min(maximum, initial * pow(2, Double(max(0, failures - 1))))
    }
}
