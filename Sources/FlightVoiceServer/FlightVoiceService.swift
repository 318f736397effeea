import FlightCore
import FlightStore
import Foundation
import HTTPServer
import Presenter
import Recognizer
import Synchronization
import TranscriptionJobs

/// The HTTP service: the native API, Transcribe's JSON protocol and the S3 subset on one port, over a pool of
/// recognition workers and a durable job store. Start with `start()`, end with `drain(deadline:)`.
///
/// Thread safety: `Sendable`; handlers run concurrently on connection threads.
public final class FlightVoiceService: Sendable {
    let configuration: ServiceConfiguration
    let folder: DataFolder
    let flights: any FlightDatabase
    let store: any TranscriptionJobStore
    /// Job media and transcripts: the data folder, or files every server of a fleet reads.
    let jobFiles: any JobFileStore
    let jobFilesAreShared: Bool
    /// S3 buckets and objects: the data folder, or objects every server of a fleet reads.
    let objects: any ObjectStore
    let objectsAreShared: Bool
    /// True when other servers drain the same queue: their dead workers' expired leases are taken back while running.
    private let queueIsShared: Bool
    private let jobChanges: (@Sendable () -> AsyncStream<String?>)?
    private let partials: JobPartialsRelay?
    /// The tasks relaying the database's announcements (schedule and job changes, partial hypotheses), cancelled by `drain`.
    private let relays = Mutex<[Task<Void, Never>]>([])
    let workers: RecognitionWorkers
    let events = JobEventHub()
    let metrics = ServiceMetrics()
    let callbacks: CallbackSender
    let apiToken: String
    let credentials: AWSCredentials
    /// Messages for the operator printed once at start (a generated token, where the credentials are).
    public let startupNotes: [String]
    private let server = Mutex<HTTPServer?>(nil)
    private let draining = Atomic<Bool>(false)
    /// The flights' revision the workers' grammar was built from.
    let lastScheduleRevision: Atomic<Int64>
    /// The newest flights' revision this server knows of, set as soon as a change is heard (before the grammar is
    /// rebuilt): the lookup cache's key, so that no answer cached before a change is served after it is known.
    let lookupRevision: Atomic<Int64>
    /// Answers to typed lookups for the current schedule revision and minute.
    let lookupCache = LookupCache()
    private let scheduleCheck = Mutex<Void>(())
    /// `http://host:port` of the listener, known once it is bound.
    let baseURL = SharedValue("")

    /// Opens the data folder (taking its lock: one server per folder), the flights and jobs databases, the secrets,
    /// and requeues the jobs a previous process left IN_PROGRESS. Does not listen yet.
    public convenience init(configuration: ServiceConfiguration, jobStore: (any TranscriptionJobStore)? = nil) throws {
        let folder = try DataFolder(path: configuration.dataFolder)
        try Self.lockExclusively(folder.lockFile)
        try self.init(configuration: configuration, folder: folder, backend: .dataFolder(folder, jobStore: jobStore))
    }

    /// A service on `backend` (made by `backend(folder)` once the data folder is locked), with secrets in the data
    /// folder.
    public convenience init(configuration: ServiceConfiguration, backend: (DataFolder) throws -> ServiceBackend) throws {
        let folder = try DataFolder(path: configuration.dataFolder)
        try Self.lockExclusively(folder.lockFile)
        try self.init(configuration: configuration, folder: folder, backend: backend(folder))
    }

    private init(configuration: ServiceConfiguration, folder: DataFolder, backend: ServiceBackend) throws {
        self.configuration = configuration
        self.folder = folder
        flights = backend.flights
        let store = backend.jobs
        self.store = store
        jobFiles = backend.jobFiles ?? folder
        jobFilesAreShared = backend.jobFiles != nil
        objects = backend.objects ?? folder
        objectsAreShared = backend.objects != nil
        queueIsShared = backend.sharedByServers
        jobChanges = backend.jobChanges
        partials = backend.partials
        var notes: [String] = []
        let tokenPath = configuration.tokenFile ?? folder.tokenFile
        let token = try DataFolder.secretFile(at: tokenPath) { Crypto.hex(Crypto.randomBytes(24)) }
        apiToken = token.contents.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !apiToken.isEmpty else { throw ServiceSetupError(message: "the token file \(tokenPath) is empty") }
        // The token itself is never printed: standard output and error end up in the journal.
        if token.created { notes.append("API token for flight updates generated in \(tokenPath) (clients send it in the Authorization header; read it from the file)") }
        let credentialsPath = configuration.credentialsFile ?? folder.credentialsFile
        let generated = try DataFolder.secretFile(at: credentialsPath) { AWSCredentials.generated() }
        credentials = try AWSCredentials(fileText: generated.contents, path: credentialsPath)
        if generated.created { notes.append("AWS credentials for Transcribe and S3 clients written to \(credentialsPath) (AWS_SHARED_CREDENTIALS_FILE=\(credentialsPath))") }
        // Alone on its folder's store, this process holds the lock, so every lease belongs to a process that died;
        // on a shared queue, other servers are alive and only expired leases are taken back.
        let requeued = try store.requeueExpiredLeases(now: backend.sharedByServers ? Date() : .distantFuture)
        if !requeued.isEmpty { notes.append("requeued \(requeued.count) job(s) a previous run left in progress: \(requeued.joined(separator: ", "))") }
        // The same for callbacks a dead process was sending: they go out again, with the same delivery id.
        let resent = try store.requeueInterruptedCallbacks(now: backend.sharedByServers ? Date() : .distantFuture)
        if resent > 0 { notes.append("\(resent) callback(s) were being sent when their server stopped; they are sent again with the same delivery id") }
        startupNotes = notes
        let answerer = try SpokenQueryAnswerer(flights: flights, configuration: configuration.recognizer, now: configuration.now())
        let flightStore = flights
        let revision = (try? flightStore.scheduleRevision()) ?? 0
        lastScheduleRevision = Atomic(revision)
        lookupRevision = Atomic(revision)
        let leases = LeaseKeeper(store: store, leaseSeconds: configuration.leaseSeconds)
        callbacks = CallbackSender(store: store, configuration: configuration, metrics: metrics, leases: leases)
        let baseURL = self.baseURL
        let runner = JobRunner(objects: objects, jobFiles: jobFiles, store: store, events: events, metrics: metrics, leases: leases, configuration: configuration,
                               represent: { job in NativeJobRepresentation.object(job, baseURL: baseURL.get()) },
                               onFinished: { [callbacks] in callbacks.wake() }, announcePartial: backend.partials?.announce)
        workers = RecognitionWorkers(count: max(1, configuration.workers), answerer: answerer, store: store, configuration: configuration, runJob: runner.run)
    }

    /// Starts the workers, the callback sender, the schedule watcher and the HTTP listener; returns the bound port.
    /// Throws `HTTPServerError` when the address cannot be bound.
    public func start() throws -> UInt16 {
        let router = makeRouter()
        let listening = try HTTPServer(configuration: configuration.http) { [self] request in handle(request, router: router) }
        let host = configuration.http.host.contains(":") ? "[\(configuration.http.host)]" : configuration.http.host
        baseURL.set("http://\(host):\(listening.port)")
        server.withLock { $0 = listening }
        workers.start()
        callbacks.start()
        let watcher = Thread { [self] in
            var nextLeaseCheck = Date()
            while !draining.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: configuration.pollSeconds)
                checkSchedule()
                if queueIsShared, Date() >= nextLeaseCheck {
                    nextLeaseCheck = Date().addingTimeInterval(configuration.leaseSeconds / 2)
                    requeueDeadServersJobs()
                }
            }
        }
        watcher.name = "FlightVoice.schedule"
        watcher.start()
        startRelays()
        return listening.port
    }

    /// Stops taking new work (503), lets decodes in progress finish until `deadline`, then closes the listener.
    /// Queued jobs stay in the store; a job still decoding at the deadline keeps its lease and is requeued at the
    /// next start. Returns true when every decode finished in time.
    @discardableResult
    public func drain(deadline: Date) -> Bool {
        draining.store(true, ordering: .relaxed)
        relays.withLock { tasks in tasks.forEach { $0.cancel() } }
        events.interruptAll()
        let finished = workers.stop(deadline: deadline)
        callbacks.stop()
        server.withLock { $0 }?.stop()
        return finished
    }

    /// True while SIGTERM drains.
    var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// Rebuilds the workers' grammar when the flights changed (by this process or any other); serialized.
    func checkSchedule() {
        scheduleCheck.withLock { _ in
            guard let revision = try? flights.scheduleRevision(), revision != lastScheduleRevision.load(ordering: .acquiring) else { return }
            lookupRevision.store(revision, ordering: .releasing)
            guard let answerer = try? SpokenQueryAnswerer(flights: flights, configuration: configuration.recognizer, now: configuration.now()) else { return }
            lastScheduleRevision.store(revision, ordering: .releasing)
            workers.useSchedule(answerer)
        }
    }

    /// Follows the database's announcements: a schedule change rebuilds the grammar at once (the watcher's polling
    /// stays as a safety net), a job changed by any server wakes this server's waiters and event streams, and another
    /// server's partial hypotheses go to this server's event streams.
    private func startRelays() {
        let schedule = Task.detached { [self] in
            for await change in flights.scheduleChanges() where !Task.isCancelled {
                if case .revised(let revision) = change {
                    lookupRevision.store(revision, ordering: .releasing)
                    checkSchedule()
                }
            }
        }
        var tasks = [schedule]
        if let jobChanges {
            tasks.append(Task.detached { [self] in
                for await name in jobChanges() where !Task.isCancelled {
                    guard let name else { events.touch(); continue }
                    relayJobChange(name)
                }
            })
        }
        if let partials {
            tasks.append(Task.detached { [events] in
                for await heard in partials.othersPartials() where !Task.isCancelled {
                    guard let heard else { continue }
                    events.publish(heard.job, JobRunner.partialEvent(job: heard.job, transcript: heard.transcript))
                }
            })
        }
        relays.withLock { $0 = tasks }
    }

    /// Returns to the queue the jobs and callback sends of servers that died (their leases ran out), so that a server
    /// lost for good costs them no more than one lease; any live server may do it, the store makes it safe to race.
    private func requeueDeadServersJobs() {
        if let requeued = try? store.requeueExpiredLeases(now: Date()), !requeued.isEmpty { workers.jobQueued() }
        if let resent = try? store.requeueInterruptedCallbacks(now: Date()), resent > 0 { callbacks.wake() }
    }

    /// Shows a change to job `name` that any server made (announced by the database) to this server's waiters.
    private func relayJobChange(_ name: String) {
        let found: TranscriptionJob?
        do { found = try store.job(named: name) } catch { events.touch(); return }
        guard let job = found else { events.forget(name); return }
        if job.status.isFinal {
            let event = ServerSentEvent(name: job.status == .completed ? "completed" : "failed", data: NativeJobRepresentation.object(job, baseURL: baseURL.get()).serialized())
            events.publish(name, event, closes: true)
        } else {
            events.publishStatus(name, job.status)
        }
        if job.status == .queued { workers.jobQueued() }
    }

    private func handle(_ request: HTTPRequest, router: Router) -> HTTPResponse {
        let started = ContinuousClock.now
        let response: HTTPResponse
        let route: String
        switch router.match(request) {
        case .found(let pattern, let parameters, let handler):
            route = pattern
            response = handler(request, parameters)
        case .notFound where Self.isS3Path(request.path):
            route = "/{bucket}/{key}"
            response = s3(request)
        case .notFound:
            route = "unmatched"
            response = APIError.notFound("NotFound", "no route for \(request.method) \(request.path.prefix(200)); see docs/openapi.yaml").response
        case .methodNotAllowed(let allowed):
            route = "unmatched"
            var error = APIError(status: 405, code: "MethodNotAllowed", message: "\(request.method) is not allowed here; allowed: \(allowed.joined(separator: ", "))")
            error.headers["Allow"] = allowed.joined(separator: ", ")
            response = error.response
        }
        metrics.countRequest(method: request.method, route: route, status: response.status)
        if let log = configuration.requestLog {
            log(Self.requestLine(request, route: route, response: response, duration: ContinuousClock.now - started).description)
        }
        return response
    }

    /// The request's log line: method, path (never the query, which can carry a presigned URL's signature), route,
    /// status, sizes and time. Never a header (no Authorization, no token) and never a body (no audio).
    static func requestLine(_ request: HTTPRequest, route: String, response: HTTPResponse, duration: Duration) -> LogLine {
        var line = LogLine(event: "request")
        line.append("method", request.method)
        line.append("path", String(request.path.prefix(200)))
        line.append("route", route)
        line.append("status", String(response.status))
        line.append("request_bytes", String(request.body.count))
        if case .bytes(let body) = response.body { line.append("response_bytes", String(body.count)) }
        let milliseconds = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        line.append("duration_ms", String(format: "%.1f", milliseconds))
        return line
    }

    /// Routes every API; AWS requests (`POST /` with X-Amz-Target, and `/bucket/key`) come last.
    private func makeRouter() -> Router {
        var router = Router()
        addNativeRoutes(to: &router)
        addFlightRoutes(to: &router)
        addAWSRoutes(to: &router)
        return router
    }

    /// Wraps a handler that throws `APIError` into a router handler.
    static func api(_ body: @escaping @Sendable (HTTPRequest, [String: String]) throws(APIError) -> HTTPResponse) -> Router.Handler {
        { request, parameters in
            do throws(APIError) {
                return try body(request, parameters)
            } catch {
                return error.response
            }
        }
    }

    private static func lockExclusively(_ path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { throw ServiceSetupError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        // The descriptor stays open for the life of the process: the lock is the process's.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw ServiceSetupError(message: "another flightvoice server uses the data folder \((path as NSString).deletingLastPathComponent); give this one its own --data")
        }
    }
}

/// A value many threads read and one sets, behind a lock.
final class SharedValue<Value: Sendable>: Sendable {
    private let value: Mutex<Value>
    init(_ initial: Value) { value = Mutex(initial) }
    func get() -> Value { value.withLock { $0 } }
    func set(_ newValue: Value) { value.withLock { $0 = newValue } }
}
