import FlightStore
import Foundation
import Synchronization

/// Hears schedule changes from every process through `LISTEN flightvoice_schedule`, on a connection and a thread
/// of its own (libpq waits by polling a socket, which must not block a Swift concurrency thread).
///
/// Thread rule: the listening connection never leaves its thread; the stream is the only thing shared.
enum PostgresScheduleChanges {
    /// How long one wait on the socket lasts before the thread checks whether the stream was cancelled, in milliseconds.
    static let pollTimeoutMilliseconds: Int32 = 200

    /// A stream of `.revised` events for every committed change, `.unreachable` while the server is away (retrying
    /// with `backoff`), and a `.revised` after reconnecting when the revision moved meanwhile. Ends when cancelled.
    static func stream(url: String, backoff: ReconnectBackoff) -> AsyncStream<ScheduleChange> {
        AsyncStream(bufferingPolicy: .bufferingNewest(64)) { continuation in
            let stopped = StopFlag()
            let thread = Thread {
                listen(url: url, backoff: backoff, stopped: stopped) { continuation.yield($0) }
                continuation.finish()
            }
            thread.name = "flightvoice-listen"
            thread.start()
            continuation.onTermination = { _ in stopped.stop() }
        }
    }

    /// The listening loop: connect, LISTEN, wait for notifications; on any failure report it, wait, reconnect.
    private static func listen(url: String, backoff: ReconnectBackoff, stopped: StopFlag, report: (ScheduleChange) -> Void) {
        var failures = 0
        var knownRevision: Int64?
        while !stopped.isStopped {
            do throws(PostgresError) {
                let connection = try PostgresConnection(url: url)
                try connection.execute("LISTEN \(PostgresSchema.changeChannel)")
                let revision = Int64(try connection.integer("SELECT revision FROM schedule_revision") ?? 0)
                if let knownRevision, knownRevision != revision { report(.revised(revision: revision)) }
                knownRevision = revision
                failures = 0
                while !stopped.isStopped {
                    var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&descriptor, 1, pollTimeoutMilliseconds)
                    guard ready > 0 else { continue }
                    for notification in try connection.receiveNotifications() where notification.channel == PostgresSchema.changeChannel {
                        let revision = Int64(notification.payload) ?? (knownRevision ?? 0) + 1
                        knownRevision = revision
                        report(.revised(revision: revision))
                    }
                }
            } catch {
                failures += 1
                report(.unreachable(message: error.singleLineMessage))
                stopped.sleep(seconds: backoff.delay(afterFailures: failures))
            }
        }
    }
}

/// Set once when the stream's consumer goes away; the listening thread checks it between waits.
private final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// How finely a back-off sleep checks the flag, in seconds.
    private static let sleepSlice: TimeInterval = 0.05

    var isStopped: Bool { flag.load(ordering: .acquiring) }
    func stop() { flag.store(true, ordering: .releasing) }

    /// Sleeps up to `seconds`, returning early once stopped.
    func sleep(seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while !isStopped, Date() < deadline { Thread.sleep(forTimeInterval: Self.sleepSlice) }
    }
}
