import Testing
@testable import FlightVoiceCLI

/// The settings file's grammar and the precedence, as pure tables (the end-to-end tests run the binary on a few).
@Suite struct SettingsResolutionTests {
    static let options: [OptionSpec] = ConfigCommand.settingFlags + [.value("--jobs", valueName: "N", help: "")]

    static func file(_ text: String) throws -> ConfigurationFile {
        ConfigurationFile(path: "/etc/fv.conf", origin: .flag, exists: true, entries: try ConfigurationFile.parse(text, path: "/etc/fv.conf"))
    }

    static func resolve(_ arguments: [String], file text: String = "", environment: [String: String] = [:]) throws -> EffectiveSettings {
        try EffectiveSettings.resolve(arguments: ParsedArguments.parse(arguments, options: options), file: file(text),
                                      environment: environment.merging(["XDG_DATA_HOME": "/data"]) { mine, _ in mine })
    }

    @Test func parsingKeepsEachKeysValueAndLine() throws {
        let entries = try ConfigurationFile.parse("# comment\n\n   port=9000  \nmodel = /opt/my model\n\t# indented comment\nvoice = off", path: "f")
        #expect(entries == [.port: .init(value: "9000", line: 3), .model: .init(value: "/opt/my model", line: 4), .voice: .init(value: "off", line: 6)])
    }

    @Test(arguments: [
        ("workers = 0", "f:1: workers: takes a whole number from 1 to 256, not '0'"),
        ("workers = 257", "f:1: workers: takes a whole number from 1 to 256, not '257'"),
        ("port = 65536", "f:1: port: takes a TCP port from 0 to 65535, not '65536'"),
        ("host = example.org", "f:1: host: takes an IP address such as 127.0.0.1 or ::1, not 'example.org'"),
        ("voice = yes", "f:1: voice: takes on or off, not 'yes'"),
        ("neural-check = no", "f:1: neural-check: takes on or off, not 'no'"),
        ("\n\nDatabase = x", "f:3: unknown key 'Database' (keys: database, data, model, neural-check, workers, host, port, token-file, aws-credentials, microphone, speaker, voice)"),
        ("= x", "f:1: unknown key '' (keys: database, data, model, neural-check, workers, host, port, token-file, aws-credentials, microphone, speaker, voice)"),
        ("port = 1\nport = 2", "f:2: port is already set on line 1; set it once"),
        ("speaker", "f:1: expected 'key = value', not 'speaker'"),
    ])
    func malformedLinesNameFileAndLine(text: String, message: String) {
        #expect(throws: ConfigurationError.self) { try ConfigurationFile.parse(text, path: "f") }
        do {
            _ = try ConfigurationFile.parse(text, path: "f")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("database: flag, then file, then FLIGHTVOICE_DATABASE, then FLIGHTVOICE_DB, then the XDG default")
    func databasePrecedence() throws {
        let both = ["FLIGHTVOICE_DATABASE": "/env/url.sqlite", "FLIGHTVOICE_DB": "/env/path.sqlite"]
        #expect(try Self.resolve(["--db", "/flag.sqlite"], file: "database = /file.sqlite", environment: both)[.database]
                == ResolvedSetting(value: "/flag.sqlite", source: .flag("--db")))
        #expect(try Self.resolve(["--database", "postgres://h/d"], file: "database = /file.sqlite")[.database].source == .flag("--database"))
        let fromFile = try Self.resolve([], file: "\ndatabase = /file.sqlite", environment: both)
        #expect(fromFile[.database] == ResolvedSetting(value: "/file.sqlite", source: .file(path: "/etc/fv.conf", line: 2)))
        #expect(fromFile.shadowed.count == 2, "both variables are said to be unused: \(fromFile.shadowed)")
        #expect(try Self.resolve([], environment: both)[.database] == ResolvedSetting(value: "/env/url.sqlite", source: .environment("FLIGHTVOICE_DATABASE")))
        #expect(try Self.resolve([], environment: ["FLIGHTVOICE_DB": "/env/path.sqlite"])[.database].source == .environment("FLIGHTVOICE_DB"))
        #expect(try Self.resolve([])[.database] == ResolvedSetting(value: "/data/flightvoice/flights.sqlite", source: .builtIn))
        #expect(throws: UsageError.self) { try Self.resolve(["--db", "/a", "--database", "/b"]) }
    }

    @Test func flagsOverTheFileOverDefaultsForEveryOtherKey() throws {
        let settings = try Self.resolve(["--port", "9000", "--no-voice", "--jobs", "3", "--no-microphone"],
                                        file: "port = 8081\nhost = ::1\ndata = /srv/fv\nvoice = on\nworkers = 2\nmicrophone = hw:1")
        #expect(settings[.port] == ResolvedSetting(value: "9000", source: .flag("--port")))
        #expect(settings[.host] == ResolvedSetting(value: "::1", source: .file(path: "/etc/fv.conf", line: 2)))
        #expect(settings[.voice] == ResolvedSetting(value: "off", source: .flag("--no-voice")))
        #expect(settings[.workers] == ResolvedSetting(value: "3", source: .flag("--jobs")))
        #expect(settings[.microphone] == ResolvedSetting(value: "none", source: .flag("--no-microphone")))
        #expect(settings[.tokenFile] == ResolvedSetting(value: "/srv/fv/api-token", source: .builtIn), "the secrets' defaults follow the data folder")
        #expect(settings[.speaker] == ResolvedSetting(value: "default", source: .builtIn))
        #expect(try settings.integer(.port, in: SettingKey.portRange) == 9000)
        #expect(throws: UsageError.self) { try Self.resolve(["--port", "http"]).integer(.port, in: SettingKey.portRange) }
    }

    @Test("the neural check is on unless the file or --no-neural-check turns it off")
    func neuralCheckIsOnByDefault() throws {
        #expect(try Self.resolve([])[.neuralCheck] == ResolvedSetting(value: "on", source: .builtIn))
        #expect(try Self.resolve([], file: "neural-check = off")[.neuralCheck] == ResolvedSetting(value: "off", source: .file(path: "/etc/fv.conf", line: 1)))
        #expect(try Self.resolve(["--no-neural-check"], file: "neural-check = on")[.neuralCheck]
                == ResolvedSetting(value: "off", source: .flag("--no-neural-check")))
    }
}
