import FlightCore
import Foundation

extension FlightStore {
    /// Every row of the four tables, ids included.
    public func snapshot() throws -> ScheduleSnapshot {
        try withConnection { database in
            // A deferred transaction: one consistent view of the four tables, without taking the write lock.
            try database.execute("BEGIN")
            defer { try? database.execute("COMMIT") }
            return try database.snapshot()
        }
    }

    /// Replaces every row of the four tables with `snapshot`'s, in one transaction.
    public func replaceSchedule(with snapshot: ScheduleSnapshot) throws {
        try withConnection { database in try database.transaction { try database.replaceRows(with: snapshot) } }
    }

    /// The built-in day as a snapshot, read once from an in-memory database: how other backends are seeded.
    public static func builtInDay() throws -> ScheduleSnapshot {
        try builtInDaySnapshot.get()
    }

    private static let builtInDaySnapshot = Result { try FlightStore.inMemory().snapshot() }
}

extension ScheduleSnapshot {
    /// The tables, children first, so rows can be deleted without breaking a foreign key.
    package static let tablesInDeletionOrder = ["codeshares", "flights", "statuses", "airlines"]

    /// The INSERT statements that write every row of `snapshot`, parents first, with the backend's parameter markers.
    package static func insertions(of snapshot: ScheduleSnapshot, marker: (Int) -> String) -> [(sql: String, values: [SQLiteValue])] {
        func insert(_ table: String, _ columns: String, count: Int) -> String {
            "INSERT INTO \(table) (\(columns)) VALUES (\((1...count).map(marker).joined(separator: ", ")))"
        }
        let airline = insert("airlines", "iata, icao, name, callsign, spoken_names", count: 5)
        let status = insert("statuses", "status, direction, description", count: 3)
        let movement = insert("flights", MovementRow.columns.replacingOccurrences(of: "f.", with: ""), count: 14)
        let codeshare = insert("codeshares", "flight_id, airline, number", count: 3)
        return snapshot.airlines.map { (airline, [.text($0.iata), .optionalText($0.icao), .text($0.name), .optionalText($0.callsign), .text($0.spokenNames)]) }
            + snapshot.statuses.map { (status, [.text($0.status), .optionalText($0.direction), .text($0.description)]) }
            + snapshot.movements.map { row in
                (movement, [.integer(Int64(row.id)), .text(row.airline), .integer(Int64(row.number)), .text(row.direction), .text(row.airport),
                            .text(row.city), .text(row.serviceDate), .text(row.scheduled), .optionalInteger(row.estimatedOffset),
                            .optionalText(row.terminal), .optionalText(row.gate), .optionalText(row.previousGate), .optionalText(row.belt),
                            .text(row.status)])
            }
            + snapshot.codeshares.map { (codeshare, [.integer(Int64($0.flightID)), .text($0.airline), .integer(Int64($0.number))]) }
    }
}
