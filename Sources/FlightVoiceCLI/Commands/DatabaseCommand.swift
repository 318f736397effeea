import FlightCore
import FlightStore
import Foundation

/// `flightvoice db init|status|import|reset|watch`: creating the flight database, what it holds, and loading an
/// operator's day into it.
enum DatabaseCommand: Command {
    static let name = "db"
    static let summary = "Create, show, import into, or reset the flight database"
    static let usage = """
    flightvoice db init [--db PATH | --database URL]
           flightvoice db status [--db PATH | --database URL]
           flightvoice db import [--db PATH | --database URL] FILE.csv
           flightvoice db reset [--db PATH | --database URL]
           flightvoice db watch [--db PATH | --database URL] [--count N]
    """
    static let options: [OptionSpec] = [
        CommonOptions.database, CommonOptions.sharedDatabase,
        .value("--count", valueName: "N", help: "watch: stop after N changes (default: run until interrupted)."),
    ]
    static let discussion = """
    init creates the database from the built-in service day (a PostgreSQL database gets its schema), and leaves an
    existing one as it is. Every other command refuses a named database file that does not exist (exit 74), so that a
    mistyped path never shows the demo day; only the default location is created on first use.
    import upserts flights from a CSV with the header
      flight,airline,direction,airport,city,scheduled,estimated,terminal,gate,belt,status,codeshares
    in one transaction: a bad row rejects the file (with its line number) and nothing is written.
    reset recreates the database from the built-in service day.
    watch prints a line whenever the flights change (any process's import or reset): what a kiosk hears.
    With --database postgres://… (or FLIGHTVOICE_DATABASE) the flights live in PostgreSQL: the schema is migrated on
    first use, and every import or reset is announced to the kiosks and servers listening to that database.

    exit codes: 0 done · 64 usage · 65 bad CSV row · 66 CSV file missing · 74 database unusable · 76 database server unreachable
    """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let action = arguments.positionals.first else { throw UsageError(message: "say init, status, import FILE.csv, reset or watch") }
        let operands = arguments.positionals.dropFirst()
        switch action {
        case "init":
            guard operands.isEmpty else { throw UsageError(message: "init takes no operands") }
            let location = DatabaseOptions.location(context.settings)
            let existed: Bool = if case .sqlite(let path) = location { FileManager.default.fileExists(atPath: path) } else { true }
            let status = try DatabaseOptions.openStore(context, create: true).status()
            context.console.print(existed
                ? "\(location) already exists (schema \(status.schemaVersion), \(status.flights) flights); left as it is"
                : "created \(status.path) from the built-in day (\(status.flights) flights)")
        case "status":
            guard operands.isEmpty else { throw UsageError(message: "status takes no operands") }
            printStatus(try DatabaseOptions.openStore(context).status(), console: context.console)
        case "import":
            guard operands.count == 1, let file = operands.first else { throw UsageError(message: "import takes one CSV file") }
            guard FileManager.default.fileExists(atPath: file) else {
                throw CommandFailure(message: "\(file): no such file", exitCode: .noInput)
            }
            let store = try DatabaseOptions.openStore(context)
            let summary = try store.importCSV(contentsOf: file, now: context.now)
            var line = "imported \(file): \(summary.inserted) added, \(summary.updated) updated"
            if !summary.airlinesAdded.isEmpty { line += "; new airlines \(summary.airlinesAdded.joined(separator: ", "))" }
            context.console.print(line)
        case "reset":
            guard operands.isEmpty else { throw UsageError(message: "reset takes no operands") }
            let store = try DatabaseOptions.openStore(context)
            try store.reset()
            context.console.print("reset \(try store.status().path) to the built-in day")
        case "watch":
            guard operands.isEmpty else { throw UsageError(message: "watch takes no operands") }
            let limit = try arguments.integer("count", in: 1...Int(Int32.max))
            let store = try DatabaseOptions.openStore(context)
            context.console.print("watching \(try store.status().path) at schedule revision \(try store.scheduleRevision())")
            watch(store, limit: limit, console: context.console)
        default:
            throw UsageError(message: "unknown db action '\(action)': say init, status, import FILE.csv, reset or watch")
        }
        return .success
    }

    /// Prints each change the database announces until `limit` changes were seen (or forever).
    private static func watch(_ store: any FlightDatabase, limit: Int?, console: Console) {
        let finished = DispatchSemaphore(value: 0)
        Task {
            let clock = ISO8601DateFormatter()
            var seen = 0
            for await change in store.scheduleChanges() {
                switch change {
                case .revised(let revision):
                    console.print("\(clock.string(from: Date())) schedule changed: revision \(revision)")
                    seen += 1
                case .unreachable(let message):
                    console.printError("\(clock.string(from: Date())) database unreachable, retrying: \(message)")
                }
                if let limit, seen >= limit { break }
            }
            finished.signal()
        }
        finished.wait()
    }

    private static func printStatus(_ status: FlightStoreStatus, console: Console) {
        console.print("database   \(status.path) (schema \(status.schemaVersion), \(status.journalMode))")
        console.print("flights    \(status.flights) (\(status.departures) departures, \(status.arrivals) arrivals)")
        console.print("airlines   \(status.airlines)")
        console.print("codeshares \(status.codeshares)")
        let statuses = FlightStatus.allCases.map(\.rawValue).filter { (status.flightsByStatus[$0] ?? 0) > 0 }
        console.print("statuses   " + statuses.map { "\($0) \(status.flightsByStatus[$0]!)" }.joined(separator: ", "))
    }
}
