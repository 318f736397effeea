import Foundation

/// Where a transcription job is in its life.
public enum JobStatus: String, Sendable, Codable, CaseIterable {
    case queued = "QUEUED"
    case inProgress = "IN_PROGRESS"
    case completed = "COMPLETED"
    case failed = "FAILED"

    /// True once the job will not change any more.
    public var isFinal: Bool { self == .completed || self == .failed }
}

/// What a client asked for when it created a job.
public struct NewTranscriptionJob: Sendable, Equatable {
    /// `[A-Za-z0-9._-]{1,200}`, unique among the jobs the store holds.
    public var name: String
    public var languageCode: String
    /// The media's container as the client declared it (`wav`, `flac`, ...), or nil to detect it.
    public var mediaFormat: String?
    public var mediaSampleRateHertz: Int?
    public var maxAlternatives: Int?
    /// Where the finished job is POSTed (native API only).
    public var callbackURL: String?
    /// The media file, relative to the service's data folder.
    public var mediaPath: String
    /// The media's URI as the client named it (`s3://bucket/key`), for Transcribe's `Media.MediaFileUri`.
    public var mediaURI: String?
    /// Transcribe's `OutputBucketName` / `OutputKey`: where the transcript object goes, when given.
    public var outputBucket: String?
    public var outputKey: String?

    public init(name: String, languageCode: String, mediaFormat: String? = nil, mediaSampleRateHertz: Int? = nil,
                maxAlternatives: Int? = nil, callbackURL: String? = nil, mediaPath: String, mediaURI: String? = nil,
                outputBucket: String? = nil, outputKey: String? = nil) {
        self.name = name
        self.languageCode = languageCode
        self.mediaFormat = mediaFormat
        self.mediaSampleRateHertz = mediaSampleRateHertz
        self.maxAlternatives = maxAlternatives
        self.callbackURL = callbackURL
        self.mediaPath = mediaPath
        self.mediaURI = mediaURI
        self.outputBucket = outputBucket
        self.outputKey = outputKey
    }
}

/// A job as stored: the request, its state, its lease and its outcome.
public struct TranscriptionJob: Sendable, Equatable {
    public var request: NewTranscriptionJob
    public var status: JobStatus
    public var createdAt: Date
    public var startedAt: Date?
    public var completedAt: Date?
    /// Why a FAILED job failed, in Transcribe's words.
    public var failureReason: String?
    /// The flight answer of a COMPLETED job as a JSON object (the service's own shape), or nil.
    public var answerJSON: String?
    /// The transcript document, relative to the data folder, once COMPLETED.
    public var transcriptPath: String?
    /// Seconds of audio decoded (for metrics and the job record).
    public var audioSeconds: Double?
    /// The worker holding the job while IN_PROGRESS, and until when its lease runs.
    public var leaseOwner: String?
    public var leaseExpiresAt: Date?
    /// How many times a worker claimed the job (more than 1 after a crash or an expired lease).
    public var attempts: Int

    public var name: String { request.name }

    public init(request: NewTranscriptionJob, status: JobStatus, createdAt: Date, startedAt: Date? = nil, completedAt: Date? = nil,
                failureReason: String? = nil, answerJSON: String? = nil, transcriptPath: String? = nil, audioSeconds: Double? = nil,
                leaseOwner: String? = nil, leaseExpiresAt: Date? = nil, attempts: Int = 0) {
        self.request = request
        self.status = status
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.failureReason = failureReason
        self.answerJSON = answerJSON
        self.transcriptPath = transcriptPath
        self.audioSeconds = audioSeconds
        self.leaseOwner = leaseOwner
        self.leaseExpiresAt = leaseExpiresAt
        self.attempts = attempts
    }
}

/// How a claimed job ended.
public struct JobOutcome: Sendable, Equatable {
    public var status: JobStatus
    public var failureReason: String?
    public var answerJSON: String?
    public var transcriptPath: String?
    public var audioSeconds: Double?

    /// A COMPLETED outcome.
    public static func completed(answerJSON: String, transcriptPath: String, audioSeconds: Double) -> JobOutcome {
        JobOutcome(status: .completed, failureReason: nil, answerJSON: answerJSON, transcriptPath: transcriptPath, audioSeconds: audioSeconds)
    }

    /// A FAILED outcome with Transcribe's kind of reason.
    public static func failed(_ reason: String) -> JobOutcome {
        JobOutcome(status: .failed, failureReason: reason, answerJSON: nil, transcriptPath: nil, audioSeconds: nil)
    }
}

/// A finished job's notification to its `callbackURL`.
public struct CallbackDelivery: Sendable, Equatable {
    public let id: Int64
    /// The delivery's idempotency key, made when the delivery is recorded and sent unchanged with every attempt
    /// (`FlightVoice-Delivery-Id`): a receiver that sees a key again has already had this callback.
    public let key: String
    public let jobName: String
    public let url: String
    /// The JSON body to POST.
    public let payload: String
    /// Attempts made before this one.
    public let attempts: Int
}

/// One page of jobs.
public struct JobPage: Sendable {
    public let jobs: [TranscriptionJob]
    /// Pass back to get the next page; nil on the last one.
    public let nextToken: String?
}

/// Why a store refused an operation a client asked for.
public enum JobStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A job with this name exists already.
    case duplicateName(String)
    /// A paging token this store did not hand out.
    case invalidToken(String)

    public var description: String {
        switch self {
        case .duplicateName(let name): "a transcription job named '\(name)' already exists; job names are unique"
        case .invalidToken(let token): "'\(token)' is not a nextToken this service handed out"
        }
    }
}

/// Durable storage of transcription jobs and their callback deliveries: the queue the service's workers drain.
///
/// Guarantees every backend must keep (the SQLite store here; a PostgreSQL store for several servers sharing one queue):
/// - **Durable:** a job returned by `create` survives a crash of the process (committed before returning).
/// - **Claim/lease:** `claimNext` moves the oldest QUEUED job to IN_PROGRESS atomically for exactly one caller,
///   recording `owner` and a lease until `now + leaseSeconds`; concurrent claimers never get the same job
///   (PostgreSQL: `FOR UPDATE SKIP LOCKED`). A worker renews its lease with `renewLease` while it works.
/// - **Fenced completion:** `finish` changes a job only while it is IN_PROGRESS under the caller's lease (owner
///   matches); otherwise it returns false and changes nothing, so a worker whose lease was taken over cannot complete
///   a job a second time.
/// - **Callbacks in the same transaction:** when `finish` succeeds for a job with a `callbackURL`, the pending delivery
///   is recorded in the same transaction as the state change: no finished job without its delivery, none twice. The
///   delivery gets its idempotency `key` there, and keeps it on every attempt.
/// - **Recovery:** `requeueExpiredLeases(now:)` returns IN_PROGRESS jobs whose lease ended before `now` to QUEUED.
///   A backend with one server per data folder (SQLite) may pass `.distantFuture` at start: every lease then belongs
///   to a dead process.
/// - **Callbacks at least once, exactly once per key:** `claimDueCallback` hands a due delivery to one sender at a
///   time, marked as being sent under the sender's lease (renewed with `renewCallbackLease` while the POST runs), so
///   no two senders POST it at once. A delivery acknowledged (`callbackDelivered`) is never handed out again. One
///   whose sender died mid-send (its outcome unknown: the receiver may or may not have it) is returned to the queue by
///   `requeueInterruptedCallbacks(now:)` once its lease has ended, never while the sender may still be alive, and is
///   sent again with the same key; the interrupted attempt does not count against the attempt limit. A receiver
///   therefore gets every callback at least once, and deduplicates on the key.
/// Every method is safe to call from any thread.
public protocol TranscriptionJobStore: Sendable {
    /// Stores a new QUEUED job; throws `JobStoreError.duplicateName` when the name is taken.
    func create(_ job: NewTranscriptionJob, now: Date) throws -> TranscriptionJob
    /// The job named `name`, or nil.
    func job(named name: String) throws -> TranscriptionJob?
    /// Jobs in creation order, optionally only those with `status`, starting after `nextToken`.
    func list(status: JobStatus?, nextToken: String?, limit: Int) throws -> JobPage
    /// Removes the job (and its pending callback) and returns what it was, or nil when there was none.
    func delete(named name: String) throws -> TranscriptionJob?
    /// How many jobs are in each status.
    func counts() throws -> [JobStatus: Int]

    /// Claims the oldest QUEUED job for `owner` (see the type's guarantees), or nil when none is waiting.
    func claimNext(owner: String, leaseSeconds: Double, now: Date) throws -> TranscriptionJob?
    /// Extends `owner`'s lease on `name`; false when the job is no longer held by `owner`.
    func renewLease(name: String, owner: String, until: Date) throws -> Bool
    /// Ends a claimed job, and records its callback delivery (`callbackPayload`) in the same transaction.
    func finish(name: String, owner: String, outcome: JobOutcome, callbackPayload: String?, now: Date) throws -> Bool
    /// Returns to QUEUED every IN_PROGRESS job whose lease ended before `now`; the names requeued.
    func requeueExpiredLeases(now: Date) throws -> [String]

    /// The oldest delivery due at `now`, marked as being sent by `owner` under a lease until `now + leaseSeconds`;
    /// nil when none is due.
    func claimDueCallback(owner: String, leaseSeconds: Double, now: Date) throws -> CallbackDelivery?
    /// Extends `owner`'s lease on the delivery it is sending; false when the delivery is no longer `owner`'s to send.
    func renewCallbackLease(id: Int64, owner: String, until: Date) throws -> Bool
    /// Records that the receiver accepted delivery `id` (answered 2xx): it is never handed out again, whoever sent it.
    func callbackDelivered(id: Int64, now: Date) throws
    /// Records `owner`'s failed attempt: retried at `retryAt`, or given up when it is nil. Changes nothing when the
    /// delivery is no longer being sent by `owner` (acknowledged meanwhile, or taken over after its lease ended).
    func callbackFailed(id: Int64, owner: String, error: String, retryAt: Date?) throws
    /// Returns to the queue, due at once, every delivery being sent whose sender's lease ended before `now` (the
    /// sender died mid-send); how many. A single-server store may pass `.distantFuture` at start, as for jobs.
    func requeueInterruptedCallbacks(now: Date) throws -> Int
    /// Deliveries still to be made, sent or not (for tests and metrics): (delivered, pending, failed).
    func callbackCounts() throws -> (delivered: Int, pending: Int, failed: Int)
}
