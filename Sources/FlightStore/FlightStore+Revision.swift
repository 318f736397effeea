import FlightCore
import Foundation

extension FlightStore {
    /// How often `scheduleChanges()` reads the revision of a SQLite file, which cannot push changes.
    public static let changePollSeconds: TimeInterval = 0.5

    /// Changes with every commit to the file: other connections' commits move SQLite's `PRAGMA data_version`, and this
    /// connection's own writes move its count of changed rows, so the sum of the two never repeats after a change.
    public func scheduleRevision() throws -> Int64 {
        try withConnection { database in (try database.integer("PRAGMA data_version").map(Int64.init) ?? 0) + database.totalChanges }
    }

    /// A `.revised` event whenever the revision moved, found by reading it every `changePollSeconds` on a thread of
    /// the stream's own: a task on the cooperative pool could be held off for seconds by blocking work on its few
    /// threads, and a kiosk must hear a gate change within a second.
    public func scheduleChanges() -> AsyncStream<ScheduleChange> {
        AsyncStream { continuation in
            let stopped = ThreadStopFlag()
            let poller = Thread { [self] in
                var last = try? scheduleRevision()
                while !stopped.isStopped {
                    stopped.sleep(seconds: Self.changePollSeconds)
                    guard !stopped.isStopped, let current = try? scheduleRevision(), current != last else { continue }
                    last = current
                    continuation.yield(.revised(revision: current))
                }
                continuation.finish()
            }
            poller.name = "FlightVoice.schedule-poll"
            continuation.onTermination = { _ in stopped.stop() }
            poller.start()
        }
    }
}
