import Foundation

/// `flightvoice doctor`: checks what FlightVoice needs on this machine, one line per check with what to do.
enum DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "Check models, database, sound devices and disk, with what to do about each"
    static let usage = "flightvoice [--config FILE] doctor [SETTING FLAGS…]"
    static let options: [OptionSpec] = ConfigCommand.settingFlags
    static let discussion = """
    Checks, in order (each line: ok, warn or FAIL, what was found, and "do: …" when something should be done):
      settings       the settings file read, and environment variables it overrides
      stock model    Debian's acoustic model (pocketsphinx-en-us); fails when it is the chosen model
      adapted model  FlightVoice's models/en-us-flightvoice beside the program, in ../share/flightvoice/models or the
                     source tree; fails when model = adapted, else a warning (telephone audio uses it)
      neural model   models/whisper-tiny.en, found the same way (fails when missing and neural-check is on)
      tuned decoder  models/whisper-tiny.en-flightvoice, the neural check's tuned decoder, found the same way
      chosen model   a model folder named by the model setting
      database       opened without creating it: schema version, flights, and how long ago the schedule changed
                     (a warning after a day); a PostgreSQL URL must be reachable
      microphone     the ALSA capture device opens (skipped with microphone = none)
      speaker        the ALSA playback device opens (skipped with voice = off)
      disk           free space for the data folder (a warning under 1 GiB, failure under 100 MiB)
    The same facts go into the one line kiosk and serve log at start.

    exit codes: 0 nothing failed (warnings allowed) · otherwise the first failed check's: 69 a model · 74 the database ·
    76 PostgreSQL unreachable · 71 microphone or speaker · 73 disk full · 64 usage · 78 settings file unusable
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "doctor takes no arguments") }
        let checks = Diagnostics.run(context.settings)
        for check in checks { context.console.print(check.line) }
        return checks.first { $0.outcome == .failed }?.exitCode ?? .success
    }
}

/// `flightvoice --version`: the version, the git revision it was built from, the acoustic model and the schedule's age.
enum VersionCommand: Command {
    static let name = "--version"
    static let summary = "Show the version, the git revision it was built from, the acoustic model and the schedule's age"
    static let usage = "flightvoice [--config FILE] --version"
    static let options: [OptionSpec] = []

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "--version takes no arguments") }
        let settings = context.settings
        let console = context.console
        console.print("flightvoice \(FlightVoiceCommand.version)")
        console.print("revision        \(buildRevision)")
        let model = settings[.model].value
        let modelPath: String = switch model {
        case "stock": RecognizerModelPaths.stock
        case "adapted": RecognizerModelPaths.adapted ?? "not found"
        default: model
        }
        console.print("acoustic model  \(model == "stock" || model == "adapted" ? "\(model) (\(modelPath))" : model)")
        let location = DatabaseOptions.location(settings)
        let schedule: String = switch location {
        case .sqlite(let path):
            Diagnostics.scheduleAge(path: path).map { "\(path), changed \(Diagnostics.ageText($0)) ago" } ?? "\(path), not created yet"
        case .postgres:
            "\(location), age unknown (PostgreSQL; see flightvoice doctor)"
        }
        console.print("schedule        \(schedule)")
        return .success
    }
}
