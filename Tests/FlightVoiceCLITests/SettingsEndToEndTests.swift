import Foundation
import Testing

/// The settings file, `config`, `doctor`, `--version` and the named-database rule, as a user meets them.
@Suite struct SettingsEndToEndTests {
    /// `config --json`'s settings by key: (value, source, from).
    static func settings(_ run: BuiltBinary.Run) throws -> [String: [String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any], "\(run.standardError)")
        let list = try #require(object["settings"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { ($0["key"] as! String, $0) })
    }

    @Test func aFlagBeatsTheFileWhichBeatsTheEnvironmentWhichBeatsTheDefault() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let fromFile = binary.folder.appendingPathComponent("file.sqlite").path
        let fromEnvironment = binary.folder.appendingPathComponent("env.sqlite").path
        try binary.writeSettings("# a comment\n\nworkers = 3\n  database = \(fromFile)\n")

        let file = try Self.settings(binary.run(["config", "--json"], environment: ["FLIGHTVOICE_DB": fromEnvironment]))
        #expect(file["database"]?["value"] as? String == fromFile)
        #expect(file["database"]?["source"] as? String == "file")
        #expect(file["database"]?["line"] as? Int == 4)
        #expect(file["workers"]?["value"] as? String == "3")
        #expect(file["port"]?["source"] as? String == "default" && file["port"]?["value"] as? String == "8080")

        let flag = try Self.settings(binary.run(["config", "--json", "--db", "/srv/flag.sqlite", "--workers", "1"], environment: ["FLIGHTVOICE_DB": fromEnvironment]))
        #expect(flag["database"]?["value"] as? String == "/srv/flag.sqlite")
        #expect(flag["database"]?["from"] as? String == "--db")
        #expect(flag["workers"]?["source"] as? String == "flag" && flag["workers"]?["value"] as? String == "1")

        try binary.writeSettings("workers = 3\n")
        let environment = try Self.settings(binary.run(["config", "--json"], environment: ["FLIGHTVOICE_DB": fromEnvironment]))
        #expect(environment["database"]?["value"] as? String == fromEnvironment)
        #expect(environment["database"]?["source"] as? String == "env" && environment["database"]?["from"] as? String == "FLIGHTVOICE_DB")

        let builtIn = try Self.settings(binary.run(["config", "--json"]))
        #expect(builtIn["database"]?["value"] as? String == binary.databasePath)
        #expect(builtIn["database"]?["source"] as? String == "default")
    }

    @Test func theFilesDatabaseIsWhatCommandsUseAndAShadowedVariableIsSaidAloud() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let database = binary.folder.appendingPathComponent("airport.sqlite").path
        try binary.writeSettings("database = \(database)\n")
        #expect(try binary.run(["db", "init"]).exitCode == 0)
        let asked = try binary.run(["ask", "LX40"], environment: ["FLIGHTVOICE_DB": "/nonexistent/elsewhere.sqlite"])
        #expect(asked.exitCode == 0, "the file's database, not the variable's: \(asked.standardError)")
        let shown = try binary.run(["config"], environment: ["FLIGHTVOICE_DB": "/nonexistent/elsewhere.sqlite"])
        #expect(shown.standardOutput.contains("note: FLIGHTVOICE_DB is set but not used: the database comes from file \(binary.settingsPath):1"))
        #expect(!FileManager.default.fileExists(atPath: binary.databasePath), "the default location was not touched")
    }

    @Test(arguments: [
        ("speaker = default\nmicrophon = hw:1\n", ":2: unknown key 'microphon'"),
        ("port = eighty\n", ":1: port: takes a TCP port from 0 to 65535, not 'eighty'"),
        ("voice = maybe\n", ":1: voice: takes on or off, not 'maybe'"),
        ("workers = 2\nworkers = 3\n", ":2: workers is already set on line 1; set it once"),
        ("just some words\n", ":1: expected 'key = value'"),
        ("host =\n", ":1: host: needs a value"),
    ])
    func aMalformedSettingsFileExits78NamingFileAndLine(text: String, message: String) throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        try binary.writeSettings(text)
        let run = try binary.run(["ask", "LX40"])
        #expect(run.exitCode == 78)
        #expect(run.standardError.hasPrefix("flightvoice ask: \(binary.settingsPath)\(message)"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
    }

    @Test func aMissingNamedSettingsFileExits78() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let missing = binary.folder.appendingPathComponent("nowhere.conf").path
        let run = try binary.run(["--config", missing, "config"])
        #expect(run.exitCode == 78)
        #expect(run.standardError.contains("\(missing): no such file (named by --config)"))
        let unreadable = try binary.run(["--config", binary.folder.path, "config"])
        #expect(unreadable.exitCode == 78, "a folder is not a settings file: \(unreadable.standardError)")
        #expect(unreadable.standardError.contains(binary.folder.path))
    }

    @Test func configPrintsEachSettingWithItsSource() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let settings = binary.folder.appendingPathComponent("fleet.conf").path
        try Data("""
        # the kiosk at gate E
        database = postgres://kiosk:secret@db.airport:5432/flights
        data = /var/lib/flightvoice
        workers = 2
        microphone = none
        voice = off

        """.utf8).write(to: URL(fileURLWithPath: settings))
        let run = try binary.run(["--config", settings, "config", "--port", "9000", "--model", "adapted"])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(!run.standardOutput.contains("secret"), "a PostgreSQL password is not shown")
        try GoldenFile.check(run.standardOutput.replacingOccurrences(of: binary.folder.path, with: "TMP"), against: "config.txt")
    }

    @Test func aNamedDatabaseThatDoesNotExistExits74UntilDbInitCreatesIt() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let mistyped = binary.folder.appendingPathComponent("flihgts.sqlite").path
        let refused = try binary.run(["ask", "--db", mistyped, "LX40"])
        #expect(refused.exitCode == 74)
        #expect(refused.standardError.contains("the database \(mistyped) does not exist (named by flag --db)"), "\(refused.standardError)")
        #expect(refused.standardError.contains("flightvoice db init"))
        #expect(!FileManager.default.fileExists(atPath: mistyped), "no demo day was created at the mistyped path")
        #expect(try binary.run(["db", "status"], environment: ["FLIGHTVOICE_DB": mistyped]).exitCode == 74, "a path named by FLIGHTVOICE_DB too")

        let created = try binary.run(["db", "init", "--db", mistyped])
        #expect(created.exitCode == 0)
        #expect(created.standardOutput == "created \(mistyped) from the built-in day (522 flights)\n")
        #expect(try binary.run(["ask", "--db", mistyped, "LX40"]).exitCode == 0)
        let again = try binary.run(["db", "init", "--db", mistyped])
        #expect(again.exitCode == 0 && again.standardOutput.contains("already exists"))
    }

    @Test func theDefaultDatabaseIsStillCreatedOnFirstUse() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        #expect(!FileManager.default.fileExists(atPath: binary.databasePath))
        #expect(try binary.run(["ask", "LX40"]).exitCode == 0)
        #expect(FileManager.default.fileExists(atPath: binary.databasePath))
    }

    @Test func doctorPassesOnAHealthySetup() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        try binary.writeSettings("microphone = none\nvoice = off\ndata = \(binary.folder.path)/data\n")
        #expect(try binary.run(["db", "init"]).exitCode == 0)
        let run = try binary.run(["doctor"])
        #expect(run.exitCode == 0, "\(run.standardOutput)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.map { String($0.dropFirst(6).prefix(14)).trimmingCharacters(in: .whitespaces) }
                == ["settings", "stock model", "adapted model", "neural model", "tuned decoder", "database", "microphone", "speaker", "disk"])
        #expect(lines.allSatisfy { $0.hasPrefix("ok ") || $0.hasPrefix("warn ") }, "\(lines)")
        #expect(run.standardOutput.contains("ok    database      \(binary.databasePath) (default): schema 1, 522 flights, schedule changed "))
        #expect(run.standardOutput.contains("ok    microphone    not used (microphone = none)"))
    }

    @Test func doctorFailsWithAMissingModelOrDatabaseAndSaysWhatToDo() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        try binary.writeSettings("microphone = none\nvoice = off\nmodel = /nonexistent/model\n")
        let noModel = try binary.run(["doctor"])
        #expect(noModel.exitCode == 69, "\(noModel.standardOutput)")
        #expect(noModel.standardOutput.contains("FAIL  chosen model  /nonexistent/model (file \(binary.settingsPath):3) has no mdef"))
        #expect(noModel.standardOutput.contains("— do: set model to stock, adapted or a PocketSphinx model folder"))

        try binary.writeSettings("microphone = none\nvoice = off\n")
        let missing = binary.folder.appendingPathComponent("missing.sqlite").path
        let noDatabase = try binary.run(["doctor", "--db", missing])
        #expect(noDatabase.exitCode == 74, "\(noDatabase.standardOutput)")
        #expect(noDatabase.standardOutput.contains("FAIL  database      \(missing) (flag --db) does not exist — do: check the path, or create it: flightvoice db init --db \(missing)"))
        #expect(!FileManager.default.fileExists(atPath: missing), "doctor creates nothing")

        let unreachable = try binary.run(["doctor", "--database", "postgres://nobody@127.0.0.1:1/flights"])
        #expect(unreachable.exitCode == 76, "\(unreachable.standardOutput)")
        #expect(unreachable.standardOutput.contains("FAIL  database      postgres://nobody@127.0.0.1:1/flights (flag --database): cannot reach"))
        #expect(unreachable.standardOutput.contains("— do: start PostgreSQL or check the URL's host, port, user and password"))

        let noMicrophone = try binary.run(["doctor", "--device", "nosuchmic"])
        #expect(noMicrophone.exitCode == 71)
        #expect(noMicrophone.standardOutput.contains("FAIL  microphone    ALSA capture device 'nosuchmic'"))
    }

    @Test func versionNamesTheRevisionTheModelAndTheSchedulesAge() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        #expect(try binary.run(["db", "init"]).exitCode == 0)
        let run = try binary.run(["--version"])
        #expect(run.exitCode == 0)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(lines)")
        #expect(lines.first == "flightvoice 0.1.0")
        let revision = try #require(lines.dropFirst().first)
        #expect(revision.wholeMatch(of: /revision        ([0-9a-f]{7,40}(-dirty)?|unknown)/) != nil, "\(revision)")
        #expect(lines.dropFirst(2).first == "acoustic model  stock (/usr/share/pocketsphinx/model/en-us/en-us)")
        #expect(lines.last?.wholeMatch(of: /schedule        .+flights\.sqlite, changed \d+ (s|min|h|days) ago/) != nil, "\(lines.last ?? "")")
    }

    @Test func theExampleSettingsFileIsValidAndHelpStatesThePrecedence() throws {
        let binary = try BuiltBinary()
        defer { binary.cleanUp() }
        let example = BuiltBinary.packageRoot.appendingPathComponent("config/flightvoice.conf").path
        let shown = try Self.settings(binary.run(["--config", example, "config", "--json"]))
        #expect(shown["database"]?["value"] as? String == "/var/lib/flightvoice/flights.sqlite")
        #expect(shown["port"]?["source"] as? String == "file")
        let help = try binary.run(["--help"])
        #expect(help.exitCode == 0)
        #expect(help.standardOutput.contains("Precedence, highest first: flag > settings file > FLIGHTVOICE_DATABASE / FLIGHTVOICE_DB (database only, where the file is silent) > default"))
        #expect(help.standardOutput.contains("/etc/flightvoice/flightvoice.conf"))
    }
}
