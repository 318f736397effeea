import FlightStore
import FlightVoiceServer
import Foundation
import HTTPServer

/// A setting the settings file may hold; each is also a command-line flag of the commands that use it.
enum SettingKey: String, CaseIterable, Sendable, Comparable {
    case database, data, model
    case neuralCheck = "neural-check"
    case workers, host, port
    case tokenFile = "token-file"
    case awsCredentials = "aws-credentials"
    case microphone, speaker, voice

    /// What the setting is, for `config` and `--help`.
    var summary: String {
        switch self {
        case .database: "flight database: a SQLite file, or postgres://user@host:port/name"
        case .data: "the service's data folder (jobs, media, transcripts, S3 objects, generated secrets)"
        case .model: "acoustic model: stock, adapted, or a model folder"
        case .neuralCheck: "ask the neural model (Whisper tiny.en) where the decision doubts, and check its answers: on or off"
        case .workers: "recognition workers, one recognizer each"
        case .host: "IP address the HTTP service listens on"
        case .port: "TCP port of the HTTP service"
        case .tokenFile: "file holding the Bearer token for flight updates"
        case .awsCredentials: "AWS credentials file SigV4 requests are checked against"
        case .microphone: "ALSA capture device, or none (keyboard only)"
        case .speaker: "ALSA playback device for spoken answers"
        case .voice: "speak the answers: on or off"
        }
    }

    /// The flags (parsed-argument keys) that set it, in the order they win; the first is its own flag.
    var flagKeys: [String] {
        switch self {
        case .database: ["database", "db"]
        case .workers: ["workers", "jobs"]
        case .microphone: ["device", "no-microphone"]
        case .voice: ["no-voice"]
        case .neuralCheck: ["no-neural-check"]
        default: [rawValue]
        }
    }

    /// Why `value` is not a value this key takes, or nil when it is.
    func problem(with value: String) -> String? {
        if value.isEmpty { return "needs a value (leave the key out, or comment it, for the default)" }
        switch self {
        case .workers:
            return Self.workerRange.contains(Int(value) ?? 0) ? nil : "takes a whole number from \(Self.workerRange.lowerBound) to \(Self.workerRange.upperBound), not '\(value)'"
        case .port:
            return Self.portRange.contains(Int(value) ?? -1) ? nil : "takes a TCP port from \(Self.portRange.lowerBound) to \(Self.portRange.upperBound), not '\(value)'"
        case .host:
            return isIPAddressLiteral(Self.hostAddress(value)) ? nil : "takes an IP address such as 127.0.0.1 or ::1, not '\(value)'"
        case .voice, .neuralCheck:
            return ["on", "off"].contains(value) ? nil : "takes on or off, not '\(value)'"
        case .model, .database, .data, .tokenFile, .awsCredentials, .microphone, .speaker:
            return nil
        }
    }

    /// Recognition workers a command may be given.
    static let workerRange = 1...256
    /// TCP ports `serve` may listen on (0: a free one).
    static let portRange = 0...65535
    /// The HTTP service's port unless one is set.
    static let defaultPort = 8080
    /// The address the HTTP service listens on unless one is set: this machine only.
    static let defaultHost = "127.0.0.1"

    /// `localhost` as the address it means.
    static func hostAddress(_ host: String) -> String { host == "localhost" ? "127.0.0.1" : host }

    static func < (left: SettingKey, right: SettingKey) -> Bool {
        allCases.firstIndex(of: left)! < allCases.firstIndex(of: right)!
    }
}

/// Where an effective setting came from.
enum SettingSource: Sendable, Equatable {
    /// A command-line flag, as spelled (`--db`).
    case flag(String)
    /// A line of the settings file.
    case file(path: String, line: Int)
    /// An environment variable (only where the file is silent).
    case environment(String)
    /// The built-in default.
    case builtIn

    /// `flag --db`, `file /etc/flightvoice/flightvoice.conf:11`, `env FLIGHTVOICE_DB`, `default`.
    var description: String {
        switch self {
        case .flag(let name): "flag \(name)"
        case .file(let path, let line): "file \(path):\(line)"
        case .environment(let name): "env \(name)"
        case .builtIn: "default"
        }
    }

    /// The kind alone: flag, file, env or default.
    var kind: String {
        switch self {
        case .flag: "flag"
        case .file: "file"
        case .environment: "env"
        case .builtIn: "default"
        }
    }
}

/// One setting's value and where it came from.
struct ResolvedSetting: Sendable, Equatable {
    let value: String
    let source: SettingSource
}

/// Every setting a command runs with, each from the first of: its flag, the settings file, the environment
/// (`FLIGHTVOICE_DATABASE`, then `FLIGHTVOICE_DB`, for the database only, and only where the file does not set it),
/// the built-in default. The one place commands read their settings from.
struct EffectiveSettings: Sendable {
    /// The precedence, as `--help` and `config` state it.
    static let precedence = "flag > settings file > FLIGHTVOICE_DATABASE / FLIGHTVOICE_DB (database only, where the file is silent) > default"

    let file: ConfigurationFile
    private let values: [SettingKey: ResolvedSetting]
    /// Environment variables that are set but lose to a flag or the file, said aloud by `config` and `doctor`.
    let shadowed: [String]

    subscript(_ key: SettingKey) -> ResolvedSetting { values[key]! }

    /// The settings for a command given `arguments`.
    static func resolve(arguments: ParsedArguments, file: ConfigurationFile, environment: [String: String]) throws(UsageError) -> EffectiveSettings {
        if arguments.value("database") != nil && arguments.value("db") != nil {
            throw UsageError(message: "choose one of --database and --db")
        }
        var values: [SettingKey: ResolvedSetting] = [:]
        var shadowed: [String] = []
        let databaseVariables = [FlightDatabaseLocationNames.urlVariable, FlightDatabaseLocationNames.pathVariable]
        // In declaration order: `data` is resolved before the secrets whose defaults live in it.
        for key in SettingKey.allCases {
            if let flagged = flagValue(key, arguments: arguments) {
                values[key] = flagged
            } else if let entry = file.entries[key] {
                values[key] = ResolvedSetting(value: entry.value, source: .file(path: file.path, line: entry.line))
            } else if key == .database, let name = databaseVariables.first(where: { !(environment[$0] ?? "").isEmpty }) {
                values[key] = ResolvedSetting(value: environment[name]!, source: .environment(name))
            } else {
                values[key] = ResolvedSetting(value: builtInDefault(key, resolved: values, environment: environment), source: .builtIn)
            }
            if key == .database, values[key]!.source.kind != "env" {
                shadowed += databaseVariables.filter { !(environment[$0] ?? "").isEmpty }
                    .map { "\($0) is set but not used: the database comes from \(values[key]!.source.description)" }
            }
        }
        return EffectiveSettings(file: file, values: values, shadowed: shadowed)
    }

    private static func flagValue(_ key: SettingKey, arguments: ParsedArguments) -> ResolvedSetting? {
        for flag in key.flagKeys {
            switch (key, flag) {
            case (.microphone, "no-microphone"), (.voice, "no-voice"), (.neuralCheck, "no-neural-check"):
                if arguments.has(flag) { return ResolvedSetting(value: key == .microphone ? "none" : "off", source: .flag("--" + flag)) }
            default:
                if let value = arguments.value(flag) { return ResolvedSetting(value: value, source: .flag("--" + flag)) }
            }
        }
        return nil
    }

    private static func builtInDefault(_ key: SettingKey, resolved: [SettingKey: ResolvedSetting], environment: [String: String]) -> String {
        var withoutDatabase = environment
        withoutDatabase[FlightDatabaseLocationNames.pathVariable] = nil
        let data = resolved[.data]?.value ?? DataFolder.defaultPath(environment: environment)
        return switch key {
        case .database: FlightStore.defaultPath(environment: withoutDatabase)
        case .data: DataFolder.defaultPath(environment: environment)
        case .model: "stock"
        case .workers: String(ProcessInfo.processInfo.activeProcessorCount)
        case .host: SettingKey.defaultHost
        case .port: String(SettingKey.defaultPort)
        case .tokenFile: (data as NSString).appendingPathComponent("api-token")
        case .awsCredentials: (data as NSString).appendingPathComponent("aws-credentials")
        case .microphone, .speaker: "default"
        case .voice, .neuralCheck: "on"
        }
    }

    /// True when the decision asks the neural model where it doubts and checks its answers with it (`neural-check = on`, the default).
    var asksNeuralCheck: Bool { self[.neuralCheck].value == "on" }

    /// The setting as a whole number within `range`; a bad flag value is a usage error (file values were checked
    /// when the file was read).
    func integer(_ key: SettingKey, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        let setting = self[key]
        guard let number = Int(setting.value), range.contains(number) else {
            throw UsageError(message: "\(setting.source.description.replacingOccurrences(of: "flag ", with: "")) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(setting.value)'")
        }
        return number
    }

    /// These settings with `key` replaced (`serve` reports its data folder's own flights database).
    func replacing(_ key: SettingKey, with setting: ResolvedSetting) -> EffectiveSettings {
        var values = values
        values[key] = setting
        return EffectiveSettings(file: file, values: values, shadowed: shadowed)
    }

    /// True when the setting was given (by a flag, the file or the environment), not defaulted.
    func isGiven(_ key: SettingKey) -> Bool { self[key].source != .builtIn }
}

/// The environment variables that name a flight database.
enum FlightDatabaseLocationNames {
    /// A PostgreSQL URL or a SQLite path (`FlightDatabaseLocation.environmentVariable`).
    static let urlVariable = "FLIGHTVOICE_DATABASE"
    /// A SQLite path.
    static let pathVariable = "FLIGHTVOICE_DB"
}
