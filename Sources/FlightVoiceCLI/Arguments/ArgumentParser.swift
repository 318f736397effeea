/// An option a command accepts: `--name VALUE`, `--name=VALUE`, or a flag `--name`.
struct OptionSpec: Sendable {
    /// Spellings, long first: ["--jobs", "-j"].
    let names: [String]
    /// The placeholder shown in help for an option's value ("N"), or nil for a flag.
    let valueName: String?
    let help: String

    static func flag(_ names: String..., help: String) -> OptionSpec { OptionSpec(names: names, valueName: nil, help: help) }
    static func value(_ names: String..., valueName: String, help: String) -> OptionSpec { OptionSpec(names: names, valueName: valueName, help: help) }

    /// The name values are stored under: the first spelling without dashes.
    var key: String { String(names[0].drop(while: { $0 == "-" })) }
}

/// A command line that could not be understood; its message says what to fix.
struct UsageError: Error, Sendable {
    let message: String
}

/// The arguments of one command after parsing.
struct ParsedArguments: Sendable {
    private(set) var values: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// True when the flag was given.
    func has(_ key: String) -> Bool { flags.contains(key) }
    /// Every value given for a repeatable option, in order.
    func values(of key: String) -> [String] { values[key] ?? [] }
    /// The last value given for an option.
    func value(_ key: String) -> String? { values[key]?.last }

    /// The option's value as a whole number within `range`, or nil when absent.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(key) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(message: "--\(key) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return number
    }

    /// The option's value, which must be one of `choices`; nil when absent.
    func choice(_ key: String, from choices: [String]) throws(UsageError) -> String? {
        guard let text = value(key) else { return nil }
        guard choices.contains(text) else {
            throw UsageError(message: "--\(key) takes one of \(choices.joined(separator: ", ")), not '\(text)'")
        }
        return text
    }

    /// Parses `arguments` against `options`. A lone "-" is a positional (standard input); "--" ends the options.
    static func parse(_ arguments: [String], options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            let (name, inlineValue) = splitInlineValue(argument)
            guard let spec = options.first(where: { $0.names.contains(name) }) else {
                throw UsageError(message: "unknown option '\(name)'")
            }
            guard spec.valueName != nil else {
                if inlineValue != nil { throw UsageError(message: "\(name) takes no value") }
                parsed.flags.insert(spec.key)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(message: "\(name) needs a value (\(spec.valueName!))")
            }
            parsed.values[spec.key, default: []].append(value)
        }
        return parsed
    }

    private static func splitInlineValue(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
