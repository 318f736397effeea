import Foundation

// What every job-store backend shares (the PostgreSQL one lives in its own module): the values it builds, whose
// memberwise initializers are internal to this module, and how a row of the jobs table reads as a job.

extension JobPage {
    /// The job sequence number a page starts after: 0 without a token; a token this store did not hand out is
    /// `JobStoreError.invalidToken`.
    package static func sequence(after nextToken: String?) throws -> Int64 {
        guard let nextToken else { return 0 }
        guard let value = Int64(nextToken), value > 0 else { throw JobStoreError.invalidToken(nextToken) }
        return value
    }

    /// The first `limit` of `rows` (read with one row more than a page holds), with the next page's token when there
    /// was that one more.
    package static func page(of rows: [(job: TranscriptionJob, sequence: Int)], limit: Int) -> JobPage {
        let page = rows.prefix(limit)
        return JobPage(jobs: page.map(\.job), nextToken: rows.count > limit ? page.last.map { String($0.sequence) } : nil)
    }
}

/// A row of `TranscriptionJob.storedColumns`, as a backend's result row reads it.
package protocol StoredJobRow {
    func text(at index: Int) -> String
    func optionalText(at index: Int) -> String?
    func integer(at index: Int) -> Int
    func optionalInteger(at index: Int) -> Int?
}

extension TranscriptionJob {
    /// The columns every backend's jobs table has, in the order `init(storedRow:)` reads them; the last is the
    /// sequence number that orders pages.
    package static let storedColumns = """
        name, status, language_code, media_format, media_sample_rate, max_alternatives, callback_url, media_path, media_uri,
        output_bucket, output_key, created_ms, started_ms, completed_ms, failure_reason, answer_json, transcript_path, audio_ms,
        lease_owner, lease_expires_ms, attempts, sequence
        """

    /// The job in a row of `storedColumns`.
    package init(storedRow row: some StoredJobRow) {
        let date = JobStoreClock.date
        let request = NewTranscriptionJob(
            name: row.text(at: 0), languageCode: row.text(at: 2), mediaFormat: row.optionalText(at: 3), mediaSampleRateHertz: row.optionalInteger(at: 4),
            maxAlternatives: row.optionalInteger(at: 5), callbackURL: row.optionalText(at: 6), mediaPath: row.text(at: 7), mediaURI: row.optionalText(at: 8),
            outputBucket: row.optionalText(at: 9), outputKey: row.optionalText(at: 10))
        self.init(
            request: request, status: JobStatus(rawValue: row.text(at: 1)) ?? .failed,
            createdAt: date(Int64(row.integer(at: 11)))!, startedAt: date(row.optionalInteger(at: 12).map(Int64.init)),
            completedAt: date(row.optionalInteger(at: 13).map(Int64.init)), failureReason: row.optionalText(at: 14), answerJSON: row.optionalText(at: 15),
            transcriptPath: row.optionalText(at: 16), audioSeconds: row.optionalInteger(at: 17).map { Double($0) / 1000 },
            leaseOwner: row.optionalText(at: 18), leaseExpiresAt: date(row.optionalInteger(at: 19).map(Int64.init)), attempts: row.integer(at: 20))
    }

    /// The job and its sequence number in a row of `storedColumns`, for a page.
    package static func pageEntry(storedRow row: some StoredJobRow) -> (job: TranscriptionJob, sequence: Int) {
        (TranscriptionJob(storedRow: row), row.integer(at: 21))
    }
}

extension JobStatus {
    /// Every status with its count from a backend's `(status, count)` rows: a status without a row counts 0.
    package static func counts(fromRows rows: [(String, Int)]) -> [JobStatus: Int] {
        var counts = Dictionary(uniqueKeysWithValues: allCases.map { ($0, 0) })
        for (name, count) in rows {
            if let status = JobStatus(rawValue: name) { counts[status] = count }
        }
        return counts
    }
}

extension CallbackDelivery {
    /// A delivery as a backend claimed it; `attempts` counts those made before this one.
    package static func delivery(id: Int64, key: String, jobName: String, url: String, payload: String, attempts: Int) -> CallbackDelivery {
        CallbackDelivery(id: id, key: key, jobName: jobName, url: url, payload: payload, attempts: attempts)
    }

    /// A new idempotency key for a delivery being recorded: random, so that it stays unique across databases, job
    /// names used again after a delete, and stores recreated from scratch (a receiver's memory outlives all three).
    package static func newKey() -> String { UUID().uuidString.lowercased() }

    /// `last_error` of a delivery returned to the queue because its sender stopped mid-send.
    package static let interruptedSendError = "the sending server stopped mid-send; sent again with the same delivery id"
}

/// How every backend stores times (milliseconds since 1970, UTC, rounded down) and judges leases by them.
package enum JobStoreClock {
    package static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }
    package static func date(_ milliseconds: Int64?) -> Date? { milliseconds.map { Date(timeIntervalSince1970: Double($0) / 1000) } }

    /// The lease end before which `requeue…(now:)` takes a job or a send back: `.distantFuture` takes every one.
    package static func leaseCutoff(_ now: Date) -> Int64 { now == .distantFuture ? .max : milliseconds(now) }
    /// When a send taken back at `now` is due again: at once (the real time when `now` is `.distantFuture`).
    package static func resendAt(_ now: Date) -> Int64 { milliseconds(now == .distantFuture ? Date() : now) }
}
