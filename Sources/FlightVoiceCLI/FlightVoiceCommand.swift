import Foundation

/// The `flightvoice` program: dispatches to a subcommand and turns every failure into a message and an exit code.
public enum FlightVoiceCommand {
    static let commands: [any Command.Type] = [
        AskCommand.self, NormalizeCommand.self, RecognizeCommand.self, EvalCommand.self, DatabaseCommand.self, ServeCommand.self,
        ListenCommand.self, KioskCommand.self, BenchLiveCommand.self, ConfigCommand.self, DoctorCommand.self,
    ]

    static let version = "0.1.0"

    /// What the program is, in one line: the help's first line and the man page's NAME.
    static let tagline = "offline flight status by voice: say a flight number, get its gate."

    /// Options given before a command (what `main` reads from the first argument).
    static let programOptions: [OptionSpec] = [
        .value("--config", valueName: "FILE", help: "Read the settings from FILE instead of \(ConfigurationFile.defaultPath) (before the command)."),
        CommonOptions.help, .flag("--version", help: "Print the version and exit."),
    ]

    static var help: String {
        var text = """
        flightvoice \(version) — \(tagline)

        usage: flightvoice [--config FILE] COMMAND [options]
               flightvoice --version

        commands:

        """
        for command in commands {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

        settings: every command reads \(ConfigurationFile.defaultPath), or the file named by --config FILE or
        \(ConfigurationFile.environmentVariable); a missing default file means built-in defaults. Keys (see 'flightvoice config --help'):
        \(SettingKey.allCases.map { $0.rawValue }.joined(separator: ", ")).
        Precedence, highest first: \(EffectiveSettings.precedence).
        'flightvoice config' shows each effective setting and where it came from; a malformed file exits 78 naming FILE:LINE.

        Run 'flightvoice COMMAND --help' for a command's options.
        """
        return text
    }

    /// Runs the program with `arguments` (without the program name) and returns the exit code.
    public static func main(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, console: Console = .standard) -> Int32 {
        var arguments = arguments
        var configPath: String?
        // Global options come before the command: --config FILE (or --config=FILE).
        if let first = arguments.first, first == "--config" || first.hasPrefix("--config=") {
            if first == "--config" {
                guard arguments.count >= 2 else {
                    console.printError("flightvoice: --config needs a value (FILE)")
                    return ExitCode.usage.rawValue
                }
                configPath = arguments[1]
                arguments.removeFirst(2)
            } else {
                configPath = String(first.dropFirst("--config=".count))
                arguments.removeFirst()
            }
        }
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" || arguments.count > 1 else {
            if arguments.isEmpty {
                console.writeError(help + "\n")
                return ExitCode.usage.rawValue
            }
            console.print(help)
            return ExitCode.success.rawValue
        }
        if first == ModelProbe.childCommand {
            return ModelProbe.runChild(Array(arguments.dropFirst()), console: console)
        }
        if let answered = DocumentationRequest.handle(arguments, console: console) { return answered }
        if first == "help", let command = commands.first(where: { $0.name == arguments[1] }) {
            console.print(command.help)
            return ExitCode.success.rawValue
        }
        let command: (any Command.Type)?
        if first == "--version" {
            command = VersionCommand.self
        } else {
            command = commands.first(where: { $0.name == first })
        }
        guard let command else {
            console.printError("flightvoice: unknown command '\(first)'\n")
            console.writeError(help + "\n")
            return ExitCode.usage.rawValue
        }
        let rest = Array(arguments.dropFirst())
        do {
            let parsed = try ParsedArguments.parse(rest, options: command.options + [CommonOptions.help])
            if parsed.has("help") {
                console.print(command.help)
                return ExitCode.success.rawValue
            }
            let file = try ConfigurationFile.load(flag: configPath, environment: environment)
            let settings = try EffectiveSettings.resolve(arguments: parsed, file: file, environment: environment)
            let context = try CommandContext(console: console, environment: environment, settings: settings)
            return try command.run(parsed, context: context).rawValue
        } catch let error as UsageError {
            let hints = RecognizerOptions.movedOptions.merging(["--config": "--config FILE goes before the command: flightvoice --config FILE \(command.name) …"]) { first, _ in first }
            let moved = hints.first { error.message == "unknown option '\($0.key)'" }.map { " (\($0.value))" } ?? ""
            console.printError("flightvoice \(command.name): \(error.message)\(moved)\n")
            console.writeError(command.help)
            return ExitCode.usage.rawValue
        } catch {
            let failure = CommandFailure(error)
            console.printError("flightvoice \(command.name): \(failure.message)")
            return failure.exitCode.rawValue
        }
    }
}
