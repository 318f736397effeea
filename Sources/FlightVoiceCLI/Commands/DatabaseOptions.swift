import FlightStore
import FlightStoreSelection
import Foundation

/// Opening the flight database the `database` setting names (`--database`/`--db`, the settings file,
/// `FLIGHTVOICE_DATABASE`/`FLIGHTVOICE_DB`, or the XDG default).
enum DatabaseOptions {
    /// The database a command uses.
    static func location(_ settings: EffectiveSettings) -> FlightDatabaseLocation {
        FlightDatabaseLocation.resolve(database: settings[.database].value, path: nil, environment: [:])
    }

    /// Opens (creating or migrating when needed) the database a command uses. A SQLite path that was named (by a flag,
    /// the settings file or the environment) and does not exist is exit 74 naming it and where it was named, unless
    /// `create`: only the default location is created on first use, so a mistyped path never shows the demo day.
    static func openStore(_ context: CommandContext, create: Bool = false) throws -> any FlightDatabase {
        let location = location(context.settings)
        if !create { try requireExisting(location, settings: context.settings) }
        return try location.open()
    }

    /// Exit 74 when `location` is a named SQLite file that does not exist.
    static func requireExisting(_ location: FlightDatabaseLocation, settings: EffectiveSettings) throws {
        guard case .sqlite(let path) = location, settings.isGiven(.database), !FileManager.default.fileExists(atPath: path) else { return }
        let source = settings[.database].source
        throw CommandFailure(
            message: "the database \(path) does not exist (named by \(source.description)); check the path, or create it from the built-in day with: flightvoice db init --db \(path)",
            exitCode: .ioError)
    }
}
