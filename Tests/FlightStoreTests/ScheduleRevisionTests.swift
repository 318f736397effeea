import FlightCore
import Foundation
import Testing
@testable import FlightStore

@Suite("Schedule revision")
struct ScheduleRevisionTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    static let now = hubInstant("2026-11-30", "12:00")

    @Test("reading flights leaves the revision as it is")
    func stableWhileReading() throws {
        let store = try FlightStore(path: directory.databasePath)
        let before = try store.scheduleRevision()
        _ = try store.flight(number("LX40"), near: Self.now)
        _ = try store.flightNumbers(near: Self.now)
        #expect(try store.scheduleRevision() == before)
    }

    @Test("an import through the same store changes the revision")
    func ownWriteChangesIt() throws {
        let store = try FlightStore(path: directory.databasePath)
        let before = try store.scheduleRevision()
        _ = try store.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        #expect(try store.scheduleRevision() != before)
    }

    @Test("an import by another store on the same file (another process's) changes the revision")
    func otherWriterChangesIt() throws {
        let reader = try FlightStore(path: directory.databasePath)
        let writer = try FlightStore(path: directory.databasePath)
        let before = try reader.scheduleRevision()
        _ = try writer.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        let after = try reader.scheduleRevision()
        #expect(after != before)
        #expect(try reader.scheduleRevision() == after)
        #expect(try reader.flight(number("LX40"), near: Self.now)?.flight.gate == "E36")
    }
}
