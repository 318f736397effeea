import Foundation
import Testing
@testable import FlightVoiceCLI

/// The manual pages: made from the `--help` definitions, rendered by man and groff without a warning.
@Suite struct ManPageTests {
    static let program = ProgramReference.flightVoice

    /// Every page: flightvoice(1) and one per command, written as `help --man --output DIR` writes them.
    static func writePages() throws -> URL {
        let folder = try PackageFolders.makeTemporaryFolder("man")
        let captured = CapturedConsole()
        #expect(FlightVoiceCommand.main(arguments: ["help", "--man", "--output", folder.path], console: captured.console) == 0, "\(captured.errors)")
        return folder
    }

    @Test func thereIsAPageForTheProgramAndForEveryCommand() throws {
        let folder = try Self.writePages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let names = try Set(FileManager.default.contentsOfDirectory(atPath: folder.path))
        let expected = Set(["flightvoice.1"] + Self.program.commands.map { "flightvoice-\($0.name).1" })
        #expect(names == expected)
    }

    @Test func everyPageRendersWithoutAWarning() throws {
        let folder = try Self.writePages()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            let page = folder.appendingPathComponent(name).path
            let groff = try ToolRun.run("groff", ["-ww", "-man", "-z", page])
            #expect(groff.status == 0 && groff.output.isEmpty, "groff -ww on \(name): \(groff.output)")
            // man-db's own check (what lintian runs): warnings on standard error, the page on standard output.
            let man = try ToolRun.run("sh", ["-c", "man --warnings -E UTF-8 -l -Tutf8 -Z \"$0\" >/dev/null", page], environment: ["MANWIDTH": "80"])
            #expect(man.status == 0 && man.output.isEmpty, "man --warnings -l \(name): \(man.output)")
        }
    }

    @Test func aCommandsPageHasItsHelpTextOptionsAndExitCodes() throws {
        let recognize = try #require(Self.program.commands.first { $0.name == "recognize" })
        let page = ManPage.render(recognize, of: Self.program)
        #expect(page.contains(".SH NAME\nflightvoice\\-recognize \\- \(ManPage.escape(recognize.summary))\n"))
        for option in recognize.options {
            // Each option's help is the very text --help prints, escaped for roff, under its spellings.
            #expect(page.contains(option.names.map { "\\fB\(ManPage.escape($0))\\fR" }.joined(separator: ", ")), "\(option.names)")
            #expect(page.contains(ManPage.escape(option.help)), "\(option.names)")
        }
        #expect(page.contains(".SH EXIT STATUS\n.TP\n.B 0\nevery clip processed\n"))
        #expect(page.contains(".TP\n.B 69\nspeech model unusable\n"))
    }

    @Test func renderedPageReadsAsTheHelpDoes() throws {
        let folder = try Self.writePages()
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("flightvoice-db.1").path
        let man = try ToolRun.run("man", ["-l", page], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        // (Justified text has runs of spaces, and lines wrap.)
        let text = man.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(man.status == 0)
        let database = try #require(Self.program.commands.first { $0.name == "db" })
        #expect(text.contains("flightvoice-db - \(database.summary)"))
        // An indented line of the discussion keeps its layout (the CSV header), and a non-ASCII character survives.
        #expect(text.contains("flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares"))
        #expect(text.contains("--count N"))
        #expect(text.contains("…"))
        let program = try ToolRun.run("man", ["-l", folder.appendingPathComponent("flightvoice.1").path], environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat"])
        let words = program.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("flightvoice - \(Self.program.tagline)"))
        #expect(words.contains("/etc/flightvoice/flightvoice.conf"))
    }

    @Test func roffControlCharactersAndUnicodeAreEscaped() {
        #expect(ManPage.escape(".starts with a dot") == "\\&.starts with a dot")
        #expect(ManPage.escape("'quote first") == "\\&'quote first")
        #expect(ManPage.escape("a\\b --flag") == "a\\eb \\-\\-flag")
        #expect(ManPage.escape("0.6–0.81 · µ") == "0.6\\[u2013]0.81 \\[u00B7] \\[u00B5]")
    }

    @Test func unknownCommandAndBadRequestAreUsageErrors() {
        let captured = CapturedConsole()
        #expect(FlightVoiceCommand.main(arguments: ["help", "--man", "nosuch"], console: captured.console) == 64)
        #expect(captured.errors.contains("unknown command 'nosuch'"))
        #expect(FlightVoiceCommand.main(arguments: ["help", "--man", "--output"], console: captured.console) == 64)
        #expect(FlightVoiceCommand.main(arguments: ["completions", "tcsh"], console: captured.console) == 64)
        #expect(captured.errors.contains("bash, zsh, fish"))
    }
}
