/// What a shell may offer for an option's value or an operand.
enum ValueCompletion: Equatable, Sendable {
    /// Free text or a number: nothing to offer.
    case freeText
    /// A file name (values named FILE, PATH, or a file kind such as MANIFEST.tsv).
    case files
    /// A folder name (values named DIR).
    case directories
    /// One of these words (an enumerated value written `a|b|c`).
    case words([String])
}

extension OptionSpec {
    /// The values an enumerated option takes, read from a value name written `a|b|c` (`--denoise none|speex|…`).
    var enumeratedValues: [String] {
        guard let valueName, valueName.contains("|") else { return [] }
        return valueName.split(separator: "|").map(String.init)
    }

    /// What a shell offers for this option's value; nil for a flag.
    var valueCompletion: ValueCompletion? {
        guard let valueName else { return nil }
        if !enumeratedValues.isEmpty { return .words(enumeratedValues) }
        return ValueCompletion(placeholder: valueName)
    }
}

extension ValueCompletion {
    /// The completion a placeholder in help text implies: `DIR` a folder, `FILE`, `PATH` or `NAME.ext` a file.
    init(placeholder: String) {
        let upper = placeholder.uppercased()
        if upper.contains("DIR") && !upper.contains("FILE") {
            self = .directories
        } else if upper.contains("FILE") || upper.contains("PATH") || placeholder.contains(".") {
            self = .files
        } else {
            self = .freeText
        }
    }
}

/// One command as its documentation sees it: the same name, summary, usage, options and discussion `--help` prints,
/// plus what its operands are, read from its usage lines. Man pages and shell completions are made from this.
struct CommandReference: Sendable {
    let name: String
    let summary: String
    /// Each usage line, without leading space ("flightvoice db status [--db PATH | --database URL]").
    let usageLines: [String]
    /// The options `--help` lists, `--help` itself last.
    let options: [OptionSpec]
    let discussion: String
    /// Words the first operand must be, when the usage has one line per action (`db status`, `db import`, …).
    let actions: [String]
    /// What a shell offers for the other operands.
    let operands: ValueCompletion

    init(_ command: any Command.Type) {
        name = command.name
        summary = command.summary
        usageLines = command.usage.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        options = command.options + [CommonOptions.help]
        discussion = command.discussion
        let lines = usageLines
        let operandLists = lines.map { Self.operands(ofUsageLine: $0, command: command.name) }
        let actionWords = lines.count > 1 ? operandLists.compactMap(\.first).filter { $0.allSatisfy { $0.isLowercase || $0 == "-" } } : []
        actions = actionWords
        let placeholders = operandLists.flatMap { actionWords.isEmpty ? $0 : Array($0.dropFirst()) }
        operands = placeholders.map { placeholder in
            placeholder.split(separator: "|").map { ValueCompletion(placeholder: String($0)) }.first { $0 != .freeText } ?? .freeText
        }.first { $0 != .freeText } ?? .freeText
    }

    /// The words after `flightvoice NAME` that are not options: bracketed groups and `-…` words left out.
    static func operands(ofUsageLine line: String, command: String) -> [String] {
        var depth = 0
        var unbracketed = ""
        for character in line {
            if character == "[" { depth += 1; continue }
            if character == "]" { depth = max(0, depth - 1); continue }
            if depth == 0 { unbracketed.append(character) }
        }
        let words = unbracketed.split(separator: " ").map(String.init)
        guard words.count >= 2, words[0] == "flightvoice", words[1] == command else { return [] }
        return words.dropFirst(2).filter { !$0.hasPrefix("-") && $0 != "|" }
            .map { $0.hasSuffix("...") ? String($0.dropLast(3)) : $0 }
    }
}

/// The program as its documentation sees it: its own options and its commands.
struct ProgramReference: Sendable {
    let name = "flightvoice"
    let version: String
    let tagline: String
    /// Options given before a command.
    let options: [OptionSpec]
    let commands: [CommandReference]

    /// `flightvoice` as built: `FlightVoiceCommand`'s commands and options.
    static var flightVoice: ProgramReference {
        ProgramReference(version: FlightVoiceCommand.version, tagline: FlightVoiceCommand.tagline,
                         options: FlightVoiceCommand.programOptions, commands: FlightVoiceCommand.commands.map(CommandReference.init))
    }

    /// Files the installed program reads and writes, for the FILES section of its man page.
    static let files: [(path: String, description: String)] = [
        ("/etc/flightvoice/flightvoice.conf", "Settings every command reads; a command's own flags override them."),
        ("/var/lib/flightvoice/", "The service's data folder (the package's flight database, jobs, media, secrets)."),
        ("/usr/share/flightvoice/models/", "FlightVoice's acoustic models, found beside the installed program."),
    ]
}
