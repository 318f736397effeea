import FlightStore
import FlightStorePostgres
import Foundation
import Synchronization

/// Partial hypotheses of the jobs a server decodes, announced to every other server of the fleet (`NOTIFY` on
/// `flightvoice_job_partials`, outside any transaction), so that an event stream shows them whichever server it runs on.
///
/// A partial is best effort, as on one server: announcing never blocks a decode (a serial queue of its own, at most
/// `maximumWaitingAnnouncements` waiting, the rest dropped while the database is slow or away), and one whose payload
/// would pass `NOTIFY`'s 8000-byte limit is not announced (a partial is a few words; a job name is at most 200 bytes).
///
/// Thread safety: `Sendable`; the connection is confined and used only by the announcing queue.
public final class PostgresJobPartials: Sendable {
    /// The channel partial hypotheses are announced on; payload `ORIGIN<TAB>JOB<TAB>TRANSCRIPT`.
    public static let channel = "flightvoice_job_partials"
    /// The largest payload announced, in bytes (PostgreSQL refuses 8000 and more).
    static let maximumPayloadBytes = 7_999
    /// Announcements kept while the connection is busy or reconnecting; more are dropped.
    static let maximumWaitingAnnouncements = 256

    /// This announcer's own mark, so that its own announcements are not heard back as another server's.
    private let origin = UUID().uuidString
    private let url: String
    private let backoff: ReconnectBackoff
    private let connection: ConfinedPostgresConnection
    private let queue = DispatchQueue(label: "flightvoice.job-partials")
    private let waiting = Atomic<Int>(0)

    /// Connects to `url` (migrating the schema). Throws a `.connection` `PostgresError` when the server cannot be reached.
    public init(url: String, backoff: ReconnectBackoff = .standard) throws {
        self.url = url
        self.backoff = backoff
        connection = try ConfinedPostgresConnection(url: url, backoff: backoff)
    }

    /// Announces that job `name`'s decode has heard `transcript` so far; returns at once.
    public func announce(job name: String, transcript: String) {
        let payload = "\(origin)\t\(name)\t\(transcript)"
        guard payload.utf8.count <= Self.maximumPayloadBytes, !name.contains("\t") else { return }
        guard waiting.wrappingAdd(1, ordering: .relaxed).newValue <= Self.maximumWaitingAnnouncements else {
            waiting.wrappingSubtract(1, ordering: .relaxed)
            return
        }
        queue.async { [self] in
            defer { waiting.wrappingSubtract(1, ordering: .relaxed) }
            _ = try? connection.withConnection { database in try database.execute("SELECT pg_notify($1, $2)", [Self.channel, payload]).count }
        }
    }

    /// The partial hypotheses other servers announce, as (job, transcript), in the order each server sent them.
    /// Ends when the consumer cancels.
    public func othersPartials() -> AsyncStream<(job: String, transcript: String)?> {
        let origin = origin
        return PostgresListener.stream(url: url, channel: Self.channel, backoff: backoff, resync: { _ in nil }, notification: { payload in
            let fields = payload.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[0] != origin else { return nil }
            return (String(fields[1]), String(fields[2]))
        }, unreachable: { _ in nil })
    }
}
