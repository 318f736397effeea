import DatabaseTestSupport
import Foundation
import Testing

/// `--database` / `FLIGHTVOICE_DATABASE` as a user runs them: a PostgreSQL server, reachable or not.
@Suite struct SharedDatabaseEndToEndTests {
    /// A loopback port nothing listens on.
    static let unreachableURL = "postgres://flightvoice@127.0.0.1:1/flights"

    @Test func anUnreachableServerExits76WithOneLine() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        for run in [try binary.run(["ask", "--database", Self.unreachableURL, "LX40"]),
                    try binary.run(["db", "status"], environment: ["FLIGHTVOICE_DATABASE": Self.unreachableURL]),
                    try binary.run(["db", "import", "--database", Self.unreachableURL, "Samples/manifest.tsv"])] {
            #expect(run.exitCode == 76)
            #expect(run.standardOutput.isEmpty)
            #expect(run.standardError.contains("cannot reach the PostgreSQL database postgres://flightvoice@127.0.0.1:1/flights"))
            #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        }
    }

    @Test func databaseAndDbTogetherAreAUsageError() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["ask", "--db", binary.databasePath, "--database", Self.unreachableURL, "LX40"])
        #expect(run.exitCode == 64)
        #expect(run.standardError.contains("choose one of --database and --db"))
    }

    @Test(.enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
    func statusImportAskAndResetOnPostgreSQL() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }

        let status = try binary.run(["db", "status", "--database", url])
        #expect(status.exitCode == 0)
        #expect(status.standardOutput.contains("(schema 5, postgresql)"))
        #expect(status.standardOutput.contains("flights    522 (261 departures, 261 arrivals)"))
        #expect(!FileManager.default.fileExists(atPath: binary.databasePath), "no SQLite file is made when PostgreSQL is used")

        let (good, bad) = try binary.writeImportFiles()

        let imported = try binary.run(["db", "import", "--database", url, good.path])
        #expect(imported.exitCode == 0)
        #expect(imported.standardOutput.contains("1 added"))
        let asked = try binary.run(["ask", "--say", "LX9123"], environment: ["FLIGHTVOICE_DATABASE": url])
        #expect(asked.exitCode == 0)
        #expect(asked.standardOutput.contains("Z Z 123"))

        let refused = try binary.run(["db", "import", "--database", url, bad.path])
        #expect(refused.exitCode == 65)
        #expect(refused.standardError.contains(":3"))
        #expect(try binary.run(["ask", "--database", url, "ZZ124"]).exitCode == 3)

        #expect(try binary.run(["db", "reset", "--database", url]).exitCode == 0)
        #expect(try binary.run(["ask", "--database", url, "LX9123"]).exitCode == 3)
    }

    @Test(.enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
    func watchHearsAnImportByAnotherProcess() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        #expect(try binary.run(["db", "status", "--database", url]).exitCode == 0)  // migrated before the watcher starts

        let watcher = Process()
        watcher.executableURL = BuiltBinary.executable
        watcher.arguments = ["db", "watch", "--database", url, "--count", "1"]
        let output = Pipe()
        watcher.standardOutput = output
        watcher.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        watcher.terminationHandler = { _ in exited.signal() }
        try watcher.run()
        Thread.sleep(forTimeInterval: 1)  // it opens the database and starts listening

        let gateChange = binary.folder.appendingPathComponent("gate.csv")
        try "flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares\nLX40,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,\n"
            .write(to: gateChange, atomically: true, encoding: .utf8)
        #expect(try binary.run(["db", "import", "--database", url, gateChange.path]).exitCode == 0)

        let heard = exited.wait(timeout: .now() + 10) == .success
        if !heard { watcher.terminate() }
        #expect(heard, "db watch did not report the import")
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(printed.contains("watching postgres://postgres@"))
        #expect(printed.contains("schedule changed: revision"))
        #expect(watcher.terminationStatus == 0)
    }
}
