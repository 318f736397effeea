/// Why a flight database could not be opened, created or read; the text says which file and what to do.
public enum FlightStoreError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The file exists but is not a FlightVoice database: not SQLite, corrupt, or another schema or version.
    case notAFlightVoiceDatabase(path: String, reason: String)
    /// A new database could not be created at `path` (directory or seed failure).
    case cannotCreateDatabase(path: String, reason: String)
    /// An input file (e.g. a CSV import) could not be read.
    case cannotReadFile(path: String, reason: String)
    /// A row in the database breaks the schema's promises (e.g. an unknown status), so no answer can be built.
    case invalidData(path: String, reason: String)

    /// One sentence for an operator, naming the file and the next step.
    public var description: String {
        switch self {
        case .notAFlightVoiceDatabase(let path, let reason):
            "\(path) is not a FlightVoice database: \(reason). Move it away, or choose another file with --db or FLIGHTVOICE_DB."
        case .cannotCreateDatabase(let path, let reason):
            "cannot create the flight database \(path): \(reason)"
        case .cannotReadFile(let path, let reason):
            "cannot read \(path): \(reason)"
        case .invalidData(let path, let reason):
            "the flight database \(path) holds invalid data: \(reason). Run `flightvoice db reset` to restore the seed."
        }
    }
}
