import FlightCore
import Foundation
import Testing
@testable import FlightStore

@Suite("Opening, creating and resetting databases")
struct FlightStoreOpeningTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test("a missing file is created from the seed, with parent directories, in WAL mode")
    func createsFromSeed() throws {
        let path = directory.path("nested/deeper/flights.sqlite")
        let store = try FlightStore(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        let status = try store.status()
        #expect(status.path == path)
        #expect(status.schemaVersion == 1)
        #expect(status.journalMode == "wal")
        #expect(status.flights > 0)
        #expect(status.flights == status.departures + status.arrivals)
        #expect(status.airlines >= 2)
        #expect(status.flightsByStatus.values.reduce(0, +) == status.flights)
        #expect(Set(status.flightsByStatus.keys) == Set(FlightStatus.allCases.map(\.rawValue)))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path("nested/deeper")).filter { $0.contains("creating") }
        #expect(leftovers.isEmpty)
    }

    @Test("several tasks creating the same missing file at once all open one complete database")
    func concurrentCreation() async throws {
        let path = directory.databasePath
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { try FlightStore(path: path).status().flights } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.count == 8)
        #expect(Set(counts).count == 1)
        #expect(counts[0] > 0)
    }

    @Test("an existing database is reopened with its data")
    func reopensExisting() throws {
        do {
            let store = try FlightStore(path: directory.databasePath)
            _ = try store.importCSV(text: csv("ZQ 901,Test Air,departure,CDG,Paris,10:00,,1,A1,,on time,"))
        }
        let reopened = try FlightStore(path: directory.databasePath)
        #expect(try reopened.flight(number("ZQ901"), near: hubInstant("2026-11-30", "09:00"))?.flight.gate == "A1")
    }

    @Test("a file of garbage bytes is refused with its path and SQLite's message, and left untouched")
    func corruptFile() throws {
        let path = directory.databasePath
        let garbage = Data((0..<8_192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try garbage.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: FlightStoreError.self) { try FlightStore(path: path) }
        let text = error.map(String.init(describing:)) ?? ""
        #expect(text.contains(path))
        #expect(text.contains("file is not a database"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test("a text file is refused")
    func textFile() throws {
        try Data(String(repeating: "flight,airline\nLX40,Swiss\n", count: 100).utf8).write(to: URL(fileURLWithPath: directory.databasePath))
        let error = #expect(throws: FlightStoreError.self) { try FlightStore(path: directory.databasePath) }
        #expect(error.map(String.init(describing:))?.contains(directory.databasePath) == true)
    }

    @Test("another application's SQLite database is refused and not switched to WAL")
    func foreignSQLiteDatabase() throws {
        do {
            let database = try SQLiteConnection(path: directory.databasePath, mode: .readWriteCreate)
            try database.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        }
        let error = #expect(throws: FlightStoreError.self) { try FlightStore(path: directory.databasePath) }
        guard case .notAFlightVoiceDatabase(let path, let reason)? = error else { Issue.record("wrong error \(String(describing: error))"); return }
        #expect(path == directory.databasePath)
        #expect(reason.contains("user_version"))
        let database = try SQLiteConnection(path: directory.databasePath, mode: .readWrite)
        #expect(try database.text("PRAGMA journal_mode") == "delete")
    }

    @Test("the right version without the FlightVoice tables is refused")
    func missingTables() throws {
        do {
            let database = try SQLiteConnection(path: directory.databasePath, mode: .readWriteCreate)
            try database.execute("PRAGMA user_version = 1; CREATE TABLE airlines (iata TEXT, icao TEXT, name TEXT, callsign TEXT, spoken_names TEXT)")
        }
        let error = #expect(throws: FlightStoreError.self) { try FlightStore(path: directory.databasePath) }
        #expect(error.map(String.init(describing:))?.contains("no statuses table") == true)
    }

    @Test("an empty file is refused rather than silently seeded")
    func emptyFile() throws {
        try Data().write(to: URL(fileURLWithPath: directory.databasePath))
        let error = #expect(throws: FlightStoreError.self) { try FlightStore(path: directory.databasePath) }
        #expect(error.map(String.init(describing:))?.contains("empty SQLite database") == true)
    }

    @Test("default path: FLIGHTVOICE_DB, then XDG_DATA_HOME, then HOME")
    func defaultPathPrecedence() {
        let everything = ["FLIGHTVOICE_DB": "/srv/fv.sqlite", "XDG_DATA_HOME": "/data", "HOME": "/home/ana"]
        #expect(FlightStore.defaultPath(environment: everything) == "/srv/fv.sqlite")
        #expect(FlightStore.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ana"]) == "/data/flightvoice/flights.sqlite")
        #expect(FlightStore.defaultPath(environment: ["HOME": "/home/ana"]) == "/home/ana/.local/share/flightvoice/flights.sqlite")
        #expect(FlightStore.defaultPath(environment: ["FLIGHTVOICE_DB": "", "XDG_DATA_HOME": "", "HOME": "/home/ana"])
                == "/home/ana/.local/share/flightvoice/flights.sqlite")
        #expect(FlightStore.defaultPath(environment: ["XDG_DATA_HOME": "relative/dir", "HOME": "/home/ana"])
                == "/home/ana/.local/share/flightvoice/flights.sqlite")
    }

    @Test("reset restores the seed and drops imported flights")
    func resetRestoresSeed() throws {
        let store = try FlightStore(path: directory.databasePath)
        let seeded = try store.status()
        let now = hubInstant("2026-11-30", "12:00")
        _ = try store.importCSV(text: csv(
            "LX40,Swiss,departure,JFK,New York,13:05,,E,E99,,delayed,",
            "ZQ 901,Test Air,departure,CDG,Paris,10:00,,1,A1,,on time,9Q5"
        ), now: now)
        #expect(try store.status() != seeded)
        try store.reset()
        #expect(try store.status() == seeded)
        #expect(try store.flight(number("ZQ901"), near: now) == nil)
        #expect(try store.flight(number("LX40"), near: now)?.flight.gate == "E34")
        #expect(try store.airlineDirectory().airline(iata: "9Q") == nil)
    }

    @Test("a seed wrapped in its own BEGIN/COMMIT still runs in one transaction")
    func seedWithOwnTransaction() throws {
        let database = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        try FlightStore.seed(database, script: "BEGIN TRANSACTION;\n\(embeddedSeedSQL)\n-- done\n/* really */ COMMIT;\n-- end\n")
        #expect(try database.integer("SELECT count(*) FROM flights WHERE airline = 'LX' AND number = 40") == 1)
    }

    @Test("a failing seed leaves nothing behind")
    func failingSeedRollsBack() throws {
        let database = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        #expect(throws: SQLiteError.self) { try FlightStore.seed(database, script: "CREATE TABLE a (x); INSERT INTO nowhere VALUES (1);") }
        #expect(try database.integer("SELECT count(*) FROM sqlite_master") == 0)
    }

    @Test("an in-memory store is seeded and private")
    func inMemory() throws {
        let first = try FlightStore.inMemory()
        let second = try FlightStore.inMemory()
        _ = try first.importCSV(text: csv("ZQ 901,Test Air,departure,CDG,Paris,10:00,,1,A1,,on time,"))
        let now = hubInstant("2026-11-30", "09:00")
        #expect(try first.flight(number("ZQ901"), near: now) != nil)
        #expect(try second.flight(number("ZQ901"), near: now) == nil)
        #expect(try second.flight(number("LX40"), near: now) != nil)
        #expect(try first.status().path == ":memory:")
    }
}
