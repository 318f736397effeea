import Testing
@testable import FlightVoiceCLI

@Suite struct ArgumentParserTests {
    let options: [OptionSpec] = [
        .flag("--json", help: ""),
        .value("--jobs", "-j", valueName: "N", help: ""),
        .value("--format", valueName: "FORMAT", help: ""),
    ]

    @Test func parsesFlagsValuesAndPositionals() throws {
        let parsed = try ParsedArguments.parse(["a.wav", "--json", "-j", "3", "--format=jsonl", "-", "b"], options: options)
        #expect(parsed.has("json"))
        #expect(try parsed.integer("jobs", in: 1...64) == 3)
        #expect(parsed.value("format") == "jsonl")
        #expect(parsed.positionals == ["a.wav", "-", "b"])
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ParsedArguments.parse(["--", "--json", "-j"], options: options)
        #expect(!parsed.has("json"))
        #expect(parsed.positionals == ["--json", "-j"])
    }

    @Test(arguments: [
        (["--nope"], "unknown option '--nope'"),
        (["--jobs"], "--jobs needs a value (N)"),
        (["--json=yes"], "--json takes no value"),
    ])
    func rejectsBadCommandLines(arguments: [String], message: String) {
        #expect(throws: UsageError.self) { try ParsedArguments.parse(arguments, options: options) }
        do {
            _ = try ParsedArguments.parse(arguments, options: options)
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func validatesNumbersAndChoices() throws {
        let parsed = try ParsedArguments.parse(["--jobs", "0", "--format", "xml"], options: options)
        #expect(throws: UsageError.self) { try parsed.integer("jobs", in: 1...64) }
        #expect(throws: UsageError.self) { try parsed.choice("format", from: ["text", "jsonl"]) }
        #expect(try ParsedArguments.parse([], options: options).integer("jobs", in: 1...64) == nil)
    }
}
