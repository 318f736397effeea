import FlightCore

extension FlightStore: ScheduleRevisionSource {
    /// Changes with every commit to the file: other connections' commits move SQLite's `PRAGMA data_version`, and this
    /// connection's own writes move its count of changed rows, so the sum of the two never repeats after a change.
    public func scheduleRevision() throws -> Int64 {
        try withConnection { database in (try database.integer("PRAGMA data_version").map(Int64.init) ?? 0) + database.totalChanges }
    }
}
