import FlightStore
import Foundation

/// Opening the flight database named by `--db`, `FLIGHTVOICE_DB` or the XDG default.
enum DatabaseOptions {
    /// The database path a command uses.
    static func path(_ arguments: ParsedArguments, context: CommandContext) -> String {
        arguments.value("db") ?? FlightStore.defaultPath(environment: context.environment)
    }

    /// Opens (creating from the built-in day when missing) the database a command uses.
    static func openStore(_ arguments: ParsedArguments, context: CommandContext) throws -> FlightStore {
        try FlightStore(path: path(arguments, context: context))
    }
}
