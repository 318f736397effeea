/// Process exit codes: distinct for every outcome a user or script must tell apart (sysexits.h where one fits).
public enum ExitCode: Int32, Sendable {
    case success = 0
    /// Some clips in a batch could not be processed (unreadable, corrupt, unsupported); the rest were answered.
    case someInputsFailed = 1
    /// The query was not understood as a flight number.
    case notUnderstood = 2
    /// The flight number was understood but no flight today has it.
    case notFound = 3
    /// Bad command line (EX_USAGE).
    case usage = 64
    /// Bad input data, such as a CSV import with a bad row (EX_DATAERR).
    case dataError = 65
    /// An input file does not exist or cannot be read (EX_NOINPUT).
    case noInput = 66
    /// The speech model is missing or unusable (EX_UNAVAILABLE).
    case unavailable = 69
    /// An unexpected internal failure (EX_SOFTWARE).
    case software = 70
    /// The microphone (an ALSA capture device) does not exist, is busy, or went away (`listen`).
    case microphoneUnavailable = 71
    /// `serve` cannot bind its address: the port is taken or the address is not this machine's (EX_CANTCREAT).
    case cannotBind = 73
    /// The database is missing, unreadable or corrupt, or an output file cannot be written (EX_IOERR).
    case ioError = 74
    /// The PostgreSQL server named by --database or FLIGHTVOICE_DATABASE cannot be reached.
    case databaseUnreachable = 76
    /// The settings file is malformed (unknown key, bad value, a key set twice) or cannot be read (EX_CONFIG).
    case configuration = 78
}
