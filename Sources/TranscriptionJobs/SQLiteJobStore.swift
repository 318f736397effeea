import FlightStore
import Foundation
import Synchronization

/// The `TranscriptionJobStore` of one server: a SQLite file (WAL) in the service's data folder.
///
/// Thread safety: `Sendable`; the one connection lives behind a `Mutex`, so every call runs serially and each
/// multi-statement change is one `BEGIN IMMEDIATE` transaction.
public final class SQLiteJobStore: TranscriptionJobStore {
    /// The schema this code reads and writes (`PRAGMA user_version`).
    public static let schemaVersion = 2
    private let connection: Mutex<SQLiteConnection>

    /// Opens or creates the jobs database at `path`.
    public init(path: String) throws {
        let database = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try database.setBusyTimeout(milliseconds: 5_000)
        try database.execute("PRAGMA journal_mode = WAL")
        // FULL: a job acknowledged with 201 must survive power loss, not only a process crash.
        try database.execute("PRAGMA synchronous = FULL")
        let version = try database.integer("PRAGMA user_version") ?? 0
        if version > Self.schemaVersion {
            throw JobStoreFileError(path: path, problem: "its schema version is \(version), this program reads \(Self.schemaVersion)")
        }
        if version < Self.schemaVersion {
            try database.transaction {
                for (index, step) in Self.migrations.enumerated() where index >= version {
                    try database.executeScriptInsideTransaction(step)
                }
                try database.execute("PRAGMA user_version = \(Self.schemaVersion)")
            }
        }
        connection = Mutex(database)
    }

    /// The schema, one step per version (step N brings version N to N + 1). Never edit a released step.
    package static let migrations = [schema, sendLeasesAndDeliveryKeys]

    static let schema = """
        CREATE TABLE jobs (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            name TEXT NOT NULL UNIQUE,
            status TEXT NOT NULL,
            language_code TEXT NOT NULL,
            media_format TEXT, media_sample_rate INTEGER, max_alternatives INTEGER, callback_url TEXT,
            media_path TEXT NOT NULL, media_uri TEXT, output_bucket TEXT, output_key TEXT,
            created_ms INTEGER NOT NULL, started_ms INTEGER, completed_ms INTEGER,
            failure_reason TEXT, answer_json TEXT, transcript_path TEXT, audio_ms INTEGER,
            lease_owner TEXT, lease_expires_ms INTEGER, attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX jobs_by_status ON jobs (status, sequence);
        CREATE TABLE callbacks (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            job_name TEXT NOT NULL,
            url TEXT NOT NULL,
            payload TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_ms INTEGER NOT NULL,
            last_error TEXT,
            delivered_ms INTEGER
        );
        CREATE INDEX callbacks_due ON callbacks (state, next_attempt_ms);
        """

    /// Version 2: a delivery being sent is held under its sender's lease, and carries an idempotency key.
    static let sendLeasesAndDeliveryKeys = """
        ALTER TABLE callbacks ADD COLUMN delivery_key TEXT;
        ALTER TABLE callbacks ADD COLUMN sending_owner TEXT;
        ALTER TABLE callbacks ADD COLUMN sending_expires_ms INTEGER;
        UPDATE callbacks SET delivery_key = lower(hex(randomblob(16)));
        CREATE UNIQUE INDEX callbacks_by_key ON callbacks (delivery_key);
        """

    private static let columns = TranscriptionJob.storedColumns

    public func create(_ job: NewTranscriptionJob, now: Date) throws -> TranscriptionJob {
        try connection.withLock { database in
            try database.transaction {
                if try database.integer("SELECT count(*) FROM jobs WHERE name = ?1", [.text(job.name)]) ?? 0 > 0 {
                    throw JobStoreError.duplicateName(job.name)
                }
                try database.run("""
                    INSERT INTO jobs (name, status, language_code, media_format, media_sample_rate, max_alternatives, callback_url,
                        media_path, media_uri, output_bucket, output_key, created_ms)
                    VALUES (?1, 'QUEUED', ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                    """, [.text(job.name), .text(job.languageCode), .optionalText(job.mediaFormat), .optionalInteger(job.mediaSampleRateHertz),
                          .optionalInteger(job.maxAlternatives), .optionalText(job.callbackURL), .text(job.mediaPath), .optionalText(job.mediaURI),
                          .optionalText(job.outputBucket), .optionalText(job.outputKey), .integer(Self.milliseconds(now))])
            }
            return TranscriptionJob(request: job, status: .queued, createdAt: Self.date(Self.milliseconds(now))!)
        }
    }

    public func job(named name: String) throws -> TranscriptionJob? {
        try connection.withLock { database in try Self.job(named: name, in: database) }
    }

    public func list(status: JobStatus?, nextToken: String?, limit: Int) throws -> JobPage {
        let after = try JobPage.sequence(after: nextToken)
        return try connection.withLock { database in
            let rows = try database.query(
                "SELECT \(Self.columns) FROM jobs WHERE sequence > ?1 AND (?2 IS NULL OR status = ?2) ORDER BY sequence LIMIT ?3",
                [.integer(after), .optionalText(status?.rawValue), .integer(Int64(limit + 1))],
                read: { TranscriptionJob.pageEntry(storedRow: $0) })
            return JobPage.page(of: rows, limit: limit)
        }
    }

    public func delete(named name: String) throws -> TranscriptionJob? {
        try connection.withLock { database in
            try database.transaction {
                guard let existing = try Self.job(named: name, in: database) else { return nil }
                try database.run("DELETE FROM jobs WHERE name = ?1", [.text(name)])
                try database.run("DELETE FROM callbacks WHERE job_name = ?1 AND state IN ('pending', 'sending')", [.text(name)])
                return existing
            }
        }
    }

    public func counts() throws -> [JobStatus: Int] {
        try connection.withLock { database in
            JobStatus.counts(fromRows: try database.query("SELECT status, count(*) FROM jobs GROUP BY status", read: { ($0.text(at: 0), $0.integer(at: 1)) }))
        }
    }

    public func claimNext(owner: String, leaseSeconds: Double, now: Date) throws -> TranscriptionJob? {
        try connection.withLock { database in
            try database.transaction {
                guard let name = try database.text("SELECT name FROM jobs WHERE status = 'QUEUED' ORDER BY sequence LIMIT 1") else { return nil }
                try database.run("""
                    UPDATE jobs SET status = 'IN_PROGRESS', lease_owner = ?2, lease_expires_ms = ?3, attempts = attempts + 1,
                        started_ms = coalesce(started_ms, ?4) WHERE name = ?1
                    """, [.text(name), .text(owner), .integer(Self.milliseconds(now.addingTimeInterval(leaseSeconds))), .integer(Self.milliseconds(now))])
                return try Self.job(named: name, in: database)
            }
        }
    }

    public func renewLease(name: String, owner: String, until: Date) throws -> Bool {
        try connection.withLock { database in
            try database.run("UPDATE jobs SET lease_expires_ms = ?3 WHERE name = ?1 AND lease_owner = ?2 AND status = 'IN_PROGRESS'",
                             [.text(name), .text(owner), .integer(Self.milliseconds(until))])
            return try database.integer("SELECT changes()") == 1
        }
    }

    public func finish(name: String, owner: String, outcome: JobOutcome, callbackPayload: String?, now: Date) throws -> Bool {
        precondition(outcome.status.isFinal, "a job finishes COMPLETED or FAILED")
        return try connection.withLock { database in
            try database.transaction {
                try database.run("""
                    UPDATE jobs SET status = ?3, failure_reason = ?4, answer_json = ?5, transcript_path = ?6, audio_ms = ?7,
                        completed_ms = ?8, lease_owner = NULL, lease_expires_ms = NULL
                    WHERE name = ?1 AND lease_owner = ?2 AND status = 'IN_PROGRESS'
                    """, [.text(name), .text(owner), .text(outcome.status.rawValue), .optionalText(outcome.failureReason), .optionalText(outcome.answerJSON),
                          .optionalText(outcome.transcriptPath), outcome.audioSeconds.map { .integer(Int64(($0 * 1000).rounded())) } ?? .null,
                          .integer(Self.milliseconds(now))])
                guard try database.integer("SELECT changes()") == 1 else { return false }
                if let callbackPayload, let url = try database.text("SELECT callback_url FROM jobs WHERE name = ?1", [.text(name)]) {
                    try database.run("INSERT INTO callbacks (delivery_key, job_name, url, payload, state, next_attempt_ms) VALUES (?1, ?2, ?3, ?4, 'pending', ?5)",
                                     [.text(CallbackDelivery.newKey()), .text(name), .text(url), .text(callbackPayload), .integer(Self.milliseconds(now))])
                }
                return true
            }
        }
    }

    public func requeueExpiredLeases(now: Date) throws -> [String] {
        let cutoff = JobStoreClock.leaseCutoff(now)
        return try connection.withLock { database in
            try database.transaction {
                let names = try database.query("SELECT name FROM jobs WHERE status = 'IN_PROGRESS' AND lease_expires_ms < ?1 ORDER BY sequence",
                                               [.integer(cutoff)]) { $0.text(at: 0) }
                try database.run("UPDATE jobs SET status = 'QUEUED', lease_owner = NULL, lease_expires_ms = NULL WHERE status = 'IN_PROGRESS' AND lease_expires_ms < ?1",
                                 [.integer(cutoff)])
                return names
            }
        }
    }

    public func claimDueCallback(owner: String, leaseSeconds: Double, now: Date) throws -> CallbackDelivery? {
        try connection.withLock { database in
            try database.transaction {
                let due = try database.query(
                    "SELECT id, delivery_key, job_name, url, payload, attempts FROM callbacks WHERE state = 'pending' AND next_attempt_ms <= ?1 ORDER BY next_attempt_ms, id LIMIT 1",
                    [.integer(Self.milliseconds(now))]
                ) { CallbackDelivery.delivery(id: Int64($0.integer(at: 0)), key: $0.text(at: 1), jobName: $0.text(at: 2), url: $0.text(at: 3), payload: $0.text(at: 4),
                                              attempts: $0.integer(at: 5)) }.first
                guard let due else { return nil }
                try database.run("UPDATE callbacks SET state = 'sending', attempts = attempts + 1, sending_owner = ?2, sending_expires_ms = ?3 WHERE id = ?1",
                                 [.integer(due.id), .text(owner), .integer(Self.milliseconds(now.addingTimeInterval(leaseSeconds)))])
                return due
            }
        }
    }

    public func renewCallbackLease(id: Int64, owner: String, until: Date) throws -> Bool {
        try connection.withLock { database in
            try database.run("UPDATE callbacks SET sending_expires_ms = ?3 WHERE id = ?1 AND sending_owner = ?2 AND state = 'sending'",
                             [.integer(id), .text(owner), .integer(Self.milliseconds(until))])
            return try database.integer("SELECT changes()") == 1
        }
    }

    public func callbackDelivered(id: Int64, now: Date) throws {
        try connection.withLock { database in
            try database.run("""
                UPDATE callbacks SET state = 'delivered', delivered_ms = ?2, last_error = NULL, sending_owner = NULL, sending_expires_ms = NULL
                WHERE id = ?1 AND state <> 'delivered'
                """, [.integer(id), .integer(Self.milliseconds(now))])
        }
    }

    public func callbackFailed(id: Int64, owner: String, error: String, retryAt: Date?) throws {
        try connection.withLock { database in
            try database.run("""
                UPDATE callbacks SET state = CASE WHEN ?4 IS NULL THEN 'failed' ELSE 'pending' END, last_error = ?3,
                    next_attempt_ms = coalesce(?4, next_attempt_ms), sending_owner = NULL, sending_expires_ms = NULL
                WHERE id = ?1 AND sending_owner = ?2 AND state = 'sending'
                """, [.integer(id), .text(owner), .text(error), retryAt.map { .integer(Self.milliseconds($0)) } ?? .null])
        }
    }

    public func requeueInterruptedCallbacks(now: Date) throws -> Int {
        let cutoff = JobStoreClock.leaseCutoff(now)
        return try connection.withLock { database in
            try database.run("""
                UPDATE callbacks SET state = 'pending', attempts = attempts - 1, next_attempt_ms = ?2, last_error = ?3,
                    sending_owner = NULL, sending_expires_ms = NULL
                WHERE state = 'sending' AND coalesce(sending_expires_ms, 0) < ?1
                """, [.integer(cutoff), .integer(JobStoreClock.resendAt(now)), .text(CallbackDelivery.interruptedSendError)])
            return try database.integer("SELECT changes()") ?? 0
        }
    }

    public func callbackCounts() throws -> (delivered: Int, pending: Int, failed: Int) {
        try connection.withLock { database in
            let rows = try database.query("SELECT state, count(*) FROM callbacks GROUP BY state") { ($0.text(at: 0), $0.integer(at: 1)) }
            let counts = Dictionary(rows, uniquingKeysWith: +)
            return (counts["delivered"] ?? 0, (counts["pending"] ?? 0) + (counts["sending"] ?? 0), counts["failed"] ?? 0)
        }
    }

    // MARK: Rows

    private static func job(named name: String, in database: SQLiteConnection) throws -> TranscriptionJob? {
        try database.query("SELECT \(columns) FROM jobs WHERE name = ?1", [.text(name)], read: { TranscriptionJob(storedRow: $0) }).first
    }

    static func milliseconds(_ date: Date) -> Int64 { JobStoreClock.milliseconds(date) }
    static func date(_ milliseconds: Int64?) -> Date? { JobStoreClock.date(milliseconds) }
}

/// A jobs database file this program cannot use.
public struct JobStoreFileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let problem: String
    public var description: String { "the jobs database \(path) cannot be used: \(problem)" }
}

extension SQLiteStatement: StoredJobRow {
    package func text(at index: Int) -> String { text(at: Int32(index)) }
    package func optionalText(at index: Int) -> String? { optionalText(at: Int32(index)) }
    package func integer(at index: Int) -> Int { integer(at: Int32(index)) }
    package func optionalInteger(at index: Int) -> Int? { optionalInteger(at: Int32(index)) }
}
