import FlightCore
import Foundation
@testable import FlightStore

/// A fresh directory under the system temporary directory, removed when the value goes away.
/// Swift Testing makes a new suite instance per test, so every test that holds one gets its own database file.
final class TemporaryDirectory: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flightvoice-store-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory (nothing is created).
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The path tests use for their database.
    var databasePath: String { path("flights.sqlite") }
}

/// The instant of hub-local "YYYY-MM-DD" "HH:MM".
func hubInstant(_ day: String, _ time: String) -> Date {
    HubSchedule.instant(on: LocalDay(text: day)!, at: LocalTime(text: time)!)
}

/// A flight number the test knows to be well formed.
func number(_ text: String) -> FlightNumber { FlightNumber(parsing: text)! }

/// The header of import files, in the documented order.
let csvHeader = "flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares"

/// A CSV text from a header and rows, lines ended by "\n".
func csv(_ rows: String...) -> String { ([csvHeader] + rows).joined(separator: "\n") + "\n" }

/// The schedule of `store` without its flights: the seed's airlines and statuses, so a test controls which flights exist.
func emptySchedule(of store: any FlightDatabase) throws -> ScheduleSnapshot {
    let seed = try store.snapshot()
    return ScheduleSnapshot(airlines: seed.airlines, statuses: seed.statuses, movements: [], codeshares: [])
}
