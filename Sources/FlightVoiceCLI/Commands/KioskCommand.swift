import FlightCore
import FlightStore
import Foundation
import Kiosk

/// `flightvoice kiosk`: the full-screen kiosk; this command only reads its options and starts it.
enum KioskCommand: Command {
    static let name = "kiosk"
    static let summary = "Run the full-screen kiosk: say or type a flight number, see and hear its gate"
    static let usage = "flightvoice kiosk [--device NAME | --no-microphone] [--speaker NAME | --no-voice] [--card-seconds N] [--db PATH | --database URL [--offline-copy PATH]]"
    static let options: [OptionSpec] = [
        .value("--device", "-d", valueName: "NAME", help: "ALSA capture device (setting `microphone`; default: default)."),
        .flag("--no-microphone", help: "Keyboard only (setting `microphone = none`)."),
        .value("--speaker", valueName: "NAME", help: "ALSA playback device for spoken answers (setting `speaker`; default: default)."),
        .flag("--no-voice", help: "Do not speak the answers (setting `voice = off`)."),
        .value("--card-seconds", valueName: "N", help: "How long an answer stays on screen, counting down (default 20)."),
        RecognizerOptions.model, RecognizerOptions.crossCheck, RecognizerOptions.noNeuralCheck, RecognizerOptions.dictionary,
        CommonOptions.database, CommonOptions.sharedDatabase,
        .value("--offline-copy", valueName: "PATH",
               help: "With --database: the local SQLite copy that answers while the shared database is unreachable (default: offline-copy.sqlite beside the default database)."),
    ]
    static let discussion = """
    When standard error is not the terminal (under systemd it is the journal), it gets one logfmt line at start
    ("event=start …", what doctor checks) and one per query ("event=query source=… status=… flight=… heard=…").
    Works without a microphone (typed queries, the same forms as ask); the screen says when the microphone is
    unavailable and picks it up again when it comes back. Esc returns to the start, Ctrl-C quits.
    Flight changes (db import, the service, another server) are picked up while it runs. With a shared PostgreSQL
    database it keeps a local copy and answers from it while the database is unreachable, showing how old it is.

    exit codes: 0 quit · 64 usage · 69 speech model · 74 database · 76 shared database unreachable with no local copy yet
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard arguments.positionals.isEmpty else { throw UsageError(message: "kiosk takes no arguments") }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw UsageError(message: "the kiosk needs a terminal (for answers in a script, use listen or ask)")
        }
        var options = KioskOptions()
        let settings = context.settings
        options.microphone = settings[.microphone].value == "none" ? nil : settings[.microphone].value
        options.speaker = settings[.voice].value == "off" ? nil : settings[.speaker].value
        if let seconds = try arguments.integer("card-seconds", in: 3...3600) { options.cardSeconds = Double(seconds) }
        if context.environment["FLIGHTVOICE_NOW"].map({ !$0.isEmpty }) == true { options.fixedNow = context.now }
        let configuration = try RecognizerOptions.configuration(arguments, settings: context.settings)
        let offlineCopy = arguments.value("offline-copy")
            ?? ((FlightStore.defaultPath(environment: context.environment) as NSString).deletingLastPathComponent as NSString)
                .appendingPathComponent("offline-copy.sqlite")
        let location = DatabaseOptions.location(settings)
        try DatabaseOptions.requireExisting(location, settings: settings)
        let store = try location.openLive(snapshotPath: offlineCopy)
        options.offlineCopyTakenAt = {
            if case .snapshot(let takenAt, _) = store.freshness { return takenAt }
            return nil
        }
        // Logs go to standard error only when it is not the terminal the kiosk draws on (under systemd: the journal).
        let console = context.console
        if !console.errorIsTerminal {
            // The sound devices are named, not opened: the kiosk opens them itself and shows when one is missing.
            let line = Diagnostics.startLine(command: name, checks: Diagnostics.run(settings, scope: [.models, .database, .disk]))
                .with("microphone", options.microphone ?? "none").with("speaker", options.speaker ?? "off")
            console.printError(line.description)
            options.queryLog = { line in console.printError(line.description) }
        }
        let kiosk = Kiosk(flights: store, configuration: configuration, options: options)
        try AsyncBridge.wait { try await kiosk.run() }
        return .success
    }
}
