import FlightCore
import Foundation
import Testing
@testable import FlightStore
import DatabaseTestSupport

@Suite("Importing CSV")
struct CSVImportTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    static let now = hubInstant("2026-11-30", "12:00")

    @Test("new rows are inserted, rows with the same key updated in place with their codeshares replaced", arguments: StoreBackend.configured)
    func insertsAndUpdates(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let before = try store.status()
        let first = try store.importCSV(text: csv(
            "ZQ 100,Test Air,departure,ORD,Chicago,16:20,,E,E12,,on time,9Q53 9Q54",
            "ZQ 101,Test Air,arrival,ORD,Chicago,07:10,07:02,E,,21,landed,"
        ), now: Self.now)
        #expect(first == CSVImportSummary(inserted: 2, updated: 0, airlinesAdded: ["ZQ", "9Q"]))
        let afterFirst = try store.status()
        #expect(afterFirst.flights == before.flights + 2)
        #expect(afterFirst.codeshares == before.codeshares + 2)

        let second = try store.importCSV(text: csv(
            "ZQ100,Test Air,departure,ORD,Chicago,16:20,17:05,E,E16,,delayed,9Q55",
            "LX 040,Swiss,departure,JFK,New York,13:05,,E,E34,,final call,"
        ), now: Self.now)
        #expect(second == CSVImportSummary(inserted: 0, updated: 2, airlinesAdded: []))
        let afterSecond = try store.status()
        #expect(afterSecond.flights == afterFirst.flights)
        #expect(afterSecond.codeshares == afterFirst.codeshares - 1)

        let flight = try #require(try store.flight(number("ZQ100"), near: Self.now)?.flight)
        #expect(flight.gate == "E16")
        #expect(flight.previousGate == "E12")
        #expect(flight.gateChanged)
        #expect(flight.status == .delayed)
        #expect(flight.estimated == hubInstant("2026-11-30", "17:05"))
        #expect(flight.codeshares == [number("9Q55")])
        #expect(try store.flight(number("9Q53"), near: Self.now) == nil)
        #expect(try store.flight(number("LX40"), near: Self.now)?.flight.status == .finalCall)
        #expect(try store.flight(number("ZQ101"), near: Self.now)?.flight.estimated == hubInstant("2026-11-30", "07:02"))
    }

    @Test("ISO 8601 times are converted to hub local time and stored on their local date", arguments: StoreBackend.configured)
    func isoTimes(_ backend: StoreBackend) throws {
        let (store, location) = try fixture.seededStore(backend)
        try store.replaceSchedule(with: try emptySchedule(of: store))
        _ = try store.importCSV(text: csv(
            "ZQ 7,Test Air,departure,JFK,New York,2026-11-30T22:30:00Z,2026-12-01T00:10:00+01:00,E,E1,,delayed,"
        ), now: Self.now)
        // 22:30 UTC is 23:30 in Zurich on the 30th; the estimate is 40 minutes later, after midnight.
        let flight = try #require(try store.flight(number("ZQ7"), near: hubInstant("2026-11-30", "20:00"))?.flight)
        #expect(flight.scheduled == hubInstant("2026-11-30", "23:30"))
        #expect(flight.estimated == hubInstant("2026-12-01", "00:10"))
        #expect(try fixture.text("SELECT service_date || ' ' || scheduled || ' ' || estimated_offset FROM flights WHERE airline = 'ZQ'", in: location) == "2026-11-30 23:30 40")
    }

    @Test("an HH:MM estimate more than 12 hours before the schedule is on the next day", arguments: StoreBackend.configured)
    func estimateAfterMidnight(_ backend: StoreBackend) throws {
        let store = try fixture.emptyStore(backend)
        _ = try store.importCSV(text: csv(
            "ZQ 8,Test Air,departure,JFK,New York,23:50,00:20,E,E1,,delayed,",
            "ZQ 9,Test Air,departure,JFK,New York,00:10,23:55,E,E1,,on time,"
        ), now: Self.now)
        let late = try #require(try store.flight(number("ZQ8"), near: hubInstant("2026-11-30", "22:00"))?.flight)
        #expect(late.estimated == hubInstant("2026-12-01", "00:20"))
        let early = try #require(try store.flight(number("ZQ9"), near: hubInstant("2026-12-01", "00:00"))?.flight)
        #expect(early.scheduled == hubInstant("2026-12-01", "00:10"))
        #expect(early.estimated == hubInstant("2026-11-30", "23:55"))
    }

    @Test("RFC 4180: quoted fields with commas, doubled quotes and line breaks; CRLF; any column order", arguments: StoreBackend.configured)
    func quotedFields(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let text = "status,flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,codeshares\r\n"
            + "on time,ZQ 200,\"Test, \"\"Quoted\"\" Air\",departure,JFK,\"New York, NY\",10:00,,E,E1,,\r\n"
            + "on time,ZQ 201,Test Air,departure,EWR,\"Newark\nLiberty\",11:00,,E,E2,,\r\n"
            + "\r\n"
        let summary = try store.importCSV(text: text, now: Self.now)
        #expect(summary.inserted == 2)
        #expect(try store.flight(number("ZQ200"), near: Self.now)?.flight.airport.city == "New York, NY")
        #expect(try store.airlineDirectory().airline(iata: "ZQ")?.name == "Test, \"Quoted\" Air")
        #expect(try store.flight(number("ZQ201"), near: Self.now)?.flight.airport.city == "Newark\nLiberty")
    }

    @Test("importing a file names the file in errors and reads it like text", arguments: StoreBackend.configured)
    func importFile(_ backend: StoreBackend) throws {
        let store = try fixture.seededStore(backend).store
        let path = fixture.path("flights.csv")
        try csv("ZQ 300,Test Air,departure,JFK,New York,10:00,,E,E1,,on time,").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try store.importCSV(contentsOf: path, now: Self.now).inserted == 1)
        try csv("ZQ 300,Test Air,departure,JFK,New York,10:00,,E,E1,,boarded,").write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: CSVImportError.self) { try store.importCSV(contentsOf: path, now: Self.now) }
        #expect(error?.description.hasPrefix("\(path):2: column status:") == true)
        #expect(throws: FlightStoreError.self) { try store.importCSV(contentsOf: fixture.path("missing.csv")) }
    }

    /// A CSV that must be refused, and where.
    struct BadImport: Sendable, CustomTestStringConvertible {
        let name: String
        let text: String
        let line: Int
        let column: String?
        let mentions: String
        var testDescription: String { name }
    }

    static let valid = "ZQ 500,Test Air,departure,JFK,New York,10:00,,E,E1,,on time,9Q500"

    static let badImports: [BadImport] = [
        BadImport(name: "bad flight number", text: csv(valid, "L40X,Test Air,departure,JFK,New York,10:00,,E,E1,,on time,"),
                  line: 3, column: "flight", mentions: "L40X"),
        BadImport(name: "unknown status", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,10:00,,E,E1,,boarded,"),
                  line: 3, column: "status", mentions: "boarded"),
        BadImport(name: "status of the other direction", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,10:00,,E,E1,,landed,"),
                  line: 3, column: "status", mentions: "arrivals"),
        BadImport(name: "bad scheduled time", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,25:00,,E,E1,,on time,"),
                  line: 3, column: "scheduled", mentions: "25:00"),
        BadImport(name: "ISO time without offset", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,2026-11-30T10:00,,E,E1,,on time,"),
                  line: 3, column: "scheduled", mentions: "offset"),
        BadImport(name: "bad estimated time", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,10:00,soon,E,E1,,on time,"),
                  line: 3, column: "estimated", mentions: "soon"),
        BadImport(name: "bad direction", text: csv(valid, "ZQ 501,Test Air,outbound,JFK,New York,10:00,,E,E1,,on time,"),
                  line: 3, column: "direction", mentions: "outbound"),
        BadImport(name: "bad airport", text: csv(valid, "ZQ 501,Test Air,departure,New York,New York,10:00,,E,E1,,on time,"),
                  line: 3, column: "airport", mentions: "IATA"),
        BadImport(name: "bad codeshare", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,10:00,,E,E1,,on time,9Q1 X"),
                  line: 3, column: "codeshares", mentions: "'X'"),
        BadImport(name: "unknown header column", text: csv(valid).replacingOccurrences(of: ",gate,", with: ",gates,"),
                  line: 1, column: "gates", mentions: "unknown column"),
        BadImport(name: "missing header column", text: csv(valid).replacingOccurrences(of: ",belt,", with: ","),
                  line: 1, column: nil, mentions: "belt"),
        BadImport(name: "repeated header column", text: csv(valid).replacingOccurrences(of: ",belt,", with: ",gate,"),
                  line: 1, column: "gate", mentions: "twice"),
        BadImport(name: "too few fields", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York,10:00,,E,E1,on time,"),
                  line: 3, column: nil, mentions: "11 fields"),
        BadImport(name: "unquoted comma makes too many fields", text: csv(valid, "ZQ 501,Test Air,departure,JFK,New York, NY,10:00,,E,E1,,on time,"),
                  line: 3, column: nil, mentions: "13 fields"),
        BadImport(name: "line counted after a quoted line break", text: csv("ZQ 500,Test Air,departure,JFK,\"New\nYork\",10:00,,E,E1,,on time,",
                                                                            "ZQ 501,Test Air,departure,JFK,New York,10:00,,E,E1,,closed,"),
                  line: 4, column: "status", mentions: "closed"),
        BadImport(name: "unterminated quote", text: csv(valid, "ZQ 501,\"Test Air,departure,JFK,New York,10:00,,E,E1,,on time,"),
                  line: 3, column: nil, mentions: "never closed"),
        BadImport(name: "stray quote", text: csv(valid, "ZQ 501,Test \"Air\",departure,JFK,New York,10:00,,E,E1,,on time,"),
                  line: 3, column: nil, mentions: "quote"),
        BadImport(name: "the same flight twice", text: csv(valid, valid),
                  line: 3, column: nil, mentions: "line 2"),
        BadImport(name: "empty file", text: "", line: 1, column: nil, mentions: "header"),
    ]

    @Test("a bad row is refused with its line and column, and nothing is written", arguments: StoreBackend.configured, badImports)
    func badImport(_ backend: StoreBackend, _ bad: BadImport) throws {
        let store = try fixture.seededStore(backend).store
        let before = try store.status()
        let error = #expect(throws: CSVImportError.self) { try store.importCSV(text: bad.text, now: Self.now) }
        #expect(error?.line == bad.line)
        #expect(error?.column == bad.column)
        #expect(error?.problem.contains(bad.mentions) == true, "\(String(describing: error))")
        #expect(try store.status() == before)
        #expect(try store.flight(number("ZQ500"), near: Self.now) == nil)
        #expect(try store.airlineDirectory().airline(iata: "ZQ") == nil)
    }

    @Test("ISO 8601 parsing accepts Z and offsets with or without a colon, and rejects impossible dates")
    func isoParsing() {
        let expected = Date(timeIntervalSince1970: 1_796_040_600)  // 2026-11-30T12:10:00Z
        #expect(ImportTime.parseISO8601("2026-11-30T12:10:00Z") == expected)
        #expect(ImportTime.parseISO8601("2026-11-30T12:10Z") == expected)
        #expect(ImportTime.parseISO8601("2026-11-30T13:10:00+01:00") == expected)
        #expect(ImportTime.parseISO8601("2026-11-30 13:10+0100") == expected)
        #expect(ImportTime.parseISO8601("2026-11-30T07:10:00.250-05") == expected)
        #expect(ImportTime.parseISO8601("2026-11-30T12:10:00") == nil)
        #expect(ImportTime.parseISO8601("2026-02-30T12:10:00Z") == nil)
        #expect(ImportTime.parseISO8601("2026-11-30T24:10:00Z") == nil)
        #expect(ImportTime.parseISO8601("2026-11-30T12:10:00Zjunk") == nil)
    }

    @Test("CSV records keep their starting line; a trailing empty line and a byte order mark are fine")
    func csvRecords() throws {
        let records = try CSVReader.records(in: "\u{FEFF}a,b\r\n\"x\ny\",\"\"\"q\"\"\"\r\n\r\nlast,\n")
        #expect(records == [
            CSVRecord(line: 1, fields: ["a", "b"]),
            CSVRecord(line: 2, fields: ["x\ny", "\"q\""]),
            CSVRecord(line: 5, fields: ["last", ""]),
        ])
    }

    @Test("codeshare fields: spaces between code and digits are joined")
    func codeshareTokens() {
        #expect(CSVRowImporter<SQLiteConnection>.codeshareTokens("UA 53  AC6617, 4U 812") == ["UA53", "AC6617", "4U812"])
    }
}
