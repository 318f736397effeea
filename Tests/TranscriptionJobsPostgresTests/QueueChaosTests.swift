import DatabaseTestSupport
import Foundation
import Testing
import TranscriptionJobs
import TranscriptionJobsPostgres

/// Worker processes draining one queue are killed with SIGKILL and restarted at random; every job still completes
/// exactly once, with exactly one callback delivery recorded. Bounded in time.
@Suite("PostgreSQL job queue under kill -9", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct QueueChaosTests {
    let fixture: StoreFixture

    init() throws { fixture = try StoreFixture() }

    static let jobCount = 200
    static let workerCount = 3
    /// Each job "takes" this long, so kills land mid-job.
    static let workMilliseconds = 20
    /// Short, so a killed worker's jobs return to the queue quickly.
    static let leaseSeconds = 1
    /// The whole test gives up after this long.
    static let deadline: Duration = .seconds(90)

    /// The worker program (`queue-benchmark --work`), built beside the test bundle.
    static var workerExecutable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("queue-benchmark")
    }

    func startWorker(_ index: Int, url: String) throws -> Process {
        let process = Process()
        process.executableURL = Self.workerExecutable
        process.arguments = ["--work", url, "worker\(index)-\(UUID().uuidString.prefix(6))", "--forever",
                             "--work-ms", String(Self.workMilliseconds), "--lease-seconds", String(Self.leaseSeconds)]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("200 jobs, three workers killed and restarted at random: each job completed once, one delivery each")
    func killedWorkersLoseNothingAndRepeatNothing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.workerExecutable.path), "build queue-benchmark first (swift build --build-tests builds it)")
        let url = try fixture.newPostgresDatabase()
        let store = try PostgresJobStore(url: url)
        for index in 0..<Self.jobCount {
            _ = try store.create(NewTranscriptionJob(name: "chaos-\(index)", languageCode: "en-US", callbackURL: "http://127.0.0.1:9/\(index)",
                                                     mediaPath: "media/\(index).wav"), now: Date())
        }
        var workers = try (0..<Self.workerCount).map { try startWorker($0, url: url) }
        defer { for worker in workers where worker.isRunning { kill(worker.processIdentifier, SIGKILL); worker.waitUntilExit() } }

        var generator = SystemRandomNumberGenerator()
        var kills = 0
        let clock = ContinuousClock()
        let start = clock.now
        while try store.counts()[.completed] ?? 0 < Self.jobCount, clock.now - start < Self.deadline {
            Thread.sleep(forTimeInterval: Double.random(in: 0.1...0.4, using: &generator))
            let victim = Int.random(in: 0..<Self.workerCount, using: &generator)
            kill(workers[victim].processIdentifier, SIGKILL)
            workers[victim].waitUntilExit()
            kills += 1
            workers[victim] = try startWorker(victim, url: url)
        }

        let counts = try store.counts()
        #expect(counts[.completed] == Self.jobCount, "every job completed before the deadline: \(counts)")
        #expect(kills > 0)
        #expect(try store.callbackCounts() == (delivered: 0, pending: Self.jobCount, failed: 0), "one delivery per job")
        let repeated = try TestPostgres.column("SELECT job_name FROM job_callbacks GROUP BY job_name HAVING count(*) <> 1", url: url)
        #expect(repeated.isEmpty, "no job has two deliveries")
        let page = try store.list(status: .completed, nextToken: nil, limit: Self.jobCount)
        #expect(Set(page.jobs.map(\.name)).count == Self.jobCount)
        // Workers spend nearly all their time inside a job, so kills leave jobs to be taken over: the path under test.
        #expect(page.jobs.contains { $0.attempts > 1 }, "some job was taken over after its worker was killed (\(kills) kills)")
    }
}
