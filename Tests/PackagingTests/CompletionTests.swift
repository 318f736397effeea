import Foundation
import Testing
@testable import FlightVoiceCLI

/// Shell completions, made from the command definitions and run by the shells themselves on partial lines.
@Suite struct CompletionTests {
    static let program = ProgramReference.flightVoice

    /// The script `flightvoice completions SHELL` prints, written to a temporary file.
    static func script(for shell: CompletionScript.Shell, named name: String = "flightvoice") throws -> (folder: URL, file: URL) {
        let captured = CapturedConsole()
        #expect(FlightVoiceCommand.main(arguments: ["completions", shell.rawValue], console: captured.console) == 0)
        let text = captured.output
        let folder = try PackageFolders.makeTemporaryFolder("completion")
        let file = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return (folder, file)
    }

    /// What bash's completion function offers for `words`, the last being the partial word under the cursor.
    static func bashCompletions(_ words: [String], in folder: URL = PackageFolders.root) throws -> [String] {
        let (scriptFolder, file) = try script(for: .bash)
        defer { try? FileManager.default.removeItem(at: scriptFolder) }
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = """
        source "$0" || exit 9
        COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
        _flightvoice flightvoice "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
        printf '%s\\n' "${COMPREPLY[@]}"
        """
        let run = try ToolRun.run("bash", ["--norc", "--noprofile", "-c", program, file.path], in: folder)
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").map(String.init)
    }

    @Test func operandsAndValuesAreReadFromTheHelpDefinitions() throws {
        let commands = Dictionary(uniqueKeysWithValues: Self.program.commands.map { ($0.name, $0) })
        let databaseActions = Set(commands["db"]?.actions ?? [])
        #expect(databaseActions.isSuperset(of: ["status", "import", "reset", "watch"]))
        #expect(commands["db"]?.operands == .files)
        #expect(commands["recognize"]?.operands == .files)
        #expect(commands["eval"]?.operands == .files)
        #expect(commands["ask"]?.operands == ValueCompletion.freeText)
        #expect(commands["serve"]?.operands == ValueCompletion.freeText)
        #expect(commands["kiosk"]?.actions == [])
        let denoise = try #require(commands["eval"]?.options.first { $0.names == ["--denoise"] })
        #expect(denoise.valueCompletion == .words(["none", "speex", "spectral", "webrtc"]))
        #expect(commands["serve"]?.options.first { $0.names == ["--data"] }?.valueCompletion == .directories)
        #expect(commands["serve"]?.options.first { $0.names == ["--token-file"] }?.valueCompletion == .files)
        #expect(commands["serve"]?.options.first { $0.names.contains("--port") }?.valueCompletion == ValueCompletion.freeText)
        #expect(CommandReference.operands(ofUsageLine: "flightvoice kiosk [--db PATH | --database URL [--offline-copy PATH]]", command: "kiosk") == [])
    }

    @Test func descriptionsAreTheFirstSentenceOfTheHelp() {
        #expect(CompletionScript.firstSentence("TCP port (default 8080; 0 picks a free one and prints it).") == "TCP port (default 8080; 0 picks a free one and prints it)")
        #expect(CompletionScript.firstSentence("The flight database (default: X). Created from the built-in day if missing.") == "The flight database (default: X)")
        #expect(CompletionScript.firstSentence("or WebRTC's suppressor; NAME:KEY=VALUE,... changes a setting.") == "or WebRTC's suppressor; NAME:KEY=VALUE,... changes a setting")
    }

    @Test func bashCompletesCommandsAndProgramOptions() throws {
        #expect(try Self.bashCompletions(["flightvoice", "re"]) == ["recognize"])
        let all = try Self.bashCompletions(["flightvoice", ""])
        #expect(Set(all).isSuperset(of: Self.program.commands.map(\.name) + ["--help", "--version"]))
        #expect(try Self.bashCompletions(["flightvoice", "--ver"]) == ["--version"])
    }

    @Test func bashCompletesACommandsOptions() throws {
        #expect(try Self.bashCompletions(["flightvoice", "eval", "--den"]) == ["--denoise"])
        let serve = try Self.bashCompletions(["flightvoice", "serve", "--"])
        let serveCommand = try #require(Self.program.commands.first { $0.name == "serve" })
        #expect(Set(serve) == Set(serveCommand.options.flatMap(\.names).filter { $0.hasPrefix("--") }))
        // Options of other commands are not offered.
        #expect(!serve.contains("--json"))
    }

    @Test func bashCompletesTheValuesOfAnEnumeratedOption() throws {
        #expect(try Self.bashCompletions(["flightvoice", "eval", "--denoise", "sp"]) == ["speex", "spectral"])
        #expect(try Self.bashCompletions(["flightvoice", "eval", "x.tsv", "--denoise", ""]) == ["none", "speex", "spectral", "webrtc"])
        // The --opt=value spelling: bash splits it at "=".
        #expect(try Self.bashCompletions(["flightvoice", "eval", "--denoise", "=", "web"]) == ["webrtc"])
    }

    @Test func bashCompletesFilesAndFoldersWhereTheHelpSaysSo() throws {
        let folder = try PackageFolders.makeTemporaryFolder("completion-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("clips"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("clip.wav"))
        // Operands of recognize are files or folders; --data of serve is a folder; --db a file; ask's operand is text.
        #expect(Set(try Self.bashCompletions(["flightvoice", "recognize", "cl"], in: folder)) == ["clips", "clip.wav"])
        #expect(try Self.bashCompletions(["flightvoice", "serve", "--data", "cl"], in: folder) == ["clips"])
        #expect(Set(try Self.bashCompletions(["flightvoice", "ask", "--db", "cl"], in: folder)) == ["clips", "clip.wav"])
        #expect(try Self.bashCompletions(["flightvoice", "ask", "cl"], in: folder) == [])
        // A value that is a number or an address offers nothing.
        #expect(try Self.bashCompletions(["flightvoice", "serve", "--port", ""], in: folder) == [])
    }

    @Test func bashCompletesTheActionsOfDbThenFiles() throws {
        let actions = try #require(Self.program.commands.first { $0.name == "db" }).actions
        #expect(try Self.bashCompletions(["flightvoice", "db", ""]) == actions)
        #expect(try Self.bashCompletions(["flightvoice", "db", "--db", "x.sqlite", "re"]) == ["reset"])
        #expect(try Self.bashCompletions(["flightvoice", "db", "import", "Sampl"]) == ["Samples"])
    }

    @Test func zshLoadsTheScriptAsTheCompletionOfFlightvoice() throws {
        let (folder, file) = try Self.script(for: .zsh, named: "_flightvoice")
        defer { try? FileManager.default.removeItem(at: folder) }
        let syntax = try ToolRun.run("zsh", ["-n", file.path])
        #expect(syntax.status == 0 && syntax.output.isEmpty, "\(syntax.output)")
        let loaded = try ToolRun.run("zsh", ["-f", "-c", "fpath=(\"$1\" $fpath); autoload -Uz compinit; compinit -u -d \"$1/dump\"; print -r -- ${_comps[flightvoice]}", "zsh", folder.path])
        #expect(loaded.status == 0)
        #expect(loaded.output.trimmingCharacters(in: .whitespacesAndNewlines) == "_flightvoice", "\(loaded.output)")
    }

    /// What fish offers for `line` (`complete -C`), one candidate a line without its description.
    static func fishCompletions(_ line: String, in folder: URL = PackageFolders.root) throws -> [String] {
        let (scriptFolder, file) = try script(for: .fish, named: "flightvoice.fish")
        defer { try? FileManager.default.removeItem(at: scriptFolder) }
        let run = try ToolRun.run("fish", ["--no-config", "-c", "source $argv[1]; complete -C $argv[2]", file.path, line], in: folder)
        #expect(run.status == 0, "\(run.output)")
        return run.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    @Test func fishCompletesCommandsOptionsAndValues() throws {
        #expect(try Self.fishCompletions("flightvoice rec") == ["recognize"])
        #expect(try Self.fishCompletions("flightvoice eval --denoise ") == ["none", "spectral", "speex", "webrtc"])
        #expect(try Self.fishCompletions("flightvoice eval --deno") == ["--denoise"])
        let actions = try #require(Self.program.commands.first { $0.name == "db" }).actions
        #expect(try Self.fishCompletions("flightvoice db ") == actions.sorted())
        #expect(try Self.fishCompletions("flightvoice ask --js") == ["--json"])
    }
}
