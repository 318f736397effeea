import FlightStore
import Foundation

/// Hears `NOTIFY`s on one channel from every process, on a connection and a thread of its own (libpq waits by
/// polling a socket, which must not block a Swift concurrency thread), reconnecting with back-off.
///
/// Thread rule: the listening connection never leaves its thread; the stream is the only thing shared.
package enum PostgresListener {
    /// How long one wait on the socket lasts before the thread checks whether the stream was cancelled, in milliseconds.
    static let pollTimeoutMilliseconds: Int32 = 200
    /// Events kept for a slow consumer; older ones are dropped (each says only "look again").
    static let bufferedEvents = 64

    /// A stream of `notification(payload)` for every `NOTIFY` on `channel`, `unreachable(error)` while the server is
    /// away (retrying with `backoff`), and `resync(connection)` after every reconnection, since notifications sent
    /// meanwhile were lost. Ends when the consumer cancels. `channel` is a fixed lower-case identifier.
    package static func stream<Element: Sendable>(
        url: String, channel: String, backoff: ReconnectBackoff,
        resync: @escaping @Sendable (PostgresConnection) throws(PostgresError) -> Element,
        notification: @escaping @Sendable (String) -> Element,
        unreachable: @escaping @Sendable (PostgresError) -> Element
    ) -> AsyncStream<Element> {
        precondition(channel.allSatisfy { $0.isASCII && ($0.isLowercase || $0 == "_") }, "a channel is a fixed identifier")
        return AsyncStream(bufferingPolicy: .bufferingNewest(bufferedEvents)) { continuation in
            let stopped = ThreadStopFlag()
            let thread = Thread {
                var failures = 0
                var connectedBefore = false
                while !stopped.isStopped {
                    do throws(PostgresError) {
                        let connection = try PostgresConnection(url: url)
                        try connection.execute("LISTEN \(channel)")
                        if connectedBefore { continuation.yield(try resync(connection)) }
                        connectedBefore = true
                        failures = 0
                        while !stopped.isStopped {
                            var descriptor = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
                            guard poll(&descriptor, 1, pollTimeoutMilliseconds) > 0 else { continue }
                            for received in try connection.receiveNotifications() where received.channel == channel {
                                continuation.yield(notification(received.payload))
                            }
                        }
                    } catch {
                        failures += 1
                        continuation.yield(unreachable(error))
                        stopped.sleep(seconds: backoff.delay(afterFailures: failures))
                    }
                }
                continuation.finish()
            }
            thread.name = "flightvoice-listen-\(channel)"
            thread.start()
            continuation.onTermination = { _ in stopped.stop() }
        }
    }
}
