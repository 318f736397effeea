import DatabaseTestSupport
import Foundation
import Testing
import TranscriptionJobs
import TranscriptionJobsPostgres

/// Three real `flightvoice serve` processes share one PostgreSQL database; jobs with callbacks are submitted to any of
/// them while servers are killed with SIGKILL and restarted at random. Every job completes exactly once, and every
/// callback reaches the receiver, exactly once per delivery id (a send a kill interrupted is sent again with the same
/// id, which the receiver deduplicates on). Bounded in time.
///
/// `make test` runs a small fleet-sized batch (`FLIGHTVOICE_CHAOS_JOBS`, default 100) of very short clips so that it
/// fits in the suite's time; `scripts/chaos-fleet.sh` runs 200 jobs of a real spoken clip.
@Suite("Three servers on one PostgreSQL under kill -9", .enabled(if: TestPostgres.isConfigured, Comment(rawValue: TestPostgres.skipReason)))
struct FleetChaosTests {
    static let serverCount = 3
    static let environment = ProcessInfo.processInfo.environment
    static let jobCount = environment["FLIGHTVOICE_CHAOS_JOBS"].flatMap(Int.init) ?? 100
    /// The whole test gives up after this long.
    static let deadlineSeconds = environment["FLIGHTVOICE_CHAOS_SECONDS"].flatMap(Double.init) ?? 150
    /// Short, so that a killed server's job goes to another one quickly.
    static let leaseSeconds = 2
    /// Pause between kills, in seconds: long enough for a restarted server to load its models and take work.
    static let killPause = 1.0...3.0

    /// The clip most jobs decode: `FLIGHTVOICE_CHAOS_CLIP`, else half a second of quiet noise (decoded for real,
    /// "no speech" completes the job) so that the batch is quick on a loaded two-core machine.
    static func clip(in folder: URL) throws -> URL {
        if let path = environment["FLIGHTVOICE_CHAOS_CLIP"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let url = folder.appendingPathComponent("short.wav")
        try noiseWAV(seconds: 0.5, amplitude: 60).write(to: url)
        return url
    }

    /// The clip of the batch's last jobs: ten seconds of loud noise, which the recognizer decodes in full (about two
    /// seconds), so that a kill can land in the middle of a decode however fast the short ones are.
    static func longClip(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("long.wav")
        try noiseWAV(seconds: 10, amplitude: 3_000).write(to: url)
        return url
    }

    /// A 16 kHz, 16-bit mono WAV of random noise within ±`amplitude`.
    static func noiseWAV(seconds: Double, amplitude: Int16) -> Data {
        let rate = 16_000
        let samples = Int(Double(rate) * seconds)
        var data = Data()
        func append<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples * 2)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(rate)); append(UInt32(rate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples * 2))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<samples { append(Int16.random(in: -amplitude...amplitude, using: &generator)) }
        return data
    }

    @Test("jobs submitted to three servers killed and restarted at random: each completes once, every callback arrives once per delivery id")
    func killedServersLoseNoJobAndNoCallback() throws {
        let url = try TestPostgres.createDatabase()
        defer { TestPostgres.dropDatabase(url: url) }
        let store = try PostgresJobStore(url: url)
        let receiver = try CallbackReceiver()
        let folders = try (0..<Self.serverCount).map { _ in try ServerProcess.makeDataFolder() }
        let clip = try Self.clip(in: folders[0])
        let longClip = try Self.longClip(in: folders[0])
        let arguments = ["--database", url, "--lease-seconds", String(Self.leaseSeconds), "--drain-seconds", "0"]
        var servers = try folders.map { try ServerProcess(dataFolder: $0, arguments: arguments) }
        defer { servers.forEach { $0.cleanUp() } }
        var generator = SystemRandomNumberGenerator()
        let start = Date()
        let deadline = start.addingTimeInterval(Self.deadlineSeconds)

        // Submit through the servers in turn; a refused connection (the server was just killed) retries elsewhere,
        // and 409 means the first attempt did create the job.
        let names = (0..<Self.jobCount).map { "chaos-\($0)" }
        // The batch's last jobs decode the long clip.
        let longJobs = Set(names.suffix(Self.serverCount))
        var nextKill = Date().addingTimeInterval(Double.random(in: Self.killPause, using: &generator))
        var kills = 0
        // Jobs a kill left in progress under the dead server's lease: each must be claimed again.
        var interrupted: Set<String> = []
        /// What a lease owner ("host:pid:…") of `server`'s process contains.
        func leaseMark(of server: Int) -> String { ":\(servers[server].process.processIdentifier):" }
        /// The jobs in progress, by the server holding them.
        func jobsInProgress() throws -> [(name: String, server: Int)] {
            let rows = try TestPostgres.column("SELECT name || ' ' || lease_owner FROM transcription_jobs WHERE status = 'IN_PROGRESS'", url: url)
            return rows.compactMap { row in
                guard let parts = row?.split(separator: " ", maxSplits: 1), parts.count == 2 else { return nil }
                let server = servers.indices.first { parts[1].contains(leaseMark(of: $0)) }
                return server.map { (String(parts[0]), $0) }
            }
        }
        func kill(_ victim: Int) throws {
            let mark = leaseMark(of: victim)
            servers[victim].stop(signal: SIGKILL)
            kills += 1
            // The process has exited: whatever it still holds in progress, the kill interrupted.
            let held = try TestPostgres.column("SELECT name FROM transcription_jobs WHERE status = 'IN_PROGRESS' AND strpos(lease_owner, $1) > 0", [mark], url: url)
            interrupted.formUnion(held.compactMap { $0 })
            servers[victim] = try ServerProcess(dataFolder: folders[victim], arguments: arguments)
            nextKill = Date().addingTimeInterval(Double.random(in: Self.killPause, using: &generator))
        }
        // A server still loading its models holds no job, and a kill of it tests nothing: kill one that holds a job
        // where there is one.
        func killOneAtRandom() throws {
            let holders = try jobsInProgress().map(\.server)
            try kill(holders.randomElement(using: &generator) ?? Int.random(in: 0..<Self.serverCount, using: &generator))
        }
        for (index, name) in names.enumerated() {
            var created = false
            for attempt in 0..<(Self.serverCount * 3) where !created {
                let status = try? servers[(index + attempt) % Self.serverCount].createJob(name, clip: longJobs.contains(name) ? longClip : clip, query: "languageCode=en-US&callbackUrl=\(receiver.url)").status
                created = status == 201 || (status == 409 && attempt > 0)
            }
            #expect(created, "job \(name) was accepted by some server")
            if Date() >= nextKill { try killOneAtRandom() }
        }
        // The batch can finish between random kills that each miss a decode, and then no job is ever taken over: until
        // a kill has interrupted a decode (the last jobs' long ones are there to be interrupted), kill a server decoding.
        while interrupted.isEmpty, (try store.counts()[.completed] ?? 0) < Self.jobCount, Date() < deadline {
            if let victim = try jobsInProgress().map(\.server).randomElement(using: &generator) {
                try kill(victim)
            } else {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        // While the queue drains, kills go on at random, sparing a server decoding a long clip: on a loaded machine one
        // takes several seconds, and kills every few seconds could keep it from ever finishing.
        while (try store.counts()[.completed] ?? 0) < Self.jobCount, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            guard Date() >= nextKill else { continue }
            let decodingLong = Set(try jobsInProgress().filter { longJobs.contains($0.name) }.map(\.server))
            if let victim = servers.indices.filter({ !decodingLong.contains($0) }).randomElement(using: &generator) {
                try kill(victim)
            } else {
                nextKill = Date().addingTimeInterval(Double.random(in: Self.killPause, using: &generator))
            }
        }
        // Callbacks of the last jobs, and sends a kill interrupted (resent once their lease ends), are still on their
        // way: wait for them without killing.
        func jobName(_ body: Data) -> String? { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["name"] as? String }
        _ = eventually(max(10, deadline.timeIntervalSinceNow)) {
            Set(receiver.received.compactMap(jobName)).count == Self.jobCount
                && (try? TestPostgres.column("SELECT count(*) FROM job_callbacks WHERE state <> 'delivered'", url: url)) == ["0"]
        }
        Thread.sleep(forTimeInterval: 1) // a late duplicate would show now

        let counts = try store.counts()
        #expect(counts[.completed] == Self.jobCount, "every job completed before the deadline (\(kills) kills): \(counts)")
        #expect(kills > 0)
        let completed = try store.list(status: .completed, nextToken: nil, limit: Self.jobCount + 1).jobs
        #expect(Set(completed.map(\.name)) == Set(names))
        #expect(!interrupted.isEmpty, "some kill interrupted a decode (\(kills) kills)")
        let takenOver = Set(completed.filter { $0.attempts > 1 }.map(\.name))
        #expect(interrupted.isSubset(of: takenOver), "every interrupted job was claimed again after the kill: \(interrupted.subtracting(takenOver).sorted())")
        let deliveriesPerJob = try TestPostgres.column("SELECT job_name FROM job_callbacks GROUP BY job_name HAVING count(*) <> 1", url: url)
        #expect(deliveriesPerJob.isEmpty, "one delivery recorded per job")
        #expect(try store.callbackCounts() == (delivered: Self.jobCount, pending: 0, failed: 0), "every delivery acknowledged")

        let accepted = receiver.arrivals.filter { $0.status == 200 }
        #expect(accepted.allSatisfy { $0.deliveryID != nil }, "every callback carries its delivery id")
        let missing = Set(names).subtracting(accepted.compactMap { jobName($0.body) })
        #expect(missing.isEmpty, "every job's callback arrived: missing \(missing.sorted())")
        // The receiver keeps the first arrival of each delivery id: after that, each job's callback exactly once.
        let once = receiver.receivedOncePerDeliveryID.compactMap(jobName)
        #expect(once.sorted() == names.sorted(), "after deduplication each callback arrived exactly once")
        let idsPerJob = Dictionary(grouping: accepted, by: { jobName($0.body) ?? "" }).mapValues { Set($0.compactMap(\.deliveryID)).count }
        #expect(idsPerJob.values.allSatisfy { $0 == 1 }, "a job's resent callback carries the id of its first send")
        // A raw duplicate needs a kill between the receiver's 2xx and its recording: at most one per kill (one sender
        // per server).
        let duplicates = accepted.count - once.count
        #expect(duplicates <= kills)
        print("fleet chaos: \(Self.jobCount) jobs, \(kills) kills, \(interrupted.count) interrupted, \(takenOver.count) taken over, \(accepted.count) callbacks received, \(missing.count) missing, \(duplicates) raw duplicates (deduplicated on FlightVoice-Delivery-Id), \(String(format: "%.1f", Date().timeIntervalSince(start))) s")
    }
}
