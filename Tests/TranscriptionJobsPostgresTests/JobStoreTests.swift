import DatabaseTestSupport
import FlightStore
@testable import FlightStorePostgres
import Foundation
import Synchronization
import Testing
import TranscriptionJobs
@testable import TranscriptionJobsPostgres

/// The job-store guarantees `TranscriptionJobStore` documents, on the SQLite store and the PostgreSQL one alike.
@Suite("Transcription job stores")
struct JobStoreTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    /// A new, empty store of `backend`.
    func makeStore(_ backend: StoreBackend) throws -> any TranscriptionJobStore {
        switch try fixture.newLocation(backend) {
        case .sqlite(let path): try SQLiteJobStore(path: path)
        case .postgres(let url): try PostgresJobStore(url: url)
        }
    }

    /// A store holding one finished job, `name`, whose callback delivery is pending.
    func storeWithPendingCallback(_ backend: StoreBackend, job name: String = "cb") throws -> any TranscriptionJobStore {
        let store = try makeStore(backend)
        _ = try store.create(job(name, callback: "http://127.0.0.1:9/hook"), now: Date())
        _ = try store.claimNext(owner: "w", leaseSeconds: 60, now: Date())
        _ = try store.finish(name: name, owner: "w", outcome: .failed("no audio"), callbackPayload: "{}", now: Date())
        return store
    }

    func job(_ name: String, callback: String? = nil) -> NewTranscriptionJob {
        NewTranscriptionJob(name: name, languageCode: "en-US", callbackURL: callback, mediaPath: "media/\(name)")
    }

    @Test("names are unique and jobs come in pages", arguments: StoreBackend.configured)
    func namesAreUniqueAndJobsPage(_ backend: StoreBackend) throws {
        let store = try makeStore(backend)
        for name in ["a", "b", "c"] { _ = try store.create(job(name), now: Date()) }
        #expect(throws: JobStoreError.duplicateName("b")) { try store.create(job("b"), now: Date()) }
        let first = try store.list(status: nil, nextToken: nil, limit: 2)
        #expect(first.jobs.map(\.name) == ["a", "b"])
        let second = try store.list(status: nil, nextToken: first.nextToken, limit: 2)
        #expect(second.jobs.map(\.name) == ["c"])
        #expect(second.nextToken == nil)
        #expect(try store.list(status: .queued, nextToken: nil, limit: 10).jobs.count == 3)
        #expect(try store.list(status: .completed, nextToken: nil, limit: 10).jobs.isEmpty)
        #expect(throws: JobStoreError.self) { try store.list(status: nil, nextToken: "x", limit: 2) }
    }

    @Test("claims are exclusive and completion is fenced by the lease holder", arguments: StoreBackend.configured)
    func claimsAreExclusiveAndCompletionIsFenced(_ backend: StoreBackend) throws {
        let store = try makeStore(backend)
        _ = try store.create(job("one", callback: "http://127.0.0.1:9/hook"), now: Date())
        let claimed = try #require(try store.claimNext(owner: "w1", leaseSeconds: 60, now: Date()))
        #expect(claimed.status == .inProgress)
        #expect(claimed.attempts == 1)
        #expect(claimed.leaseOwner == "w1")
        #expect(try store.claimNext(owner: "w2", leaseSeconds: 60, now: Date()) == nil, "nobody else gets it")
        #expect(try store.finish(name: "one", owner: "w2", outcome: .failed("x"), callbackPayload: "{}", now: Date()) == false, "only the lease holder finishes")
        #expect(try store.finish(name: "one", owner: "w1", outcome: .completed(answerJSON: "{}", transcriptPath: "t", audioSeconds: 1.5), callbackPayload: "{\"n\":1}", now: Date()))
        #expect(try store.finish(name: "one", owner: "w1", outcome: .failed("again"), callbackPayload: "{}", now: Date()) == false, "never finished twice")
        #expect(try store.job(named: "one")?.status == .completed)
        #expect(try store.job(named: "one")?.audioSeconds == 1.5)
        #expect(try store.callbackCounts().pending == 1, "the delivery came with the state change")
        #expect(try store.counts()[.completed] == 1)
    }

    @Test("expired leases are requeued and the old holder is fenced out", arguments: StoreBackend.configured)
    func expiredLeasesAreRequeuedAndTheOldHolderIsFencedOut(_ backend: StoreBackend) throws {
        let store = try makeStore(backend)
        _ = try store.create(job("slow"), now: Date())
        _ = try store.claimNext(owner: "dead", leaseSeconds: 1, now: Date())
        #expect(try store.requeueExpiredLeases(now: Date()) == [], "the lease still runs")
        #expect(try store.renewLease(name: "slow", owner: "dead", until: Date().addingTimeInterval(-1)))
        #expect(try store.requeueExpiredLeases(now: Date()) == ["slow"])
        let again = try #require(try store.claimNext(owner: "alive", leaseSeconds: 60, now: Date()))
        #expect(again.attempts == 2)
        #expect(try store.renewLease(name: "slow", owner: "dead", until: Date().addingTimeInterval(60)) == false)
        #expect(try store.finish(name: "slow", owner: "dead", outcome: .failed("late"), callbackPayload: nil, now: Date()) == false)
        #expect(try store.requeueExpiredLeases(now: .distantFuture) == ["slow"], "every lease has ended by the end of time")
    }

    @Test("a delivery is sent by one sender at a time, and retried with its key after a failure", arguments: StoreBackend.configured)
    func callbacksAreSentByOneSenderAndRetried(_ backend: StoreBackend) throws {
        let store = try storeWithPendingCallback(backend)
        let delivery = try #require(try store.claimDueCallback(owner: "s1", leaseSeconds: 60, now: Date()))
        #expect(delivery.jobName == "cb")
        #expect(delivery.url == "http://127.0.0.1:9/hook")
        #expect(delivery.attempts == 0)
        #expect(!delivery.key.isEmpty)
        #expect(try store.claimDueCallback(owner: "s2", leaseSeconds: 60, now: Date()) == nil, "being sent: nobody else takes it")
        try store.callbackFailed(id: delivery.id, owner: "s2", error: "not mine", retryAt: nil)
        #expect(try store.callbackCounts() == (delivered: 0, pending: 1, failed: 0), "only the sender reports its attempt")
        try store.callbackFailed(id: delivery.id, owner: "s1", error: "refused", retryAt: Date().addingTimeInterval(60))
        #expect(try store.claimDueCallback(owner: "s2", leaseSeconds: 60, now: Date()) == nil, "not due before its retry time")
        let retry = try #require(try store.claimDueCallback(owner: "s2", leaseSeconds: 60, now: Date().addingTimeInterval(61)))
        #expect(retry.attempts == 1)
        #expect(retry.key == delivery.key, "every attempt carries the same delivery id")
        try store.callbackFailed(id: retry.id, owner: "s2", error: "refused again", retryAt: nil)
        #expect(try store.callbackCounts() == (delivered: 0, pending: 0, failed: 1), "given up after the last attempt")
        #expect(try store.claimDueCallback(owner: "s1", leaseSeconds: 60, now: Date().addingTimeInterval(3600)) == nil)
    }

    @Test("a delivery left 'sending' by a dead sender is handed out again after its lease, with the same id; a delivered one never",
          arguments: StoreBackend.configured)
    func interruptedSendsAreResentOnceTheirLeaseEnds(_ backend: StoreBackend) throws {
        let store = try storeWithPendingCallback(backend)
        let start = Date()
        let interrupted = try #require(try store.claimDueCallback(owner: "dead", leaseSeconds: 30, now: start))
        #expect(try store.renewCallbackLease(id: interrupted.id, owner: "dead", until: start.addingTimeInterval(30)), "its sender keeps it while alive")
        #expect(try store.requeueInterruptedCallbacks(now: start.addingTimeInterval(10)) == 0, "the sender may still be alive: never resent then")
        #expect(try store.claimDueCallback(owner: "alive", leaseSeconds: 30, now: start.addingTimeInterval(10)) == nil)
        #expect(try store.requeueInterruptedCallbacks(now: start.addingTimeInterval(31)) == 1, "its lease has ended: the sender is gone")
        let resent = try #require(try store.claimDueCallback(owner: "alive", leaseSeconds: 30, now: start.addingTimeInterval(31)))
        #expect(resent.id == interrupted.id)
        #expect(resent.key == interrupted.key, "the receiver can tell it is the same callback")
        #expect(resent.payload == interrupted.payload)
        #expect(resent.attempts == 0, "the interrupted attempt, whose outcome is unknown, does not count against the limit")
        #expect(try store.renewCallbackLease(id: resent.id, owner: "dead", until: start.addingTimeInterval(90)) == false, "the dead sender is fenced out")
        try store.callbackFailed(id: resent.id, owner: "dead", error: "late", retryAt: nil)
        #expect(try store.callbackCounts() == (delivered: 0, pending: 1, failed: 0), "a late report of the old attempt changes nothing")
        try store.callbackDelivered(id: resent.id, now: Date())
        #expect(try store.callbackCounts() == (delivered: 1, pending: 0, failed: 0))
        #expect(try store.requeueInterruptedCallbacks(now: .distantFuture) == 0, "a delivered callback is never taken back")
        #expect(try store.claimDueCallback(owner: "alive", leaseSeconds: 30, now: start.addingTimeInterval(3600)) == nil, "nor sent again")
    }

    @Test("a single server restarting resends what it was sending; an acknowledgement that comes late still counts",
          arguments: StoreBackend.configured)
    func aRestartResendsAndALateAcknowledgementWins(_ backend: StoreBackend) throws {
        let store = try storeWithPendingCallback(backend)
        let interrupted = try #require(try store.claimDueCallback(owner: "previous run", leaseSeconds: 60, now: Date()))
        #expect(try store.requeueInterruptedCallbacks(now: .distantFuture) == 1, "at start every send in flight belongs to a dead process")
        let resent = try #require(try store.claimDueCallback(owner: "this run", leaseSeconds: 60, now: Date()))
        #expect(resent.key == interrupted.key)
        // The first sender was only slow: its 2xx arrives while the second sends. Acknowledged once, never sent again.
        try store.callbackDelivered(id: interrupted.id, now: Date())
        try store.callbackFailed(id: resent.id, owner: "this run", error: "refused", retryAt: Date())
        #expect(try store.callbackCounts() == (delivered: 1, pending: 0, failed: 0))
        #expect(try store.claimDueCallback(owner: "this run", leaseSeconds: 60, now: Date().addingTimeInterval(3600)) == nil)
    }

    @Test("a delivered callback is counted and never claimed again", arguments: StoreBackend.configured)
    func deliveredCallbacksStayDelivered(_ backend: StoreBackend) throws {
        let store = try makeStore(backend)
        _ = try store.create(job("ok", callback: "http://127.0.0.1:9/hook"), now: Date())
        _ = try store.claimNext(owner: "w", leaseSeconds: 60, now: Date())
        _ = try store.finish(name: "ok", owner: "w", outcome: .completed(answerJSON: "{}", transcriptPath: "t", audioSeconds: 1), callbackPayload: "{}", now: Date())
        let delivery = try #require(try store.claimDueCallback(owner: "s", leaseSeconds: 60, now: Date()))
        try store.callbackDelivered(id: delivery.id, now: Date())
        #expect(try store.claimDueCallback(owner: "s", leaseSeconds: 60, now: Date().addingTimeInterval(3600)) == nil)
        #expect(try store.requeueInterruptedCallbacks(now: .distantFuture) == 0)
        #expect(try store.renewCallbackLease(id: delivery.id, owner: "s", until: Date().addingTimeInterval(60)) == false)
        #expect(try store.callbackCounts() == (delivered: 1, pending: 0, failed: 0))
    }

    @Test("jobs survive reopening; deleting removes the job", arguments: StoreBackend.configured)
    func jobsSurviveReopening(_ backend: StoreBackend) throws {
        let location = try fixture.newLocation(backend)
        let open: () throws -> any TranscriptionJobStore = {
            switch location {
            case .sqlite(let path): try SQLiteJobStore(path: path)
            case .postgres(let url): try PostgresJobStore(url: url)
            }
        }
        _ = try open().create(job("kept"), now: Date())
        let reopened = try open()
        #expect(try reopened.job(named: "kept")?.status == .queued)
        #expect(try reopened.counts()[.queued] == 1)
        #expect(try reopened.delete(named: "kept")?.name == "kept")
        #expect(try reopened.job(named: "kept") == nil)
        #expect(try reopened.delete(named: "kept") == nil)
    }
}

@Suite("PostgreSQL job queue shared by several servers", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct SharedJobQueueTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    @Test("three servers draining 200 jobs at once: every job claimed and finished exactly once")
    func concurrentWorkersClaimEachJobOnce() throws {
        let url = try fixture.newPostgresDatabase()
        let submitter = try PostgresJobStore(url: url)
        let jobCount = 200
        for index in 0..<jobCount {
            _ = try submitter.create(NewTranscriptionJob(name: "job-\(index)", languageCode: "en-US", callbackURL: "http://127.0.0.1:9/\(index)",
                                                         mediaPath: "media/\(index)"), now: Date())
        }
        let servers = try (0..<3).map { _ in try PostgresJobStore(url: url) }
        let claims = Mutex<[String: [String]]>([:])  // job name → the workers that claimed it
        let failures = Mutex<[String]>([])
        let finished = DispatchGroup()
        // Two worker threads per server: claims race inside each server's connection and across servers.
        for (serverIndex, server) in servers.enumerated() {
            for worker in 0..<2 {
                finished.enter()
                Thread {
                    defer { finished.leave() }
                    let owner = "server\(serverIndex)-worker\(worker)"
                    do {
                        while let job = try server.claimNext(owner: owner, leaseSeconds: 60, now: Date()) {
                            claims.withLock { $0[job.name, default: []].append(owner) }
                            let done = try server.finish(name: job.name, owner: owner, outcome: .completed(answerJSON: "{}", transcriptPath: "t", audioSeconds: 1),
                                                         callbackPayload: "{\"job\":\"\(job.name)\"}", now: Date())
                            if !done { failures.withLock { $0.append("\(owner) could not finish \(job.name)") } }
                        }
                    } catch {
                        failures.withLock { $0.append("\(owner): \(error)") }
                    }
                }.start()
            }
        }
        finished.wait()
        #expect(failures.withLock { $0 } == [])
        let claimed = claims.withLock { $0 }
        #expect(claimed.count == jobCount)
        #expect(claimed.values.allSatisfy { $0.count == 1 }, "no job was claimed twice")
        #expect(Set(claimed.values.flatMap { $0 }.map { $0.prefix(7) }).count == 3, "every server took part")
        #expect(try submitter.counts()[.completed] == jobCount)
        #expect(try submitter.callbackCounts() == (delivered: 0, pending: jobCount, failed: 0), "one delivery per job")

        // The deliveries, drained by the three servers at once, are each claimed once.
        let deliveries = Mutex<[Int64]>([])
        for server in servers {
            finished.enter()
            Thread {
                defer { finished.leave() }
                while let delivery = try? server.claimDueCallback(owner: "sender", leaseSeconds: 60, now: Date()) {
                    deliveries.withLock { $0.append(delivery.id) }
                    try? server.callbackDelivered(id: delivery.id, now: Date())
                }
            }.start()
        }
        finished.wait()
        let delivered = deliveries.withLock { $0 }
        #expect(delivered.count == jobCount)
        #expect(Set(delivered).count == jobCount, "no delivery was claimed twice")
        #expect(try submitter.callbackCounts() == (delivered: jobCount, pending: 0, failed: 0))
    }

    @Test("a server that dies mid-job loses it when its lease ends; another server finishes it, the dead one cannot")
    func aDeadServersJobIsFinishedByAnother() throws {
        let url = try fixture.newPostgresDatabase()
        let dying = try PostgresJobStore(url: url)
        let survivor = try PostgresJobStore(url: url)
        _ = try dying.create(NewTranscriptionJob(name: "orphan", languageCode: "en-US", mediaPath: "media/orphan"), now: Date())
        let start = Date()
        #expect(try dying.claimNext(owner: "dying", leaseSeconds: 30, now: start)?.name == "orphan")
        #expect(try survivor.claimNext(owner: "survivor", leaseSeconds: 30, now: start) == nil)
        // A server starting while the other lives must not take its jobs: only ended leases are requeued.
        #expect(try survivor.requeueExpiredLeases(now: start.addingTimeInterval(10)) == [])
        #expect(try survivor.requeueExpiredLeases(now: start.addingTimeInterval(31)) == ["orphan"])
        let taken = try #require(try survivor.claimNext(owner: "survivor", leaseSeconds: 30, now: start.addingTimeInterval(31)))
        #expect(taken.attempts == 2)
        #expect(try dying.finish(name: "orphan", owner: "dying", outcome: .failed("late"), callbackPayload: nil, now: Date()) == false)
        #expect(try survivor.finish(name: "orphan", owner: "survivor", outcome: .completed(answerJSON: "{}", transcriptPath: "t", audioSeconds: 1), callbackPayload: nil, now: Date()))
        #expect(try dying.job(named: "orphan")?.status == .completed)
    }

    @Test("a send another server is making is not taken over by a server starting up, nor by one watching for dead servers")
    func liveSendsAreNotTakenOver() throws {
        let url = try fixture.newPostgresDatabase()
        let sender = try PostgresJobStore(url: url)
        let starting = try PostgresJobStore(url: url)
        _ = try sender.create(NewTranscriptionJob(name: "cb", languageCode: "en-US", callbackURL: "http://127.0.0.1:9/", mediaPath: "m"), now: Date())
        _ = try sender.claimNext(owner: "w", leaseSeconds: 60, now: Date())
        _ = try sender.finish(name: "cb", owner: "w", outcome: .failed("x"), callbackPayload: "{}", now: Date())
        let delivery = try #require(try sender.claimDueCallback(owner: "sender", leaseSeconds: 60, now: Date()))
        #expect(try starting.requeueInterruptedCallbacks(now: Date()) == 0)
        #expect(try starting.claimDueCallback(owner: "starting", leaseSeconds: 60, now: Date()) == nil)
        #expect(try sender.renewCallbackLease(id: delivery.id, owner: "sender", until: Date().addingTimeInterval(120)))
        #expect(try starting.requeueInterruptedCallbacks(now: Date().addingTimeInterval(90)) == 0, "a renewed lease keeps the send its sender's")
        try sender.callbackDelivered(id: delivery.id, now: Date())
        #expect(try starting.callbackCounts() == (delivered: 1, pending: 0, failed: 0))
    }

    @Test("a version 3 database is upgraded: deliveries get keys, and a send begun then keeps the five minutes it had")
    func aVersion3DatabaseIsUpgraded() throws {
        let url = try fixture.newPostgresDatabase()
        let old = try PostgresConnection(url: url)
        try old.execute("CREATE TABLE flightvoice_migrations (version integer PRIMARY KEY, summary text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
        for migration in PostgresSchema.migrations where migration.version <= 3 {
            try old.executeScript(migration.sql)
            try old.execute("INSERT INTO flightvoice_migrations (version, summary) VALUES ($1, $2)", [String(migration.version), migration.summary])
        }
        let began = Date()
        try old.execute("""
            INSERT INTO job_callbacks (job_name, url, payload, state, attempts, next_attempt_ms, sending_since_ms)
            VALUES ('sent', 'http://127.0.0.1:9/', '{}', 'sending', 1, 0, $1), ('waiting', 'http://127.0.0.1:9/', '{}', 'pending', 0, 0, NULL)
            """, [String(JobStoreClock.milliseconds(began))])
        let store = try PostgresJobStore(url: url)
        #expect(try store.requeueInterruptedCallbacks(now: began.addingTimeInterval(290)) == 0)
        #expect(try store.requeueInterruptedCallbacks(now: began.addingTimeInterval(301)) == 1)
        let first = try #require(try store.claimDueCallback(owner: "s", leaseSeconds: 60, now: began.addingTimeInterval(301)))
        let second = try #require(try store.claimDueCallback(owner: "s", leaseSeconds: 60, now: began.addingTimeInterval(301)))
        #expect(Set([first.jobName, second.jobName]) == ["sent", "waiting"])
        #expect(first.key.count == 36 && second.key.count == 36 && first.key != second.key)
    }

    @Test("job changes on one server are announced to another within 2 seconds")
    func jobChangesAreAnnounced() async throws {
        let url = try fixture.newPostgresDatabase()
        let waiting = try PostgresJobStore(url: url)
        let working = try PostgresJobStore(url: url)
        let changes = waiting.jobChanges()
        try await Task.sleep(for: .milliseconds(300))  // the listener connects and LISTENs
        _ = try working.create(NewTranscriptionJob(name: "announced", languageCode: "en-US", mediaPath: "m"), now: Date())
        _ = try working.claimNext(owner: "w", leaseSeconds: 60, now: Date())
        _ = try working.finish(name: "announced", owner: "w", outcome: .failed("x"), callbackPayload: nil, now: Date())
        let heard = try await withThrowingTaskGroup(of: [String?].self) { group in
            group.addTask {
                var names: [String?] = []
                for await name in changes {
                    names.append(name)
                    if names.count == 3 { break }
                }
                return names
            }
            group.addTask {
                try await Task.sleep(for: .seconds(2))
                return []
            }
            defer { group.cancelAll() }
            return try await group.next() ?? []
        }
        #expect(heard == ["announced", "announced", "announced"], "created, claimed, finished")
    }
}
