import FlightStoreSelection
import Foundation

/// `flightvoice config`: every effective setting and where it came from (flag, settings file and line, environment,
/// default).
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "Show the effective settings and where each came from"
    static let usage = "flightvoice [--config FILE] config [--json] [SETTING FLAGS…]"
    /// Every flag that sets a setting, so that `config --port 9000` shows what `serve --port 9000` would run with.
    static let settingFlags: [OptionSpec] = [
        CommonOptions.database, CommonOptions.sharedDatabase,
        .value("--data", valueName: "DIR", help: "Setting `data`."),
        RecognizerOptions.model,
        .flag("--no-neural-check", help: "Setting `neural-check = off`."),
        .value("--workers", "-j", valueName: "N", help: "Setting `workers`."),
        .value("--host", valueName: "ADDRESS", help: "Setting `host`."),
        .value("--port", "-p", valueName: "N", help: "Setting `port`."),
        .value("--token-file", valueName: "FILE", help: "Setting `token-file`."),
        .value("--aws-credentials", valueName: "FILE", help: "Setting `aws-credentials`."),
        .value("--device", "-d", valueName: "NAME", help: "Setting `microphone`."),
        .flag("--no-microphone", help: "Setting `microphone = none`."),
        .value("--speaker", valueName: "NAME", help: "Setting `speaker`."),
        .flag("--no-voice", help: "Setting `voice = off`."),
    ]
    static let options: [OptionSpec] = [.flag("--json", help: "Print a JSON object: the file, the precedence, and each setting's value and source.")] + settingFlags
    static var discussion: String {
        """
        Settings are read from \(ConfigurationFile.defaultPath), or the file named by --config FILE (before the command)
        or \(ConfigurationFile.environmentVariable). One "key = value" per line, "#" starts a comment line; keys:
        \(SettingKey.allCases.map { "  \($0.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))
        Precedence, highest first: \(EffectiveSettings.precedence).
        An unknown key, a bad value, a key set twice or an unreadable file is exit 78 naming FILE:LINE.
        A PostgreSQL URL is shown without its password.

        exit codes: 0 shown · 64 usage · 78 settings file unusable
        """
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "config takes no arguments") }
        let report = SettingsReport(context.settings)
        context.console.print(arguments.has("json") ? report.json : report.text)
        return .success
    }
}

/// The effective settings as `config` shows them.
struct SettingsReport: Codable {
    struct File: Codable {
        let path: String
        /// How it was chosen: --config, FLIGHTVOICE_CONFIG or default.
        let chosenBy: String
        let exists: Bool
    }

    struct Setting: Codable {
        let key: String
        let value: String
        /// flag, file, env or default.
        let source: String
        /// The flag's spelling, the environment variable, or the file (with `line`).
        let from: String?
        let line: Int?
    }

    let file: File
    let precedence: String
    let settings: [Setting]
    let notes: [String]

    init(_ effective: EffectiveSettings) {
        file = File(path: effective.file.path, chosenBy: effective.file.origin.rawValue, exists: effective.file.exists)
        precedence = EffectiveSettings.precedence
        settings = SettingKey.allCases.map { key in
            let resolved = effective[key]
            let value = key == .database ? DatabaseOptions.location(effective).description : resolved.value
            return switch resolved.source {
            case .flag(let name): Setting(key: key.rawValue, value: value, source: "flag", from: name, line: nil)
            case .file(let path, let line): Setting(key: key.rawValue, value: value, source: "file", from: path, line: line)
            case .environment(let name): Setting(key: key.rawValue, value: value, source: "env", from: name, line: nil)
            case .builtIn: Setting(key: key.rawValue, value: value, source: "default", from: nil, line: nil)
            }
        }
        notes = effective.shadowed
    }

    var text: String {
        var lines = ["settings file  \(file.path) (\(file.exists ? "" : "not found, built-in defaults; ")chosen by \(file.chosenBy))",
                     "precedence     \(precedence)", ""]
        let keyWidth = settings.map(\.key.count).max()! + 2
        let valueWidth = settings.map(\.value.count).max()! + 2
        for setting in settings {
            let source = switch (setting.source, setting.from, setting.line) {
            case ("file", let path?, let line?): "file \(path):\(line)"
            case (let kind, let from?, _): "\(kind) \(from)"
            case (let kind, nil, _): kind
            }
            lines.append(setting.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0)
                         + setting.value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) + source)
        }
        lines += notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(self), as: UTF8.self)
    }
}
