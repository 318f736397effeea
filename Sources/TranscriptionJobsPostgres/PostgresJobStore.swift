import FlightStore
import FlightStorePostgres
import Foundation
import TranscriptionJobs

/// The `TranscriptionJobStore` of a fleet: one queue in PostgreSQL that every server's workers drain.
///
/// Claims take the oldest QUEUED job with `FOR UPDATE SKIP LOCKED` in one statement, so concurrent servers never get
/// the same job and never wait on each other. Finishing is fenced by the lease holder, and records the callback
/// delivery in the same transaction. Every change to a job is announced on `flightvoice_jobs` (payload: the job name)
/// in the same transaction, so `?wait` and SSE on any server hear it (`jobChanges()`).
///
/// Difference from the single-server SQLite store, because other servers are alive: `requeueExpiredLeases(now:)`
/// and `requeueInterruptedCallbacks(now:)` should be given the real time (never `.distantFuture`: that would take
/// live servers' jobs and sends away from them). Leases are judged by the callers' clocks, so the servers' clocks
/// must agree to well within a lease (NTP does).
///
/// Thread safety: `Sendable`; the connection is confined (`ConfinedPostgresConnection`), calls run one at a time.
public final class PostgresJobStore: TranscriptionJobStore {
    /// The channel job changes are announced on.
    public static let changeChannel = "flightvoice_jobs"

    private let url: String
    private let backoff: ReconnectBackoff
    private let connection: ConfinedPostgresConnection

    /// Connects to `url`, migrating the schema (the queue's tables come with the flights'). Throws a `.connection`
    /// `PostgresError` when the server cannot be reached.
    public init(url: String, backoff: ReconnectBackoff = .standard) throws {
        self.url = url
        self.backoff = backoff
        connection = try ConfinedPostgresConnection(url: url, backoff: backoff)
    }

    /// The names of jobs that changed, as any server changes them; `nil` after a reconnection (look at every job you
    /// wait for: changes made meanwhile were not heard). Ends when the consumer cancels.
    public func jobChanges() -> AsyncStream<String?> {
        PostgresListener.stream(url: url, channel: Self.changeChannel, backoff: backoff,
                                resync: { _ in nil }, notification: { $0 }, unreachable: { _ in nil })
    }

    private static let columns = TranscriptionJob.storedColumns

    public func create(_ job: NewTranscriptionJob, now: Date) throws -> TranscriptionJob {
        try connection.withConnection { database in
            try database.transaction {
                let inserted = try database.execute("""
                    INSERT INTO transcription_jobs (name, status, language_code, media_format, media_sample_rate, max_alternatives, callback_url,
                        media_path, media_uri, output_bucket, output_key, created_ms)
                    VALUES ($1, 'QUEUED', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    ON CONFLICT (name) DO NOTHING RETURNING sequence
                    """, [job.name, job.languageCode, job.mediaFormat, job.mediaSampleRateHertz.map(String.init), job.maxAlternatives.map(String.init),
                          job.callbackURL, job.mediaPath, job.mediaURI, job.outputBucket, job.outputKey, String(Self.milliseconds(now))])
                guard !inserted.isEmpty else { throw JobStoreError.duplicateName(job.name) }
                try Self.announce(job.name, on: database)
            }
            return TranscriptionJob(request: job, status: .queued, createdAt: Self.date(Self.milliseconds(now))!)
        }
    }

    public func job(named name: String) throws -> TranscriptionJob? {
        try connection.withConnection { database in try Self.job(named: name, in: database) }
    }

    public func list(status: JobStatus?, nextToken: String?, limit: Int) throws -> JobPage {
        let after = try JobPage.sequence(after: nextToken)
        return try connection.withConnection { database in
            let rows = try database.query(
                "SELECT \(Self.columns) FROM transcription_jobs WHERE sequence > $1 AND ($2::text IS NULL OR status = $2) ORDER BY sequence LIMIT $3",
                [String(after), status?.rawValue, String(limit + 1)],
                read: { TranscriptionJob.pageEntry(storedRow: $0) })
            return JobPage.page(of: rows, limit: limit)
        }
    }

    public func delete(named name: String) throws -> TranscriptionJob? {
        try connection.withConnection { database in
            try database.transaction {
                guard let existing = try Self.job(named: name, in: database) else { return nil }
                try database.execute("DELETE FROM transcription_jobs WHERE name = $1", [name])
                try database.execute("DELETE FROM job_callbacks WHERE job_name = $1 AND state IN ('pending', 'sending')", [name])
                try Self.announce(name, on: database)
                return existing
            }
        }
    }

    public func counts() throws -> [JobStatus: Int] {
        try connection.withConnection { database in
            JobStatus.counts(fromRows: try database.query("SELECT status, count(*) FROM transcription_jobs GROUP BY status", read: { ($0.text(at: 0), $0.integer(at: 1)) }))
        }
    }

    public func claimNext(owner: String, leaseSeconds: Double, now: Date) throws -> TranscriptionJob? {
        try connection.withConnection { database in
            try database.transaction {
                // SKIP LOCKED: a row another server is claiming right now is passed over, not waited for.
                let claimed = try database.query("""
                    UPDATE transcription_jobs SET status = 'IN_PROGRESS', lease_owner = $1, lease_expires_ms = $2, attempts = attempts + 1,
                        started_ms = coalesce(started_ms, $3)
                    WHERE sequence = (SELECT sequence FROM transcription_jobs WHERE status = 'QUEUED' ORDER BY sequence LIMIT 1 FOR UPDATE SKIP LOCKED)
                    RETURNING \(Self.columns)
                    """, [owner, String(Self.milliseconds(now.addingTimeInterval(leaseSeconds))), String(Self.milliseconds(now))], read: { TranscriptionJob(storedRow: $0) }).first
                if let claimed { try Self.announce(claimed.name, on: database) }
                return claimed
            }
        }
    }

    public func renewLease(name: String, owner: String, until: Date) throws -> Bool {
        try connection.withConnection { database in
            try !database.execute(
                "UPDATE transcription_jobs SET lease_expires_ms = $3 WHERE name = $1 AND lease_owner = $2 AND status = 'IN_PROGRESS' RETURNING name",
                [name, owner, String(Self.milliseconds(until))]).isEmpty
        }
    }

    public func finish(name: String, owner: String, outcome: JobOutcome, callbackPayload: String?, now: Date) throws -> Bool {
        precondition(outcome.status.isFinal, "a job finishes COMPLETED or FAILED")
        return try connection.withConnection { database in
            try database.transaction {
                let finished = try database.execute("""
                    UPDATE transcription_jobs SET status = $3, failure_reason = $4, answer_json = $5, transcript_path = $6, audio_ms = $7,
                        completed_ms = $8, lease_owner = NULL, lease_expires_ms = NULL
                    WHERE name = $1 AND lease_owner = $2 AND status = 'IN_PROGRESS'
                    RETURNING callback_url
                    """, [name, owner, outcome.status.rawValue, outcome.failureReason, outcome.answerJSON, outcome.transcriptPath,
                          outcome.audioSeconds.map { String(Int64(($0 * 1000).rounded())) }, String(Self.milliseconds(now))])
                guard let row = finished.first else { return false }
                if let callbackPayload, let url = row.optionalText(at: 0) {
                    try database.execute("""
                        INSERT INTO job_callbacks (delivery_key, job_name, url, payload, state, next_attempt_ms) VALUES ($1, $2, $3, $4, 'pending', $5)
                        """, [CallbackDelivery.newKey(), name, url, callbackPayload, String(Self.milliseconds(now))])
                }
                try Self.announce(name, on: database)
                return true
            }
        }
    }

    public func requeueExpiredLeases(now: Date) throws -> [String] {
        let cutoff = JobStoreClock.leaseCutoff(now)
        return try connection.withConnection { database in
            try database.transaction {
                let names = try database.query("""
                    WITH requeued AS (
                        UPDATE transcription_jobs SET status = 'QUEUED', lease_owner = NULL, lease_expires_ms = NULL
                        WHERE status = 'IN_PROGRESS' AND lease_expires_ms < $1 RETURNING name, sequence)
                    SELECT name FROM requeued ORDER BY sequence
                    """, [String(cutoff)]) { $0.text(at: 0) }
                for name in names { try Self.announce(name, on: database) }
                return names
            }
        }
    }

    public func claimDueCallback(owner: String, leaseSeconds: Double, now: Date) throws -> CallbackDelivery? {
        try connection.withConnection { database in
            try database.query("""
                UPDATE job_callbacks SET state = 'sending', attempts = attempts + 1, sending_owner = $2, sending_expires_ms = $3
                WHERE id = (SELECT id FROM job_callbacks WHERE state = 'pending' AND next_attempt_ms <= $1
                            ORDER BY next_attempt_ms, id LIMIT 1 FOR UPDATE SKIP LOCKED)
                RETURNING id, delivery_key, job_name, url, payload, attempts - 1
                """, [String(Self.milliseconds(now)), owner, String(Self.milliseconds(now.addingTimeInterval(leaseSeconds)))]) {
                CallbackDelivery.delivery(id: Int64($0.integer(at: 0)), key: $0.text(at: 1), jobName: $0.text(at: 2), url: $0.text(at: 3), payload: $0.text(at: 4),
                                          attempts: $0.integer(at: 5))
            }.first
        }
    }

    public func renewCallbackLease(id: Int64, owner: String, until: Date) throws -> Bool {
        try connection.withConnection { database in
            try !database.execute(
                "UPDATE job_callbacks SET sending_expires_ms = $3 WHERE id = $1 AND sending_owner = $2 AND state = 'sending' RETURNING id",
                [String(id), owner, String(Self.milliseconds(until))]).isEmpty
        }
    }

    public func callbackDelivered(id: Int64, now: Date) throws {
        try connection.withConnection { database in
            _ = try database.execute("""
                UPDATE job_callbacks SET state = 'delivered', delivered_ms = $2, last_error = NULL, sending_owner = NULL, sending_expires_ms = NULL
                WHERE id = $1 AND state <> 'delivered'
                """, [String(id), String(Self.milliseconds(now))])
        }
    }

    public func callbackFailed(id: Int64, owner: String, error: String, retryAt: Date?) throws {
        try connection.withConnection { database in
            _ = try database.execute("""
                UPDATE job_callbacks SET state = CASE WHEN $4::bigint IS NULL THEN 'failed' ELSE 'pending' END, last_error = $3,
                    next_attempt_ms = coalesce($4::bigint, next_attempt_ms), sending_owner = NULL, sending_expires_ms = NULL
                WHERE id = $1 AND sending_owner = $2 AND state = 'sending'
                """, [String(id), owner, error, retryAt.map { String(Self.milliseconds($0)) }])
        }
    }

    public func requeueInterruptedCallbacks(now: Date) throws -> Int {
        let cutoff = JobStoreClock.leaseCutoff(now)
        return try connection.withConnection { database in
            try database.execute("""
                UPDATE job_callbacks SET state = 'pending', attempts = attempts - 1, next_attempt_ms = $2, last_error = $3,
                    sending_owner = NULL, sending_expires_ms = NULL
                WHERE state = 'sending' AND coalesce(sending_expires_ms, 0) < $1 RETURNING id
                """, [String(cutoff), String(JobStoreClock.resendAt(now)), CallbackDelivery.interruptedSendError]).count
        }
    }

    public func callbackCounts() throws -> (delivered: Int, pending: Int, failed: Int) {
        try connection.withConnection { database in
            let rows = try database.query("SELECT state, count(*) FROM job_callbacks GROUP BY state") { ($0.text(at: 0), $0.integer(at: 1)) }
            let counts = Dictionary(rows, uniquingKeysWith: +)
            return (counts["delivered"] ?? 0, (counts["pending"] ?? 0) + (counts["sending"] ?? 0), counts["failed"] ?? 0)
        }
    }

    // MARK: Rows

    /// Tells every listening server that job `name` changed, when the surrounding transaction commits.
    private static func announce(_ name: String, on database: PostgresConnection) throws {
        try database.execute("SELECT pg_notify($1, $2)", [changeChannel, name])
    }

    private static func job(named name: String, in database: PostgresConnection) throws -> TranscriptionJob? {
        try database.query("SELECT \(columns) FROM transcription_jobs WHERE name = $1", [name], read: { TranscriptionJob(storedRow: $0) }).first
    }

    static func milliseconds(_ date: Date) -> Int64 { JobStoreClock.milliseconds(date) }
    static func date(_ milliseconds: Int64?) -> Date? { JobStoreClock.date(milliseconds) }
}

extension PostgresRow: StoredJobRow {}
