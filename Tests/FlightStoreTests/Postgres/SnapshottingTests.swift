import DatabaseTestSupport
import FlightCore
import FlightStore
import FlightStorePostgres
import FlightStoreSelection
import Foundation
import Testing

@Suite("A kiosk answers from its local copy while PostgreSQL is away", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct SnapshottingTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    static let now = hubInstant("2026-11-30", "12:00")
    static let quickBackoff = ReconnectBackoff(initial: 0.01, maximum: 0.05)

    @Test("live answers keep the copy current; when the server goes, the copy answers with its age; when it returns, answers are live again")
    func fallsBackAndRecovers() throws {
        let url = try fixture.newPostgresDatabase()
        let openKioskDatabase: @Sendable () throws -> any FlightDatabase = { try PostgresFlightStore(url: url, backoff: Self.quickBackoff) }
        let snapshotPath = fixture.path("kiosk-snapshot.sqlite")
        let kiosk = try SnapshottingFlightsDataSource(snapshotPath: snapshotPath, backoff: Self.quickBackoff, changes: { PostgresFlightStore.scheduleChanges(url: url) },
                                                      openDatabase: openKioskDatabase)
        #expect(kiosk.freshness == .live)
        #expect(try kiosk.flight(number("LX40"), near: Self.now)?.flight.gate == "E34")

        // The operations desk changes the gate through another server.
        let desk = try PostgresFlightStore(url: url)
        _ = try desk.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        #expect(try kiosk.flight(number("LX40"), near: Self.now)?.flight.gate == "E36")
        let revisionWhileLive = try kiosk.scheduleRevision()

        // The database becomes unreachable: every session is cut and new ones are refused.
        try TestPostgres.simulateOutage(of: url, true)
        let offline = try #require(try kiosk.flight(number("LX40"), near: Self.now))
        #expect(offline.flight.gate == "E36")
        guard case .snapshot(let takenAt, let reason) = kiosk.freshness else { Issue.record("expected answers from the copy"); return }
        #expect(takenAt <= Date() && Date().timeIntervalSince(takenAt) < 60)
        #expect(!reason.isEmpty)
        #expect(try kiosk.scheduleRevision() == revisionWhileLive)
        #expect(try kiosk.suggestions(for: number("LX41"), near: Self.now, limit: 3).contains { $0.requested == number("LX40") })
        #expect(try kiosk.flightNumbers(near: Self.now).contains(number("LX40")))

        // A kiosk restarted while the server is still away answers from the copy on disk.
        let restarted = try SnapshottingFlightsDataSource(snapshotPath: snapshotPath, backoff: Self.quickBackoff, changes: { AsyncStream { $0.finish() } },
                                                          openDatabase: openKioskDatabase)
        #expect(try restarted.flight(number("LX40"), near: Self.now)?.flight.gate == "E36")
        guard case .snapshot(let restartedTakenAt, _) = restarted.freshness else { Issue.record("expected answers from the copy"); return }
        #expect(abs(restartedTakenAt.timeIntervalSince(takenAt)) < 0.001)

        // The server comes back; after the back-off the kiosk is live and sees what changed meanwhile.
        try TestPostgres.simulateOutage(of: url, false)
        _ = try desk.importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E38,,final call,"), now: Self.now)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(try kiosk.flight(number("LX40"), near: Self.now)?.flight.gate == "E38")
        #expect(kiosk.freshness == .live)
    }

    @Test("with no copy yet and no server, opening fails with the connection error")
    func noCopyNoServer() throws {
        let error = #expect(throws: PostgresError.self) {
            try SnapshottingFlightsDataSource(snapshotPath: fixture.path("never.sqlite"), backoff: Self.quickBackoff, changes: { AsyncStream { $0.finish() } }) {
                try PostgresFlightStore(url: "postgres://postgres@127.0.0.1:1/gone")
            }
        }
        #expect(error?.isConnectionFailure == true)
    }

    @Test("a kiosk's live source hears a gate change made elsewhere and answers with it", arguments: StoreBackend.configured)
    func liveSourceFollowsChanges(_ backend: StoreBackend) async throws {
        let location = try fixture.newLocation(backend)
        let kiosk = try location.openLive(snapshotPath: fixture.path("kiosk.sqlite"))
        #expect(kiosk.freshness == .live)
        #expect(try kiosk.flight(number("LX40"), near: Self.now)?.flight.gate == "E34")
        let changes = kiosk.scheduleChanges()
        try await Task.sleep(for: .milliseconds(300))  // listening
        _ = try location.open().importCSV(text: csv("LX 040,Swiss,departure,JFK,New York,13:05,,E,E36,,boarding,"), now: Self.now)
        // Both streams are fed from threads of their own; this test's await still needs a thread of the cooperative pool,
        // which the parallel suite's blocking tests can hold for seconds on two cores. The 2 s promise is PostgreSQL's.
        let allowance: Duration = backend == .postgres ? .seconds(2) : .seconds(15)
        var change = try await firstChange(in: changes, within: allowance)
        while case .unreachable = change { change = try await firstChange(in: changes, within: allowance) }
        #expect(change == .revised(revision: try kiosk.scheduleRevision()))
        #expect(try kiosk.flight(number("LX40"), near: Self.now)?.flight.gate == "E36")
    }
}
