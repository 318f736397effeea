import FlightStore
import Foundation
import Testing
import TranscriptionJobs

/// The guarantees `TranscriptionJobStore` documents, on the SQLite store (a PostgreSQL store should pass the same).
@Suite struct SQLiteJobStoreTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jobs-\(UUID().uuidString)")

    func makeStore() throws -> SQLiteJobStore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try SQLiteJobStore(path: folder.appendingPathComponent("jobs.sqlite").path)
    }

    func job(_ name: String, callback: String? = nil) -> NewTranscriptionJob {
        NewTranscriptionJob(name: name, languageCode: "en-US", callbackURL: callback, mediaPath: "media/\(name)")
    }

    @Test func namesAreUniqueAndJobsPage() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b", "c"] { _ = try store.create(job(name), now: Date()) }
        #expect(throws: JobStoreError.duplicateName("b")) { try store.create(job("b"), now: Date()) }
        let first = try store.list(status: nil, nextToken: nil, limit: 2)
        #expect(first.jobs.map(\.name) == ["a", "b"])
        let second = try store.list(status: nil, nextToken: first.nextToken, limit: 2)
        #expect(second.jobs.map(\.name) == ["c"])
        #expect(second.nextToken == nil)
        #expect(throws: JobStoreError.self) { try store.list(status: nil, nextToken: "x", limit: 2) }
    }

    @Test func claimsAreExclusiveAndCompletionIsFenced() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try store.create(job("one", callback: "http://127.0.0.1:9/hook"), now: Date())
        let claimed = try #require(try store.claimNext(owner: "w1", leaseSeconds: 60, now: Date()))
        #expect(claimed.status == .inProgress)
        #expect(claimed.attempts == 1)
        #expect(try store.claimNext(owner: "w2", leaseSeconds: 60, now: Date()) == nil, "nobody else gets it")
        #expect(try store.finish(name: "one", owner: "w2", outcome: .failed("x"), callbackPayload: "{}", now: Date()) == false, "only the lease holder finishes")
        #expect(try store.finish(name: "one", owner: "w1", outcome: .completed(answerJSON: "{}", transcriptPath: "t", audioSeconds: 1.5), callbackPayload: "{\"n\":1}", now: Date()))
        #expect(try store.finish(name: "one", owner: "w1", outcome: .failed("again"), callbackPayload: "{}", now: Date()) == false, "never finished twice")
        #expect(try store.job(named: "one")?.status == .completed)
        #expect(try store.job(named: "one")?.audioSeconds == 1.5)
        #expect(try store.callbackCounts().pending == 1, "the delivery came with the state change")
    }

    @Test func expiredLeasesAreRequeuedAndTheOldHolderIsFencedOut() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try store.create(job("slow"), now: Date())
        _ = try store.claimNext(owner: "dead", leaseSeconds: 1, now: Date())
        #expect(try store.requeueExpiredLeases(now: Date()) == [], "the lease still runs")
        #expect(try store.renewLease(name: "slow", owner: "dead", until: Date().addingTimeInterval(-1)))
        #expect(try store.requeueExpiredLeases(now: Date()) == ["slow"])
        let again = try #require(try store.claimNext(owner: "alive", leaseSeconds: 60, now: Date()))
        #expect(again.attempts == 2)
        #expect(try store.renewLease(name: "slow", owner: "dead", until: Date().addingTimeInterval(60)) == false)
        #expect(try store.finish(name: "slow", owner: "dead", outcome: .failed("late"), callbackPayload: nil, now: Date()) == false)
        #expect(try store.requeueExpiredLeases(now: .distantFuture) == ["slow"], "a single-server store requeues every lease at start")
    }

    @Test func aSendInterruptedByACrashIsSentAgainAtTheNextStartWithTheSameKey() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try store.create(job("cb", callback: "http://127.0.0.1:9/hook"), now: Date())
        _ = try store.claimNext(owner: "w", leaseSeconds: 60, now: Date())
        _ = try store.finish(name: "cb", owner: "w", outcome: .failed("no audio"), callbackPayload: "{}", now: Date())
        let delivery = try #require(try store.claimDueCallback(owner: "crashed", leaseSeconds: 60, now: Date()))
        #expect(try store.claimDueCallback(owner: "other", leaseSeconds: 60, now: Date()) == nil, "being sent: nobody else takes it")
        let restarted = try SQLiteJobStore(path: folder.appendingPathComponent("jobs.sqlite").path)
        #expect(try restarted.requeueInterruptedCallbacks(now: .distantFuture) == 1)
        let resent = try #require(try restarted.claimDueCallback(owner: "restarted", leaseSeconds: 60, now: Date()))
        #expect(resent.key == delivery.key)
        #expect(resent.attempts == 0)
    }

    /// A jobs database written before deliveries had keys and send leases (schema version 1) is upgraded in place.
    @Test func aVersion1DatabaseIsUpgradedAndItsDeliveriesGetKeys() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("jobs.sqlite").path
        do {
            let old = try SQLiteConnection(path: path, mode: .readWriteCreate)
            try old.transaction {
                try old.executeScriptInsideTransaction(SQLiteJobStore.migrations[0] + """
                    INSERT INTO callbacks (job_name, url, payload, state, next_attempt_ms) VALUES ('old', 'http://127.0.0.1:9/', '{}', 'pending', 0);
                    INSERT INTO callbacks (job_name, url, payload, state, next_attempt_ms) VALUES ('older', 'http://127.0.0.1:9/', '{}', 'sending', 0);
                    """)
            }
            try old.execute("PRAGMA user_version = 1")
        }
        let store = try SQLiteJobStore(path: path)
        #expect(try store.requeueInterruptedCallbacks(now: .distantFuture) == 1, "a send a version 1 server left is sent again")
        let first = try #require(try store.claimDueCallback(owner: "s", leaseSeconds: 60, now: Date()))
        let second = try #require(try store.claimDueCallback(owner: "s", leaseSeconds: 60, now: Date()))
        #expect(first.key.count == 32 && second.key.count == 32 && first.key != second.key)
        #expect(try SQLiteJobStore(path: path).callbackCounts().pending == 2, "opening it again changes nothing")
    }

    @Test func jobsSurviveReopening() throws {
        let store = try makeStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try store.create(job("kept"), now: Date())
        let reopened = try SQLiteJobStore(path: folder.appendingPathComponent("jobs.sqlite").path)
        #expect(try reopened.job(named: "kept")?.status == .queued)
        #expect(try reopened.counts()[.queued] == 1)
        #expect(try reopened.delete(named: "kept")?.name == "kept")
        #expect(try reopened.job(named: "kept") == nil)
    }
}
