import Foundation

/// One `flightvoice` subcommand: its help and its behaviour.
protocol Command: Sendable {
    static var name: String { get }
    /// One line for the command list.
    static var summary: String { get }
    /// Usage line(s) after "usage: ".
    static var usage: String { get }
    /// Paragraphs after the options in `--help`: examples, exit codes.
    static var discussion: String { get }
    static var options: [OptionSpec] { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}

extension Command {
    static var discussion: String { "" }

    /// The full `--help` text.
    static var help: String {
        var text = "\(summary)\n\nusage: \(usage)\n"
        let allOptions = options + [CommonOptions.help]
        if !allOptions.isEmpty {
            text += "\noptions:\n"
            let labels = allOptions.map { spec in spec.names.joined(separator: ", ") + (spec.valueName.map { " \($0)" } ?? "") }
            let width = min(28, (labels.map(\.count).max() ?? 0) + 2)
            for (label, spec) in zip(labels, allOptions) {
                let padding = label.count < width ? String(repeating: " ", count: width - label.count) : "\n  " + String(repeating: " ", count: width)
                text += "  \(label)\(padding)\(spec.help)\n"
            }
        }
        if !discussion.isEmpty { text += "\n\(discussion)\n" }
        return text
    }
}

/// Options several commands share.
enum CommonOptions {
    static let help = OptionSpec.flag("--help", "-h", help: "Show this help.")
    static let database = OptionSpec.value(
        "--db", valueName: "PATH",
        help: "The flight database, a SQLite file (setting `database`; default $XDG_DATA_HOME/flightvoice/flights.sqlite, created from the built-in day on first use). A named file that does not exist is an error (exit 74): create it with `flightvoice db init`.")
    static let sharedDatabase = OptionSpec.value(
        "--database", valueName: "URL",
        help: "A shared PostgreSQL database, postgres://user@host:port/name (setting `database`); a plain path is a SQLite file.")
    static let json = OptionSpec.flag("--json", help: "Print a JSON object (see docs/json-output.md).")
}
