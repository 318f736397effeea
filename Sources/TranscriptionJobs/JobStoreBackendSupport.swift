import Foundation

// Other job-store backends (the PostgreSQL one lives in its own module) build these values; their memberwise
// initializers are internal to this module.

extension JobPage {
    /// A page of `jobs`, with the token of the next page or nil on the last.
    package static func page(jobs: [TranscriptionJob], nextToken: String?) -> JobPage {
        JobPage(jobs: jobs, nextToken: nextToken)
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
