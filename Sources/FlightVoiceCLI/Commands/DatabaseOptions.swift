import FlightStore
import FlightStoreSelection
import Foundation

/// Opening the flight database named by `--database`, `--db`, `FLIGHTVOICE_DATABASE`, `FLIGHTVOICE_DB` or the XDG default.
enum DatabaseOptions {
    /// The database a command uses.
    static func location(_ arguments: ParsedArguments, context: CommandContext) throws(UsageError) -> FlightDatabaseLocation {
        if arguments.value("database") != nil && arguments.value("db") != nil {
            throw UsageError(message: "choose one of --database and --db")
        }
        return FlightDatabaseLocation.resolve(database: arguments.value("database"), path: arguments.value("db"), environment: context.environment)
    }

    /// Opens (creating or migrating when needed) the database a command uses.
    static func openStore(_ arguments: ParsedArguments, context: CommandContext) throws -> any FlightDatabase {
        try location(arguments, context: context).open()
    }
}
