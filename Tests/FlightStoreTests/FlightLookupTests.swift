import FlightCore
import Foundation
import Testing
@testable import FlightStore
import DatabaseTestSupport

@Suite("Looking up flights")
struct FlightLookupTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    @Test("LX40 from the seed: every field, placed today", arguments: StoreBackend.configured)
    func seedLX40(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let now = hubInstant("2026-11-30", "11:00")
        let lookup = try #require(try store.flight(number("LX 040"), near: now))
        let flight = lookup.flight
        #expect(lookup.requested == number("LX40"))
        #expect(!lookup.isCodeshare)
        #expect(flight.number == number("LX40"))
        #expect(flight.airline.iata == "LX")
        #expect(flight.airline.name == "Swiss")
        #expect(flight.direction == .departure)
        #expect(flight.airport == Airport(iata: "JFK", city: "New York"))
        #expect(flight.scheduled == hubInstant("2026-11-30", "13:05"))
        #expect(flight.terminal == "E")
        #expect(flight.gate == "E34")
        #expect(flight.status == .boarding)
        #expect(flight.belt == nil)
    }

    @Test("an unknown number finds nothing", arguments: StoreBackend.configured)
    func unknownNumber(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        #expect(try store.flight(number("ZQ9876"), near: Date()) == nil)
    }

    @Test("a codeshare number finds the operating flight and says so", arguments: StoreBackend.configured)
    func codeshareLookup(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let now = hubInstant("2026-11-30", "15:00")
        let summary = try store.importCSV(text: csv(
            "ZQ 100,Test Air,departure,ORD,Chicago,16:20,16:35,E,E12,,delayed,9Q53 LX 3100"
        ), now: now)
        #expect(summary.inserted == 1)
        #expect(summary.airlinesAdded == ["ZQ", "9Q"])
        let lookup = try #require(try store.flight(number("9Q53"), near: now))
        #expect(lookup.requested == number("9Q53"))
        #expect(lookup.isCodeshare)
        #expect(lookup.flight.number == number("ZQ100"))
        #expect(lookup.flight.airline.name == "Test Air")
        #expect(lookup.flight.codeshares == [number("9Q53"), number("LX3100")])
        #expect(lookup.flight.scheduled == hubInstant("2026-11-30", "16:20"))
        #expect(lookup.flight.estimated == hubInstant("2026-11-30", "16:35"))
        #expect(try store.airlineDirectory().airline(iata: "9Q")?.name == "9Q")
        #expect(try store.flight(number("LX3100"), near: now)?.flight.number == number("ZQ100"))
    }

    @Test("a daily flight at 00:30 asked at 23:50 is tomorrow's", arguments: StoreBackend.configured)
    func nearestIsTomorrow(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        _ = try store.importCSV(text: csv("ZQ 1,Test Air,departure,CDG,Paris,00:30,00:45,1,A1,,delayed,"))
        let flight = try #require(try store.flight(number("ZQ1"), near: hubInstant("2026-11-30", "23:50"))?.flight)
        #expect(flight.scheduled == hubInstant("2026-12-01", "00:30"))
        #expect(flight.estimated == hubInstant("2026-12-01", "00:45"))
    }

    @Test("a daily flight at 23:30 asked at 00:10 is yesterday's", arguments: StoreBackend.configured)
    func nearestIsYesterday(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        _ = try store.importCSV(text: csv("ZQ 2,Test Air,arrival,LHR,London,23:30,,2,,14,landed,"))
        let flight = try #require(try store.flight(number("ZQ2"), near: hubInstant("2026-12-01", "00:10"))?.flight)
        #expect(flight.scheduled == hubInstant("2026-11-30", "23:30"))
        #expect(flight.belt == "14")
    }

    @Test("dated rows sit on their date; the instance nearest to now wins over a daily row", arguments: StoreBackend.configured)
    func datedRows(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        _ = try store.importCSV(text: csv(
            "ZQ 3,Test Air,departure,CDG,Paris,20:00,,1,DAILY,,on time,",
            "ZQ 3,Test Air,departure,CDG,Paris,2026-12-01T08:00+01:00,,1,DATED,,on time,"
        ))
        // 22:00 on the 30th: the daily 20:00 of today (2 h ago) beats the dated 08:00 tomorrow (10 h ahead).
        let evening = try #require(try store.flight(number("ZQ3"), near: hubInstant("2026-11-30", "22:00"))?.flight)
        #expect(evening.gate == "DAILY")
        #expect(evening.scheduled == hubInstant("2026-11-30", "20:00"))
        // 07:00 on the 1st: the dated 08:00 (1 h ahead) wins.
        let morning = try #require(try store.flight(number("ZQ3"), near: hubInstant("2026-12-01", "07:00"))?.flight)
        #expect(morning.gate == "DATED")
        #expect(morning.scheduled == hubInstant("2026-12-01", "08:00"))
        // Days later the dated row is out of the window; the daily row remains.
        let later = try #require(try store.flight(number("ZQ3"), near: hubInstant("2026-12-05", "07:00"))?.flight)
        #expect(later.gate == "DAILY")
    }

    @Test("a dated row alone is found only from the day before to the day after", arguments: StoreBackend.configured)
    func datedRowWindow(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        _ = try store.importCSV(text: csv("ZQ 4,Test Air,departure,CDG,Paris,2026-12-01T08:00:00Z,,1,B4,,scheduled,"))
        #expect(try store.flight(number("ZQ4"), near: hubInstant("2026-12-01", "12:00"))?.flight.scheduled == hubInstant("2026-12-01", "09:00"))
        #expect(try store.flight(number("ZQ4"), near: hubInstant("2026-11-30", "00:05")) != nil)
        #expect(try store.flight(number("ZQ4"), near: hubInstant("2026-11-29", "23:55")) == nil)
        #expect(try store.flightNumbers(near: hubInstant("2026-12-03", "12:00")).contains(number("ZQ4")) == false)
        #expect(try store.flightNumbers(near: hubInstant("2026-12-02", "12:00")).contains(number("ZQ4")))
    }

    @Test("suggestions: same airline nearest first, numbers sharing leading digits, then other airlines; no duplicates", arguments: StoreBackend.configured)
    func suggestionsOrder(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        let now = hubInstant("2026-11-30", "12:00")
        _ = try store.importCSV(text: csv(
            "ZQ 40,Test Air,departure,CDG,Paris,12:40,,1,A40,,on time,",
            "ZQ 41,Test Air,departure,CDG,Paris,12:41,,1,A41,,on time,ZQ43",
            "ZQ 44,Test Air,departure,CDG,Paris,12:44,,1,A44,,on time,",
            "ZQ 48,Test Air,departure,CDG,Paris,12:48,,1,A48,,on time,",
            "ZQ 4,Test Air,departure,CDG,Paris,12:04,,1,A4,,on time,",
            "ZQ 400,Test Air,departure,CDG,Paris,14:00,,1,B400,,on time,",
            "ZQ 60,Test Air,departure,CDG,Paris,16:00,,1,C60,,on time,",
            "YQ 42,Other Air,arrival,LHR,London,12:42,,1,,3,expected,",
            "YQ 7,Other Air,arrival,LHR,London,12:07,,1,,3,expected,WQ42"
        ), now: now)
        func suggested(_ asked: String, limit: Int = 20) throws -> [String] {
            try store.suggestions(for: number(asked), near: now, limit: limit).map(\.requested.canonical)
        }
        // 41 and 43 are the same movement (43 is ZQ41's codeshare): listed once, under the first-ranked number.
        #expect(try suggested("ZQ42") == ["ZQ41", "ZQ40", "ZQ44", "ZQ48", "ZQ4", "WQ42", "YQ42"])
        #expect(try suggested("ZQ42", limit: 3) == ["ZQ41", "ZQ40", "ZQ44"])
        // Nothing within 10 of 4, but 40…48 and 400 start with its digit (a misheard "forty" or "four hundred").
        #expect(try suggested("ZQ4") == ["ZQ40", "ZQ41", "ZQ44", "ZQ48", "ZQ400"])
        #expect(try suggested("ZQ40").contains("ZQ40") == false)
        #expect(try suggested("ZQ40").first == "ZQ41")
        #expect(try suggested("ZQ42", limit: 0).isEmpty)
        let codeshare = try #require(try store.suggestions(for: number("ZQ42"), near: now, limit: 20).first { $0.requested == number("WQ42") })
        #expect(codeshare.flight.number == number("YQ7"))
        #expect(codeshare.isCodeshare)
    }

    @Test("flight numbers: operating and codeshare, sorted and unique", arguments: StoreBackend.configured)
    func flightNumbers(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        let now = hubInstant("2026-11-30", "12:00")
        _ = try store.importCSV(text: csv(
            "ZQ 41,Test Air,departure,CDG,Paris,12:41,,1,A41,,on time,YQ7 9Q1",
            "YQ 7,Other Air,arrival,LHR,London,12:07,,1,,3,expected,",
            "ZQ 2,Test Air,departure,CDG,Paris,2026-12-10T08:00+01:00,,1,A41,,on time,"
        ), now: now)
        #expect(try store.flightNumbers(near: now) == [number("9Q1"), number("YQ7"), number("ZQ41")])
    }

    @Test("the airline directory reads names, codes, callsigns and spoken names", arguments: StoreBackend.configured)
    func airlineDirectory(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let directory = try store.airlineDirectory()
        let swiss = try #require(directory.airline(iata: "LX"))
        #expect(swiss.icao == "SWR")
        #expect(swiss.name == "Swiss")
        #expect(swiss.spokenNames.contains("swiss air"))
        #expect(swiss.spokenNames.allSatisfy { !$0.isEmpty })
        #expect(directory.airline(icao: "BAW")?.callsign == "Speedbird")
    }

    @Test("many tasks looking up at once all get answers", arguments: StoreBackend.configured)
    func concurrentLookups(_ backend: StoreBackend) async throws {
        let store = try fixture.seededStore(backend).store
        let now = hubInstant("2026-11-30", "12:00")
        let answers = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    switch index % 4 {
                    case 0: return try store.flight(number("LX40"), near: now)?.flight.gate == "E34"
                    case 1: return try store.flightNumbers(near: now).contains(number("LX40"))
                    case 2: return try store.suggestions(for: number("LX41"), near: now, limit: 3).contains { $0.requested == number("LX40") }
                    default: return try store.airlineDirectory().airline(iata: "LX") != nil
                    }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(answers.count == 200)
        #expect(answers.allSatisfy { $0 })
    }
}
