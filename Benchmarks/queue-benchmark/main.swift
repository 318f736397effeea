// Jobs per second through the shared PostgreSQL queue with 1, 2 and 3 server processes draining it at once.
//
//   queue-benchmark [--jobs N] URL
//
// For each process count, N jobs (with a callback URL, so finishing also records a delivery) are queued, then that
// many worker processes start together and claim and finish jobs until the queue is empty, as servers' workers do
// (without the decoding: this measures the queue itself). Prints jobs per second from the first start to the last
// exit, and checks that every job was finished exactly once. A worker process is this program run as
// `queue-benchmark --work URL OWNER [--work-ms N] [--lease-seconds S] [--forever]` (the chaos test runs these too).
import FlightStorePostgres
import Foundation
import TranscriptionJobs
import TranscriptionJobsPostgres

/// Jobs per round unless --jobs says otherwise.
let defaultJobs = 2_000
/// The process counts measured.
let processCounts = [1, 2, 3]
/// Longer than any claim-to-finish here; no lease expires during a round.
let leaseSeconds = 300.0
/// How long a `--forever` worker waits when the queue is empty, in seconds.
let idleWaitSeconds = 0.05

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("queue-benchmark: \(message)\n".utf8))
    exit(code)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--work", arguments.count >= 3 {
    runWorker(url: arguments[1], owner: arguments[2], options: Array(arguments.dropFirst(3)))
}

/// A worker process: claims and finishes jobs until the queue is empty (or, with `--forever`, until killed), then
/// prints how many it finished. `--work-ms N` pretends each job takes N ms; `--lease-seconds S` sets the lease; a
/// worker also returns jobs whose lease ended (a killed worker's) to the queue, as a server's housekeeping does.
func runWorker(url: String, owner: String, options: [String]) -> Never {
    func option(_ name: String) -> Double? { options.firstIndex(of: name).flatMap { $0 + 1 < options.count ? Double(options[$0 + 1]) : nil } }
    let workSeconds = (option("--work-ms") ?? 0) / 1000
    let lease = option("--lease-seconds") ?? leaseSeconds
    let forever = options.contains("--forever")
    do {
        let store = try PostgresJobStore(url: url)
        var finished = 0
        while true {
            _ = try store.requeueExpiredLeases(now: Date())
            guard let job = try store.claimNext(owner: owner, leaseSeconds: lease, now: Date()) else {
                if forever { Thread.sleep(forTimeInterval: idleWaitSeconds); continue }
                break
            }
            if workSeconds > 0 { Thread.sleep(forTimeInterval: workSeconds) }
            let outcome = JobOutcome.completed(answerJSON: "{}", transcriptPath: "transcripts/\(job.name).json", audioSeconds: 2)
            if try store.finish(name: job.name, owner: owner, outcome: outcome, callbackPayload: "{\"job\":\"\(job.name)\"}", now: Date()) {
                finished += 1
            }
        }
        print(finished)
        exit(0)
    } catch {
        fail("\(error)", code: 74)
    }
}

var jobs = defaultJobs
if let index = arguments.firstIndex(of: "--jobs"), index + 1 < arguments.count, let value = Int(arguments[index + 1]), value > 0 {
    jobs = value
    arguments.removeSubrange(index...index + 1)
}
guard arguments.count == 1, PostgresURL.isPostgres(arguments[0]) else { fail("usage: queue-benchmark [--jobs N] postgres://…", code: 64) }
let url = arguments[0]

do {
    let store = try PostgresJobStore(url: url)
    let round = UUID().uuidString.prefix(8)
    print("processes   jobs/s   seconds   jobs   (each finished once, with its callback delivery recorded)")
    for processes in processCounts {
        for index in 0..<jobs {
            _ = try store.create(NewTranscriptionJob(name: "bench-\(round)-\(processes)-\(index)", languageCode: "en-US",
                                                     callbackURL: "http://127.0.0.1:9/done", mediaPath: "media/\(index).wav"), now: Date())
        }
        let completedBefore = try store.counts()[.completed] ?? 0
        let clock = ContinuousClock()
        let start = clock.now
        let workers = try (0..<processes).map { worker -> (Process, Pipe) in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            process.arguments = ["--work", url, "server\(worker)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var finishedByWorkers = 0
        for (process, output) in workers {
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            guard process.terminationStatus == 0, let count = Int(printed.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                fail("a worker failed (exit \(process.terminationStatus))", code: 70)
            }
            finishedByWorkers += count
        }
        let seconds = (clock.now - start) / .seconds(1)
        let completed = (try store.counts()[.completed] ?? 0) - completedBefore
        guard finishedByWorkers == jobs, completed == jobs else {
            fail("\(finishedByWorkers) finishes reported and \(completed) jobs completed for \(jobs) queued", code: 70)
        }
        print(String(format: "%9d   %6.0f   %7.2f   %4d", processes, Double(jobs) / seconds, seconds, jobs))
    }
} catch {
    fail("\(error)", code: 74)
}
