import FlightCore
import Foundation
import Synchronization

/// A shared database (PostgreSQL) with a local SQLite copy to fall back on: a kiosk keeps answering from its last
/// snapshot while the database is unreachable, says how old that information is, and reconnects with back-off.
///
/// While connected, every read first compares the database's revision with the snapshot's and copies the whole
/// schedule into the local file when it moved (a few hundred rows). The copy records its revision and time, so it
/// also serves after a restart with the server still away.
///
/// Thread safety: `Sendable`; reads run one at a time behind a `Mutex` (the databases serialise their connections anyway).
public final class SnapshottingFlightsDataSource: LiveFlightsDataSource {
    private let openDatabase: @Sendable () throws -> any FlightDatabase
    private let changes: @Sendable () -> AsyncStream<ScheduleChange>
    private let backoff: ReconnectBackoff
    private let state: Mutex<State>

    private struct State {
        var database: (any FlightDatabase)?
        let local: FlightStore
        var snapshotRevision: Int64?
        var snapshotTakenAt: Date?
        var consecutiveFailures = 0
        var nextAttempt = Date.distantPast
        var lastFailure: (any Error)?
    }

    /// Opens the shared database with `openDatabase` and keeps its copy at `snapshotPath` (created when missing);
    /// `changes` listens to the database whether or not it is reachable now (e.g. `PostgresFlightStore.scheduleChanges(url:backoff:)`).
    /// When the database is unreachable now, answers from an earlier copy; without one, throws the connection error.
    public init(snapshotPath: String, backoff: ReconnectBackoff = .standard,
                changes: @escaping @Sendable () -> AsyncStream<ScheduleChange>,
                openDatabase: @escaping @Sendable () throws -> any FlightDatabase) throws {
        self.openDatabase = openDatabase
        self.changes = changes
        self.backoff = backoff
        let hadCopy = FileManager.default.fileExists(atPath: snapshotPath)
        let local = try FlightStore(path: snapshotPath)
        var initial = State(local: local)
        (initial.snapshotRevision, initial.snapshotTakenAt) = try Self.readSnapshotRecord(of: local)
        Self.connect(&initial, open: openDatabase, backoff: backoff)
        if initial.database == nil, !(hadCopy && initial.snapshotTakenAt != nil), let failure = initial.lastFailure { throw failure }
        state = Mutex(initial)
    }

    /// Where the last answer came from, and how old the information is when it came from the copy.
    public var freshness: ScheduleFreshness {
        state.withLock { state in
            guard state.database == nil else { return .live }
            let reason = state.lastFailure.map { ($0 as? any DatabaseFailure)?.databaseMessage ?? String(describing: $0) } ?? "not connected"
            return .snapshot(takenAt: state.snapshotTakenAt ?? .distantPast, reason: reason)
        }
    }

    /// The shared database's announcements; a `.revised` also tells this source to refresh its copy on the next read.
    public func scheduleChanges() -> AsyncStream<ScheduleChange> { changes() }

    /// Copies the database into the local file now if its revision moved (also done before every read).
    public func refreshSnapshot() throws {
        try read { _ in () }
    }

    public func flight(_ number: FlightNumber, near now: Date) throws -> FlightLookup? {
        try read { try $0.flight(number, near: now) }
    }

    public func suggestions(for number: FlightNumber, near now: Date, limit: Int) throws -> [FlightLookup] {
        try read { try $0.suggestions(for: number, near: now, limit: limit) }
    }

    public func flightNumbers(near now: Date) throws -> [FlightNumber] {
        try read { try $0.flightNumbers(near: now) }
    }

    public func airlineDirectory() throws -> AirlineDirectory {
        try read { try $0.airlineDirectory() }
    }

    /// The database's revision when connected, else the copy's: unchanged while offline, so grammars are kept.
    public func scheduleRevision() throws -> Int64 {
        try read { _ in () }
        return state.withLock { $0.snapshotRevision ?? 0 }
    }

    // MARK: - Reading with fallback

    /// Runs `body` against the database (after refreshing the copy), or against the copy when it is unreachable.
    private func read<Result>(_ body: (any FlightsDataSource) throws -> Result) throws -> Result {
        try state.withLock { state in
            if state.database == nil, Date() >= state.nextAttempt { Self.connect(&state, open: openDatabase, backoff: backoff) }
            if let database = state.database {
                do {
                    try Self.refreshIfChanged(&state, from: database)
                    return try body(database)
                } catch let failure as any DatabaseFailure where failure.isUnreachable {
                    Self.noteFailure(&state, failure, backoff: backoff)
                }
            }
            guard state.snapshotTakenAt != nil else { throw state.lastFailure ?? FlightStoreError.invalidData(path: state.local.path, reason: "no snapshot") }
            return try body(state.local)
        }
    }

    private static func connect(_ state: inout State, open: () throws -> any FlightDatabase, backoff: ReconnectBackoff) {
        do {
            let database = try open()
            state.database = database
            state.consecutiveFailures = 0
            state.lastFailure = nil
            try refreshIfChanged(&state, from: database)
        } catch {
            noteFailure(&state, error, backoff: backoff)
        }
    }

    private static func noteFailure(_ state: inout State, _ error: any Error, backoff: ReconnectBackoff) {
        state.database = nil
        state.consecutiveFailures += 1
        state.nextAttempt = Date().addingTimeInterval(backoff.delay(afterFailures: state.consecutiveFailures))
        state.lastFailure = error
    }

    private static func refreshIfChanged(_ state: inout State, from database: any FlightDatabase) throws {
        let revision = try database.scheduleRevision()
        guard revision != state.snapshotRevision else { return }
        let snapshot = try database.snapshot()
        try state.local.replaceSchedule(with: snapshot)
        let takenAt = Date()
        try recordSnapshot(of: state.local, revision: revision, takenAt: takenAt)
        (state.snapshotRevision, state.snapshotTakenAt) = (revision, takenAt)
    }

    // MARK: - The copy's record

    /// The table in the local file that says which revision it copies and when it was taken.
    private static let recordTable = "flightvoice_snapshot"

    private static func recordSnapshot(of local: FlightStore, revision: Int64, takenAt: Date) throws {
        try local.withConnection { database in
            try database.transaction {
                try database.execute("CREATE TABLE IF NOT EXISTS \(recordTable) (revision INTEGER NOT NULL, taken_at REAL NOT NULL)")
                try database.run("DELETE FROM \(recordTable)")
                try database.run("INSERT INTO \(recordTable) (revision, taken_at) VALUES (?1, ?2)",
                                 [.integer(revision), .text(String(takenAt.timeIntervalSince1970))])
            }
        }
    }

    private static func readSnapshotRecord(of local: FlightStore) throws -> (Int64?, Date?) {
        try local.withConnection { database in
            guard try database.integer("SELECT count(*) FROM sqlite_master WHERE name = ?1", [.text(recordTable)]) == 1 else { return (nil, nil) }
            let record = try database.query("SELECT revision, taken_at FROM \(recordTable)") { (Int64($0.integer(at: 0)), Double($0.text(at: 1))) }.first
            return (record?.0, record?.1.map(Date.init(timeIntervalSince1970:)))
        }
    }
}
