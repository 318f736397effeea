import FlightStore
import FlightStorePostgres
import Foundation
import TranscriptionJobs

/// S3 buckets and objects in PostgreSQL (`s3_buckets`, `s3_objects`: bytea), so that an object PUT through one server
/// of a fleet is read, listed and transcribed through any other. Keys are stored with the "C" collation: listed in
/// byte order, as S3 lists them.
///
/// Thread safety: `Sendable`; its own confined connection, so object transfers do not hold up queue operations.
public final class PostgresObjectStore: ObjectStore {
    /// The largest object kept by default, in bytes: the shared job files' limit, since a job naming an object gets a
    /// copy of it there.
    public static let defaultMaximumObjectBytes = PostgresJobFiles.defaultMaximumFileBytes

    public let maximumObjectBytes: Int
    private let connection: ConfinedPostgresConnection

    /// Connects to `url`, migrating the schema. Throws a `.connection` `PostgresError` when the server cannot be reached.
    public init(url: String, backoff: ReconnectBackoff = .standard, maximumObjectBytes: Int = defaultMaximumObjectBytes) throws {
        self.maximumObjectBytes = maximumObjectBytes
        connection = try ConfinedPostgresConnection(url: url, backoff: backoff)
    }

    public func createBucket(_ bucket: String, now: Date) throws {
        try connection.withConnection { database in
            _ = try database.execute("INSERT INTO s3_buckets (name, created_ms) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
                                     [bucket, String(JobStoreClock.milliseconds(now))])
        }
    }

    public func bucketExists(_ bucket: String) throws -> Bool {
        try connection.withConnection { database in
            try !database.execute("SELECT 1 FROM s3_buckets WHERE name = $1", [bucket]).isEmpty
        }
    }

    public func deleteBucket(_ bucket: String) throws -> Bool {
        try connection.withConnection { database in
            try database.transaction {
                guard try !database.execute("SELECT 1 FROM s3_buckets WHERE name = $1 FOR UPDATE", [bucket]).isEmpty else { return false }
                guard try database.execute("SELECT 1 FROM s3_objects WHERE bucket = $1 LIMIT 1", [bucket]).isEmpty else {
                    throw ObjectStoreError.bucketNotEmpty(bucket)
                }
                try database.execute("DELETE FROM s3_buckets WHERE name = $1", [bucket])
                return true
            }
        }
    }

    public func putObject(_ data: Data, bucket: String, key: String, now: Date) throws {
        guard data.count <= maximumObjectBytes else { throw ObjectStoreError.tooLarge(bytes: data.count, limit: maximumObjectBytes) }
        let hex = ByteaHex.text(data)
        try connection.withConnection { database in
            // FOR SHARE holds the bucket until the object is in: a concurrent DELETE of the bucket waits, then sees it.
            let stored = try database.execute("""
                WITH bucket AS (SELECT name FROM s3_buckets WHERE name = $1 FOR SHARE)
                INSERT INTO s3_objects (bucket, key, data, size, modified_ms)
                SELECT name, $2, decode($3, 'hex'), $4::bigint, $5::bigint FROM bucket
                ON CONFLICT (bucket, key) DO UPDATE SET data = EXCLUDED.data, size = EXCLUDED.size, modified_ms = EXCLUDED.modified_ms
                RETURNING key
                """, [bucket, key, hex, String(data.count), String(JobStoreClock.milliseconds(now))])
            guard !stored.isEmpty else { throw ObjectStoreError.noSuchBucket(bucket) }
        }
    }

    public func object(bucket: String, key: String) throws -> StoredObject? {
        let row = try connection.withConnection { database in
            try database.execute("SELECT encode(data, 'hex'), modified_ms FROM s3_objects WHERE bucket = $1 AND key = $2", [bucket, key]).first
        }
        return row.map { StoredObject(data: ByteaHex.bytes(fromHex: $0.text(at: 0)), modified: JobStoreClock.date(Int64($0.integer(at: 1)))!) }
    }

    public func deleteObject(bucket: String, key: String) throws {
        try connection.withConnection { database in
            _ = try database.execute("DELETE FROM s3_objects WHERE bucket = $1 AND key = $2", [bucket, key])
        }
    }

    public func listObjects(bucket: String, prefix: String, after: String, limit: Int) throws -> (objects: [ObjectSummary], isTruncated: Bool) {
        let rows = try connection.withConnection { database in
            try database.query("""
                SELECT key, size, modified_ms FROM s3_objects WHERE bucket = $1 AND starts_with(key, $2) AND key > $3 ORDER BY key LIMIT $4
                """, [bucket, prefix, after, String(limit + 1)]) {
                ObjectSummary(key: $0.text(at: 0), size: $0.integer(at: 1), modified: JobStoreClock.date(Int64($0.integer(at: 2)))!)
            }
        }
        return (Array(rows.prefix(limit)), rows.count > limit)
    }
}
