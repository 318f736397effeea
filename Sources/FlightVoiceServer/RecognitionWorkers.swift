import FlightCore
import Foundation
import Recognizer
import TranscriptionJobs

/// A fixed pool of recognition threads, each owning one `FlightRecognizer` (PocketSphinx decoders never change
/// threads). A worker takes synchronous recognitions first (a caller is waiting), then claims queued jobs from the
/// store; before each task it switches to the newest schedule's grammar when the flights changed.
///
/// Thread safety: `Sendable`; shared state behind one `NSCondition`. Recognizers are confined to their threads.
final class RecognitionWorkers: @unchecked Sendable {
    /// Work that needs a recognizer: run on a worker thread with that worker's recognizer and the current answerer.
    typealias Task = @Sendable (FlightRecognizer, SpokenQueryAnswerer) -> Void
    /// Runs one claimed job with a worker's recognizer.
    typealias JobHandler = @Sendable (TranscriptionJob, _ owner: String, FlightRecognizer, SpokenQueryAnswerer) -> Void

    private let condition = NSCondition()
    private var waiting: [(run: Task, dropped: @Sendable () -> Void)] = []
    private var stopping = false
    private var jobsMayBeQueued = true
    private var answerer: SpokenQueryAnswerer
    private var answererGeneration = 0
    private var readyWorkers = 0
    private var runningWorkers = 0
    private var startupFailure: String?

    let count: Int
    private let maximumWaiting: Int
    private let pollSeconds: Double
    private let ownerPrefix: String
    private let store: any TranscriptionJobStore
    private let leaseSeconds: Double
    private let runJob: JobHandler

    init(count: Int, answerer: SpokenQueryAnswerer, store: any TranscriptionJobStore, configuration: ServiceConfiguration, runJob: @escaping JobHandler) {
        self.count = count
        self.answerer = answerer
        self.store = store
        maximumWaiting = configuration.maximumWaitingRecognitions
        pollSeconds = configuration.pollSeconds
        leaseSeconds = configuration.leaseSeconds
        self.runJob = runJob
        ownerPrefix = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8))"
    }

    /// Starts the threads; each builds its recognizer first (they count as ready once it is loaded).
    func start() {
        for index in 0..<count {
            let thread = Thread { [self] in work(owner: "\(ownerPrefix):worker\(index)") }
            thread.name = "FlightVoice.worker\(index)"
            thread.stackSize = 8 << 20
            condition.lock()
            runningWorkers += 1
            condition.unlock()
            thread.start()
        }
    }

    /// True once every worker has loaded its models; the failure that stopped one, if any.
    var readiness: (ready: Bool, failure: String?) {
        condition.lock()
        defer { condition.unlock() }
        return (readyWorkers == count, startupFailure)
    }

    /// Synchronous recognitions waiting for a worker.
    var waitingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting.count
    }

    /// Queues `task` for the next free worker; false when too many wait already or the pool is stopping.
    /// `dropped` runs instead of the task when the pool stops before a worker took it.
    func submit(_ task: @escaping Task, dropped: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, waiting.count < maximumWaiting else { return false }
        waiting.append((task, dropped))
        condition.signal()
        return true
    }

    /// Tells idle workers a job was queued, so they claim it now rather than at their next poll.
    func jobQueued() {
        condition.lock()
        jobsMayBeQueued = true
        condition.broadcast()
        condition.unlock()
    }

    /// Makes workers switch to `answerer`'s flights before their next task.
    func useSchedule(_ answerer: SpokenQueryAnswerer) {
        condition.lock()
        self.answerer = answerer
        answererGeneration += 1
        condition.unlock()
    }

    /// The answerer for today's current schedule (its resolver answers typed flight queries).
    var currentAnswerer: SpokenQueryAnswerer {
        condition.lock()
        defer { condition.unlock() }
        return answerer
    }

    /// Stops taking work and waits up to `deadline` for the tasks in progress; true when all workers ended in time.
    /// Waiting synchronous tasks are dropped (their callers answer 503).
    @discardableResult
    func stop(deadline: Date) -> Bool {
        condition.lock()
        stopping = true
        for task in waiting { task.dropped() }
        waiting.removeAll()
        condition.broadcast()
        while runningWorkers > 0 && Date() < deadline { _ = condition.wait(until: deadline) }
        let allEnded = runningWorkers == 0
        condition.unlock()
        return allEnded
    }

    private func work(owner: String) {
        var (answerer, generation) = { condition.lock(); defer { condition.unlock() }; return (self.answerer, answererGeneration) }()
        let recognizer: FlightRecognizer
        do {
            recognizer = try answerer.makeRecognizer()
            // Loaded now, not on the first telephone clip: a worker reported ready answers any audio without a pause.
            _ = try recognizer.recognizer(for: .telephone)
        } catch {
            condition.lock()
            startupFailure = String(describing: error)
            runningWorkers -= 1
            condition.broadcast()
            condition.unlock()
            return
        }
        condition.lock()
        readyWorkers += 1
        condition.unlock()
        defer {
            condition.lock()
            runningWorkers -= 1
            condition.broadcast()
            condition.unlock()
        }
        while true {
            condition.lock()
            while waiting.isEmpty && !jobsMayBeQueued && !stopping {
                if !condition.wait(until: Date().addingTimeInterval(pollSeconds)) { break }
            }
            if stopping {
                condition.unlock()
                return
            }
            let task = waiting.isEmpty ? nil : waiting.removeFirst()
            if task == nil { jobsMayBeQueued = false }
            if answererGeneration != generation {
                (answerer, generation) = (self.answerer, answererGeneration)
                condition.unlock()
                // A failed reload keeps the previous grammar: answers stay possible, with yesterday's flights.
                try? recognizer.load(answerer.vocabulary)
            } else {
                condition.unlock()
            }
            if let task {
                task.run(recognizer, answerer)
                continue
            }
            guard let job = try? store.claimNext(owner: owner, leaseSeconds: leaseSeconds, now: Date()) else { continue }
            condition.lock()
            jobsMayBeQueued = true
            condition.unlock()
            runJob(job, owner, recognizer, answerer)
        }
    }
}
