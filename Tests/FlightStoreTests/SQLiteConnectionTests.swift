import Foundation
import Testing
@testable import FlightStore

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test("an error carries the operation, code, SQLite message, SQL and path")
    func errorCarriesContext() throws {
        let database = try SQLiteConnection(path: directory.databasePath, mode: .readWriteCreate)
        let error = #expect(throws: SQLiteError.self) { try database.prepare("SELEC 1") }
        #expect(error?.operation == "prepare")
        #expect(error?.code == 1)
        #expect(error?.message.contains("syntax error") == true)
        #expect(error?.sql == "SELEC 1")
        #expect(error?.path == directory.databasePath)
        #expect(error?.description.contains(directory.databasePath) == true)
    }

    @Test("binding and reading round-trip text, integers and NULL")
    func bindAndRead() throws {
        let database = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        let rows = try database.query("SELECT ?1, ?2, ?3", [.text("Zürich \"E\""), .integer(9_999), .null]) { statement in
            (statement.text(at: 0), statement.integer(at: 1), statement.optionalText(at: 2))
        }
        #expect(rows.count == 1)
        #expect(rows[0].0 == "Zürich \"E\"")
        #expect(rows[0].1 == 9_999)
        #expect(rows[0].2 == nil)
    }

    @Test("a failed transaction rolls back everything")
    func transactionRollsBack() throws {
        let database = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
        try database.execute("CREATE TABLE t (x INTEGER NOT NULL)")
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try database.transaction {
                try database.run("INSERT INTO t VALUES (1)")
                throw Abort()
            }
        }
        #expect(try database.integer("SELECT count(*) FROM t") == 0)
    }

    @Test("opening a missing file without create fails with SQLite's message")
    func openMissingFile() {
        let path = directory.path("missing/none.sqlite")
        let error = #expect(throws: SQLiteError.self) { try SQLiteConnection(path: path, mode: .readWrite) }
        #expect(error?.operation == "open")
        #expect(error?.path == path)
        #expect(error?.message.isEmpty == false)
    }
}
