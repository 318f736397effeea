import FlightCore
import Foundation
import Testing
@testable import FlightStore
import DatabaseTestSupport

@Suite("Schedule revision")
struct ScheduleRevisionTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    static let now = hubInstant("2026-11-30", "12:00")

    @Test("reading flights leaves the revision as it is", arguments: StoreBackend.configured)
    func stableWhileReading(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let before = try store.scheduleRevision()
        _ = try store.flight(number("LX40"), near: Self.now)
        _ = try store.flightNumbers(near: Self.now)
        #expect(try store.scheduleRevision() == before)
    }

    @Test("an import through the same store changes the revision", arguments: StoreBackend.configured)
    func ownWriteChangesIt(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let before = try store.scheduleRevision()
        _ = try store.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        #expect(try store.scheduleRevision() != before)
    }

    @Test("an import by another store on the same file (another process's) changes the revision", arguments: StoreBackend.configured)
    func otherWriterChangesIt(_ backend: StoreBackend) throws {
        let (reader, location) = try fixture.seededStore(backend)
        let writer = try location.open()
        let before = try reader.scheduleRevision()
        _ = try writer.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        let after = try reader.scheduleRevision()
        #expect(after != before)
        #expect(try reader.scheduleRevision() == after)
        #expect(try reader.flight(number("LX40"), near: Self.now)?.flight.gate == "E36")
    }
}
