import Foundation

/// The hidden requests that print the program's documentation in other forms: `flightvoice help --man [COMMAND]`
/// (roff on standard output), `flightvoice help --man --output DIR` (every page into DIR), and
/// `flightvoice completions bash|zsh|fish`. `make install` and the package run them on the built binary.
enum DocumentationRequest {
    /// The exit code when `arguments` is one of these requests, after answering it; nil for any other command line.
    static func handle(_ arguments: [String], console: Console, program: ProgramReference = .flightVoice) -> Int32? {
        switch arguments.first {
        case "help" where arguments.dropFirst().first == "--man":
            return manual(Array(arguments.dropFirst(2)), console: console, program: program)
        case "completions":
            return completions(Array(arguments.dropFirst()), console: console, program: program)
        default:
            return nil
        }
    }

    private static func manual(_ operands: [String], console: Console, program: ProgramReference) -> Int32 {
        switch operands.count {
        case 0:
            console.writeOut(ManPage.render(program))
        case 1 where !operands[0].hasPrefix("-"):
            guard let command = program.commands.first(where: { $0.name == operands[0] }) else {
                console.printError("flightvoice help: unknown command '\(operands[0])'; commands: \(program.commands.map(\.name).joined(separator: ", "))")
                return ExitCode.usage.rawValue
            }
            console.writeOut(ManPage.render(command, of: program))
        case 2 where operands[0] == "--output":
            let folder = URL(fileURLWithPath: operands[1])
            var pages = [(ManPage.fileName(program: program, command: nil), ManPage.render(program))]
            pages += program.commands.map { (ManPage.fileName(program: program, command: $0), ManPage.render($0, of: program)) }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (name, text) in pages {
                    let file = folder.appendingPathComponent(name)
                    try Data(text.utf8).write(to: file)
                    console.print(file.path)
                }
            } catch {
                console.printError("flightvoice help: cannot write the manual pages to \(folder.path): \(error.localizedDescription)")
                return ExitCode.ioError.rawValue
            }
        default:
            console.printError("flightvoice help: say help --man [COMMAND] or help --man --output DIR")
            return ExitCode.usage.rawValue
        }
        return ExitCode.success.rawValue
    }

    private static func completions(_ operands: [String], console: Console, program: ProgramReference) -> Int32 {
        guard operands.count == 1, let shell = CompletionScript.Shell(rawValue: operands[0]) else {
            let shells = CompletionScript.Shell.allCases.map(\.rawValue).joined(separator: ", ")
            console.printError("flightvoice completions: say which shell: \(shells)")
            return ExitCode.usage.rawValue
        }
        console.writeOut(CompletionScript.render(program, for: shell))
        return ExitCode.success.rawValue
    }
}
