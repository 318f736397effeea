import FlightStore
import Foundation

/// One step of the PostgreSQL schema: applied once per database, in version order, recorded in `flightvoice_migrations`.
struct PostgresMigration: Sendable {
    let version: Int
    let summary: String
    let sql: StaticString
}

/// The versioned schema of a FlightVoice PostgreSQL database and how it is brought up to date.
enum PostgresSchema {
    /// Every migration, oldest first. Never edit a released one: add the next version.
    static let migrations: [PostgresMigration] = [
        PostgresMigration(version: 1, summary: "flights, airlines, statuses, codeshares and the schedule revision", sql: """
            CREATE TABLE airlines (
                iata         text PRIMARY KEY CHECK (length(iata) = 2),
                icao         text UNIQUE CHECK (icao IS NULL OR length(icao) = 3),
                name         text NOT NULL,
                callsign     text,
                spoken_names text NOT NULL DEFAULT ''
            );
            CREATE TABLE statuses (
                status      text PRIMARY KEY,
                direction   text CHECK (direction IS NULL OR direction IN ('departure', 'arrival')),
                description text NOT NULL
            );
            CREATE TABLE flights (
                id               bigserial PRIMARY KEY,
                airline          text NOT NULL REFERENCES airlines(iata),
                number           integer NOT NULL CHECK (number BETWEEN 1 AND 9999),
                direction        text NOT NULL CHECK (direction IN ('departure', 'arrival')),
                airport          text NOT NULL,
                city             text NOT NULL,
                service_date     text NOT NULL DEFAULT 'daily',
                scheduled        text NOT NULL CHECK (scheduled ~ '^[0-2][0-9]:[0-5][0-9]$'),
                estimated_offset integer,
                terminal         text,
                gate             text,
                previous_gate    text,
                belt             text,
                status           text NOT NULL REFERENCES statuses(status),
                UNIQUE (airline, number, direction, service_date)
            );
            CREATE TABLE codeshares (
                flight_id bigint NOT NULL REFERENCES flights(id) ON DELETE CASCADE,
                airline   text NOT NULL REFERENCES airlines(iata),
                number    integer NOT NULL CHECK (number BETWEEN 1 AND 9999),
                PRIMARY KEY (airline, number, flight_id)
            );
            CREATE INDEX codeshares_by_flight ON codeshares(flight_id);
            -- One row, bumped by every write transaction: what scheduleRevision() reads.
            CREATE TABLE schedule_revision (
                singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                revision  bigint NOT NULL
            );
            INSERT INTO schedule_revision (singleton, revision) VALUES (true, 1);
            """),
        PostgresMigration(version: 2, summary: "the shared transcription job queue and its callback deliveries", sql: """
            -- Times are milliseconds since 1970 (UTC), as in the SQLite job store, so both round the same way.
            CREATE TABLE transcription_jobs (
                sequence          bigserial PRIMARY KEY,
                name              text NOT NULL UNIQUE,
                status            text NOT NULL CHECK (status IN ('QUEUED', 'IN_PROGRESS', 'COMPLETED', 'FAILED')),
                language_code     text NOT NULL,
                media_format      text,
                media_sample_rate integer,
                max_alternatives  integer,
                callback_url      text,
                media_path        text NOT NULL,
                media_uri         text,
                output_bucket     text,
                output_key        text,
                created_ms        bigint NOT NULL,
                started_ms        bigint,
                completed_ms      bigint,
                failure_reason    text,
                answer_json       text,
                transcript_path   text,
                audio_ms          bigint,
                lease_owner       text,
                lease_expires_ms  bigint,
                attempts          integer NOT NULL DEFAULT 0
            );
            CREATE INDEX transcription_jobs_by_status ON transcription_jobs (status, sequence);
            CREATE TABLE job_callbacks (
                id               bigserial PRIMARY KEY,
                job_name         text NOT NULL,
                url              text NOT NULL,
                payload          text NOT NULL,
                state            text NOT NULL CHECK (state IN ('pending', 'sending', 'delivered', 'failed')),
                attempts         integer NOT NULL DEFAULT 0,
                next_attempt_ms  bigint NOT NULL,
                sending_since_ms bigint,
                last_error       text,
                delivered_ms     bigint
            );
            CREATE INDEX job_callbacks_due ON job_callbacks (state, next_attempt_ms);
            """),
        PostgresMigration(version: 3, summary: "job media and transcripts, shared by every server of a fleet", sql: """
            CREATE TABLE job_files (
                path      text PRIMARY KEY,
                data      bytea NOT NULL,
                stored_ms bigint NOT NULL
            );
            """),
        PostgresMigration(version: 4, summary: "callback deliveries sent under a renewed lease, with an idempotency key", sql: """
            ALTER TABLE job_callbacks ADD COLUMN delivery_key text, ADD COLUMN sending_owner text, ADD COLUMN sending_expires_ms bigint;
            UPDATE job_callbacks SET delivery_key = md5(id::text || random()::text || clock_timestamp()::text)::uuid::text;
            -- A send begun under version 3 gets the lease that version's servers gave up after: five minutes.
            UPDATE job_callbacks SET sending_expires_ms = sending_since_ms + 300000 WHERE state = 'sending';
            ALTER TABLE job_callbacks ALTER COLUMN delivery_key SET NOT NULL, ADD CONSTRAINT job_callbacks_delivery_key UNIQUE (delivery_key),
                DROP COLUMN sending_since_ms;
            """),
        PostgresMigration(version: 5, summary: "S3 buckets and objects, shared by every server of a fleet", sql: """
            CREATE TABLE s3_buckets (
                name       text PRIMARY KEY,
                created_ms bigint NOT NULL
            );
            -- "C": keys compare and list in byte order, as S3 lists them.
            CREATE TABLE s3_objects (
                bucket      text NOT NULL REFERENCES s3_buckets(name),
                key         text COLLATE "C" NOT NULL,
                data        bytea NOT NULL,
                size        bigint NOT NULL,
                modified_ms bigint NOT NULL,
                PRIMARY KEY (bucket, key)
            );
            """),
    ]

    /// The newest schema version this code knows.
    static var latestVersion: Int { migrations.last!.version }

    /// The advisory lock every process takes while migrating, so that servers starting together migrate once.
    /// Any fixed 64-bit number works; this one spells "FLTVOICE" in ASCII.
    static let migrationLockKey: Int64 = 0x464C_5456_4F49_4345

    /// The channel write transactions `NOTIFY` with the new revision as payload.
    static let changeChannel = "flightvoice_schedule"

    /// Applies the migrations `connection`'s database lacks, in one transaction under the advisory lock, and seeds
    /// the built-in day when the tables were just created. Idempotent; concurrent callers wait and then find nothing
    /// to do. Throws when the database was migrated by a newer FlightVoice.
    static func migrate(_ connection: PostgresConnection) throws {
        try connection.transaction {
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [String(migrationLockKey)])
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS flightvoice_migrations (
                    version integer PRIMARY KEY, summary text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """)
            let applied = Set(try connection.query("SELECT version FROM flightvoice_migrations") { $0.integer(at: 0) })
            if let newest = applied.max(), newest > latestVersion {
                throw PostgresError(operation: "migrate", kind: .statement,
                                    message: "the database has schema version \(newest), newer than this flightvoice knows (\(latestVersion)); upgrade flightvoice",
                                    server: connection.server)
            }
            for migration in migrations where !applied.contains(migration.version) {
                try connection.executeScript(migration.sql)
                try connection.execute("INSERT INTO flightvoice_migrations (version, summary) VALUES ($1, $2)",
                                       [String(migration.version), migration.summary])
                if migration.version == 1 {
                    try connection.replaceRows(with: try FlightStore.builtInDay())
                    try moveIDSequencePastRows(connection)
                }
            }
        }
    }

    /// The schema version recorded in the database.
    static func currentVersion(_ connection: PostgresConnection) throws -> Int {
        try connection.integer("SELECT max(version) FROM flightvoice_migrations") ?? 0
    }

    /// Moves the flights' id sequence past the ids rows were written with (a snapshot keeps its ids).
    static func moveIDSequencePastRows(_ connection: PostgresConnection) throws {
        try connection.execute("SELECT setval(pg_get_serial_sequence('flights', 'id'), coalesce(max(id), 0) + 1, false) FROM flights")
    }
}
