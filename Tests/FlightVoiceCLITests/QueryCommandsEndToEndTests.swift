import Foundation
import Testing

/// `ask`, `normalize` and `db` as a user runs them: the built binary, its stdout, stderr and exit code.
@Suite struct QueryCommandsEndToEndTests {
    @Test func askPrintsTheCardOfAFlightFoundToday() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["ask", "LX40"])
        #expect(run.exitCode == 0)
        try GoldenFile.check(run.standardOutput, against: "ask-lx40.txt")
        #expect(run.standardError.isEmpty)
    }

    @Test func askSaysASentence() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["ask", "--say", "LX 040"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "Swiss flight L X 40 to New York departs at 13:05 from gate E 34. It is boarding.\n")
    }

    @Test func askPrintsStableJSON() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["ask", "--json", "BA287"])
        #expect(run.exitCode == 0)
        try GoldenFile.check(run.standardOutput, against: "ask-ba287.json")
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        #expect(object?["status"] as? String == "found")
        #expect((object?["result"] as? [String: Any])?["gate"] as? String == "A52")
    }

    @Test func askForAFlightNotFlyingTodayExits3WithSuggestions() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["ask", "LX9998"])
        #expect(run.exitCode == 3)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("No flight LX 9998 today."))
        #expect(run.standardError.contains("Did you mean"))
    }

    @Test func askForSomethingThatIsNoFlightExits2WithAnExample() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["ask", "where is the exit"])
        #expect(run.exitCode == 2)
        #expect(run.standardError.contains("Try:"))
    }

    @Test func normalizePrintsTheCanonicalNumber() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["normalize", "lx-0040"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput == "LX40\n")
        let refused = try binary.run(["normalize", "good morning"])
        #expect(refused.exitCode == 2)
        #expect(!refused.standardError.isEmpty)
    }

    @Test func databaseStatusCountsTheSeedDay() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let run = try binary.run(["db", "status"])
        #expect(run.exitCode == 0)
        #expect(run.standardOutput.contains("(schema 1, wal)"))
        #expect(run.standardOutput.contains("flights    522 (261 departures, 261 arrivals)"))
    }

    @Test func importAddsFlightsAndABadRowWritesNothing() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let (good, bad) = try binary.writeImportFiles()

        let imported = try binary.run(["db", "import", good.path])
        #expect(imported.exitCode == 0)
        #expect(imported.standardOutput.contains("1 added"))
        #expect(try binary.run(["ask", "LX9123"]).standardOutput.contains("ZZ 123"))

        let refused = try binary.run(["db", "import", bad.path])
        #expect(refused.exitCode == 65)
        #expect(refused.standardError.contains(":3"))
        #expect(try binary.run(["ask", "ZZ124"]).exitCode == 3)

        let missing = try binary.run(["db", "import", binary.folder.appendingPathComponent("nope.csv").path])
        #expect(missing.exitCode == 66)
    }

    @Test func aCorruptDatabaseExits74NamingTheFile() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        try FileManager.default.createDirectory(atPath: (binary.databasePath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("not a database at all, just text".utf8).write(to: URL(fileURLWithPath: binary.databasePath))
        let run = try binary.run(["ask", "LX40"])
        #expect(run.exitCode == 74)
        #expect(run.standardError.contains(binary.databasePath))
    }

    @Test func usageErrorsExit64WithHelp() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        for arguments in [["ask", "--frobnicate", "LX40"], ["nonsense"], [], ["db", "explode"], ["ask"]] {
            let run = try binary.run(arguments)
            #expect(run.exitCode == 64, "\(arguments)")
            #expect(run.standardError.contains("usage:"), "\(arguments)")
        }
        let help = try binary.run(["ask", "--help"])
        #expect(help.exitCode == 0)
        #expect(help.standardOutput.contains("usage: flightvoice ask"))
    }
}

extension QueryCommandsEndToEndTests {
    @Test func normalizeJSONHasEveryDocumentedKeyWhetherUnderstoodOrNot() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        for (text, exitCode) in [("speedbird two eight seven", Int32(0)), ("good morning", Int32(2))] {
            let run = try binary.run(["normalize", "--json", text])
            #expect(run.exitCode == exitCode)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
            #expect(Set(object.keys) == ["input", "flight", "candidates", "error"], "\(text)")
        }
        let understood = try binary.run(["normalize", "--json", "speedbird two eight seven"])
        #expect(understood.standardOutput.contains("\"flight\" : \"BA287\""))
    }
}

extension BuiltBinary {
    /// Two import files in the folder: `good` adds ZZ123 (sold also as LX9123); `bad` has a good row, then a bad
    /// direction on line 3, so nothing of it may be written.
    func writeImportFiles() throws -> (good: URL, bad: URL) {
        let header = "flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares\n"
        let good = folder.appendingPathComponent("good.csv")
        try (header + "ZZ123,Zed Air,departure,CDG,Paris,10:15,10:20,A,A12,,delayed,LX9123\n").write(to: good, atomically: true, encoding: .utf8)
        let bad = folder.appendingPathComponent("bad.csv")
        try (header + "ZZ124,Zed Air,departure,CDG,Paris,10:15,,A,A12,,on time,\nZZ125,Zed Air,sideways,CDG,Paris,10:15,,A,A12,,on time,\n")
            .write(to: bad, atomically: true, encoding: .utf8)
        return (good, bad)
    }
}
