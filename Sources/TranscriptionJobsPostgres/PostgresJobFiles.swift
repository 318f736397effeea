import FlightStore
import FlightStorePostgres
import Foundation
import TranscriptionJobs

/// Job media and transcripts in PostgreSQL (`job_files`, bytea), so that the server that decodes a job and the one a
/// client asks for its transcript need not be the one that received it.
///
/// Bytes travel as hex text (libpq text parameters, `decode`/`encode`), doubling their size on the wire; the limit
/// keeps one file well inside PostgreSQL's 1 GB field and a server's memory.
///
/// Thread safety: `Sendable`; its own confined connection, so file transfers do not hold up queue operations.
public final class PostgresJobFiles: JobFileStore {
    /// The largest media file or transcript kept, in bytes (32 MiB: minutes of 16 kHz audio, far more than a query).
    public static let defaultMaximumFileBytes = 32 * 1024 * 1024

    public let maximumFileBytes: Int
    private let connection: ConfinedPostgresConnection

    /// Connects to `url`, migrating the schema. Throws a `.connection` `PostgresError` when the server cannot be reached.
    public init(url: String, backoff: ReconnectBackoff = .standard, maximumFileBytes: Int = defaultMaximumFileBytes) throws {
        self.maximumFileBytes = maximumFileBytes
        connection = try ConfinedPostgresConnection(url: url, backoff: backoff)
    }

    public func write(_ data: Data, to path: String) throws {
        guard data.count <= maximumFileBytes else { throw JobFileTooLarge(path: path, bytes: data.count, limit: maximumFileBytes) }
        let hex = ByteaHex.text(data)
        try connection.withConnection { database in
            _ = try database.execute("""
                INSERT INTO job_files (path, data, stored_ms) VALUES ($1, decode($2, 'hex'), $3)
                ON CONFLICT (path) DO UPDATE SET data = EXCLUDED.data, stored_ms = EXCLUDED.stored_ms
                """, [path, hex, String(Int64(Date().timeIntervalSince1970 * 1000))])
        }
    }

    public func read(_ path: String) throws -> Data? {
        let hex = try connection.withConnection { database in
            try database.execute("SELECT encode(data, 'hex') FROM job_files WHERE path = $1", [path]).first?.optionalText(at: 0)
        }
        return hex.map(ByteaHex.bytes(fromHex:))
    }

    public func remove(_ path: String) throws {
        try connection.withConnection { database in _ = try database.execute("DELETE FROM job_files WHERE path = $1", [path]) }
    }
}

/// A file larger than the job file store keeps.
public struct JobFileTooLarge: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let bytes: Int
    public let limit: Int
    public var description: String { "\(path) has \(bytes) bytes; the shared job store keeps files up to \(limit) bytes" }
}
