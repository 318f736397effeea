import Foundation

/// The `flightvoice` program: dispatches to a subcommand and turns every failure into a message and an exit code.
public enum FlightVoiceCommand {
    static let commands: [any Command.Type] = [AskCommand.self, NormalizeCommand.self, RecognizeCommand.self, EvalCommand.self, DatabaseCommand.self, ServeCommand.self, ListenCommand.self, KioskCommand.self, BenchLiveCommand.self]

    static let version = "0.1.0"

    /// What the program is, in one line: the help's first line and the man page's NAME.
    static let tagline = "offline flight status by voice: say a flight number, get its gate."

    /// Options given before a command (what `main` reads from the first argument).
    static let programOptions: [OptionSpec] = [CommonOptions.help, .flag("--version", help: "Print the version and exit.")]

    static var help: String {
        var text = """
        flightvoice \(version) — \(tagline)

        usage: flightvoice COMMAND [options]

        commands:

        """
        for command in commands {
            text += "  " + command.name.padding(toLength: 12, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'flightvoice COMMAND --help' for a command's options."
        return text
    }

    /// Runs the program with `arguments` (without the program name) and returns the exit code.
    public static func main(arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment, console: Console = .standard) -> Int32 {
        guard let first = arguments.first, first != "--help", first != "-h", first != "help" || arguments.count > 1 else {
            if arguments.isEmpty {
                console.writeError(help + "\n")
                return ExitCode.usage.rawValue
            }
            console.print(help)
            return ExitCode.success.rawValue
        }
        if first == "--version" {
            console.print("flightvoice \(version)")
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
        guard let command = commands.first(where: { $0.name == first }) else {
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
            let context = try CommandContext(console: console, environment: environment)
            return try command.run(parsed, context: context).rawValue
        } catch let error as UsageError {
            console.printError("flightvoice \(command.name): \(error.message)\n")
            console.writeError(command.help)
            return ExitCode.usage.rawValue
        } catch {
            let failure = CommandFailure(error)
            console.printError("flightvoice \(command.name): \(failure.message)")
            return failure.exitCode.rawValue
        }
    }
}
