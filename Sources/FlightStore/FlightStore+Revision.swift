import FlightCore
import Foundation

extension FlightStore {
    /// How often `scheduleChanges()` reads the revision of a SQLite file, which cannot push changes.
    public static let changePollInterval: Duration = .milliseconds(500)

    /// Changes with every commit to the file: other connections' commits move SQLite's `PRAGMA data_version`, and this
    /// connection's own writes move its count of changed rows, so the sum of the two never repeats after a change.
    public func scheduleRevision() throws -> Int64 {
        try withConnection { database in (try database.integer("PRAGMA data_version").map(Int64.init) ?? 0) + database.totalChanges }
    }

    /// A `.revised` event whenever the revision moved, found by reading it every `changePollInterval`.
    public func scheduleChanges() -> AsyncStream<ScheduleChange> {
        AsyncStream { continuation in
            let task = Task { [self] in
                var last = try? scheduleRevision()
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.changePollInterval)
                    guard let current = try? scheduleRevision(), current != last else { continue }
                    last = current
                    continuation.yield(.revised(revision: current))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
