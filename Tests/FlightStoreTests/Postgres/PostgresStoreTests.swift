import DatabaseTestSupport
import FlightCore
import FlightStore
import Foundation
import Synchronization
import Testing
@testable import FlightStorePostgres

@Suite("PostgreSQL: migrations, connections and changes", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct PostgresStoreTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    static let now = hubInstant("2026-11-30", "12:00")

    @Test("ten servers starting together on a new database migrate and seed it once")
    func concurrentStartsMigrateOnce() throws {
        let url = try fixture.newPostgresDatabase()
        let starters = 10
        let outcomes = Mutex<[Result<Int, any Error>]>([])
        let finished = DispatchGroup()
        // Threads, not tasks: each start blocks in libpq, and the cooperative pool has only as many threads as cores.
        for _ in 0..<starters {
            finished.enter()
            Thread {
                let outcome = Result { try PostgresFlightStore(url: url).status().flights }
                outcomes.withLock { $0.append(outcome) }
                finished.leave()
            }.start()
        }
        finished.wait()
        let flightCounts = try outcomes.withLock { try $0.map { try $0.get() } }
        #expect(flightCounts.count == starters)
        let seedFlights = try FlightStore.builtInDay().movements.count
        #expect(flightCounts.allSatisfy { $0 == seedFlights })
        let versions = try TestPostgres.column("SELECT version FROM flightvoice_migrations ORDER BY version", url: url)
        #expect(versions == PostgresSchema.migrations.map { String($0.version) })
        #expect(try TestPostgres.column("SELECT count(*) FROM schedule_revision", url: url) == ["1"])
    }

    @Test("opening again keeps the data and applies nothing twice")
    func reopeningIsIdempotent() throws {
        let url = try fixture.newPostgresDatabase()
        let first = try PostgresFlightStore(url: url)
        _ = try first.importCSV(text: csv("ZQ 1,Test Air,departure,CDG,Paris,10:00,,1,A1,,on time,"), now: Self.now)
        let second = try PostgresFlightStore(url: url)
        #expect(try second.flight(number("ZQ1"), near: Self.now)?.flight.gate == "A1")
        #expect(try second.status().schemaVersion == PostgresSchema.latestVersion)
        #expect(try TestPostgres.column("SELECT count(*) FROM flightvoice_migrations", url: url) == [String(PostgresSchema.migrations.count)])
    }

    @Test("a database migrated by a newer FlightVoice is refused, naming both versions")
    func newerSchemaRefused() throws {
        let url = try fixture.newPostgresDatabase()
        _ = try PostgresFlightStore(url: url)
        _ = try TestPostgres.column("INSERT INTO flightvoice_migrations (version, summary) VALUES (999, 'from the future')", url: url)
        let error = #expect(throws: PostgresError.self) { try PostgresFlightStore(url: url) }
        #expect(error?.isConnectionFailure == false)
        #expect(error?.message.contains("999") == true)
    }

    @Test("a statement error carries libpq's message, the SQLSTATE, the SQL and the operation")
    func statementErrorsCarryTheTruth() throws {
        let connection = try PostgresConnection(url: try fixture.newPostgresDatabase())
        let error = #expect(throws: PostgresError.self) { try connection.execute("SELECT * FROM no_such_table WHERE id = $1", ["1"]) }
        #expect(error?.kind == .statement)
        #expect(error?.sqlState == "42P01")
        #expect(error?.message.contains("no_such_table") == true)
        #expect(error?.sql == "SELECT * FROM no_such_table WHERE id = $1")
        #expect(error?.operation == "execute")
        // Parameters are never spliced into SQL: a quote in a value is just a character.
        #expect(try connection.execute("SELECT $1::text", ["O'Hare; DROP TABLE x"]).first?.text(at: 0) == "O'Hare; DROP TABLE x")
    }

    @Test("a gate change imported by one server reaches another's change stream within 2 seconds")
    func importIsAnnounced() async throws {
        let url = try fixture.newPostgresDatabase()
        let writer = try PostgresFlightStore(url: url)
        let kiosk = try PostgresFlightStore(url: url)
        let changes = kiosk.scheduleChanges()
        try await Task.sleep(for: .milliseconds(300))  // the listener connects and LISTENs
        let before = try kiosk.scheduleRevision()
        _ = try writer.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        // Counted from the commit: the notification leaves with it.
        let change = try await firstChange(in: changes, within: .seconds(2))
        #expect(change == .revised(revision: try kiosk.scheduleRevision()))
        #expect(try kiosk.scheduleRevision() != before)
        #expect(try kiosk.flight(number("LX40"), near: Self.now)?.flight.gate == "E36")
    }

    @Test("a cut connection is reported, the listener and the store reconnect, and later changes are still heard")
    func reconnectsAfterTheLinkBreaks() async throws {
        let url = try fixture.newPostgresDatabase()
        let store = try PostgresFlightStore(url: url, backoff: ReconnectBackoff(initial: 0.05, maximum: 0.2))
        let changes = store.scheduleChanges()
        try await Task.sleep(for: .milliseconds(300))
        try terminateConnections(to: url)
        let lost = try await firstChange(in: changes, within: .seconds(2))
        guard case .unreachable = lost else { Issue.record("expected .unreachable, got \(lost)"); return }
        // The store's own connection was cut too: the first call may fail, a later one reconnects.
        _ = try? store.scheduleRevision()
        #expect(try store.flight(number("LX40"), near: Self.now)?.flight.gate == "E34")
        try await Task.sleep(for: .milliseconds(500))  // the listener is back
        _ = try store.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E40,,boarding,"), now: Self.now)
        // After reconnecting the listener reports the revision it finds (changes while it was away went unheard),
        // then the import's own announcement.
        let imported = ScheduleChange.revised(revision: try store.scheduleRevision())
        var heard = try await firstChange(in: changes, within: .seconds(2))
        while heard != imported { heard = try await firstChange(in: changes, within: .seconds(2)) }
        #expect(heard == imported)
    }

    /// Ends every other session on the database at `url`, as a server restart or a network cut would.
    func terminateConnections(to url: String) throws {
        _ = try TestPostgres.column(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()", url: url)
    }
}

/// The first element of `changes`, or an error when none arrives within `limit`.
func firstChange(in changes: AsyncStream<ScheduleChange>, within limit: Duration) async throws -> ScheduleChange {
    try await withThrowingTaskGroup(of: ScheduleChange?.self) { group in
        group.addTask {
            var iterator = changes.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let change = first else { throw NoChangeHeard(limit: limit) }
        return change
    }
}

/// No change arrived in time.
struct NoChangeHeard: Error, CustomStringConvertible {
    let limit: Duration
    var description: String { "no schedule change was heard within \(limit)" }
}

@Suite("PostgreSQL: an unreachable server")
struct PostgresUnreachableTests {
    /// A loopback port nothing listens on (port 1 is reserved and unused on test machines).
    static let deadURL = "postgres://flightvoice:secret@127.0.0.1:1/flights"

    @Test("connecting fails at once with a connection error that names the server without its password")
    func unreachableAtStart() throws {
        let error = #expect(throws: PostgresError.self) { try PostgresFlightStore(url: Self.deadURL) }
        #expect(error?.isConnectionFailure == true)
        #expect(error?.isUnreachable == true)
        #expect(error?.description.contains("127.0.0.1") == true)
        #expect(error?.description.contains("secret") == false)
        #expect(error?.description.contains("\n") == false)
    }
}
