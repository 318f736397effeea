import Foundation
import HTTPServer
import Recognizer

/// Everything `flightvoice serve` can be told, with the limits that keep one small machine responsive.
public struct ServiceConfiguration: Sendable {
    /// Address, port and HTTP limits (body size → 413, idle and slow clients).
    public var http = HTTPServerConfiguration()
    /// The data folder (flights, jobs, media, transcripts, S3 objects, secrets).
    public var dataFolder: String
    /// Recognition workers, each with its own recognizer: one per core by default (decoding is CPU-bound).
    public var workers = ProcessInfo.processInfo.activeProcessorCount
    /// A file holding the Bearer token for flight writes; default `DATA/api-token`, generated at first start.
    public var tokenFile: String?
    /// AWS credentials (the AWS CLI's format); default `DATA/aws-credentials`, generated at first start.
    public var credentialsFile: String?
    /// Creating a job while this many wait → 503 with Retry-After.
    public var maximumQueuedJobs = 1000
    /// Synchronous recognitions waiting for a worker before new ones get 503.
    public var maximumWaitingRecognitions = 64
    /// Seconds a client is told to wait in `Retry-After` when the queue is full.
    public var retryAfterSeconds = 5
    /// How long a worker's claim on a job lasts; renewed every third of it while decoding.
    public var leaseSeconds = 60.0
    /// The longest `?wait=` a job request may hold.
    public var maximumWaitSeconds = 60.0
    /// How long SIGTERM waits for decodes in progress before the process ends (their jobs stay leased and resume).
    public var drainSeconds = 30.0
    /// How often idle workers look for queued jobs another path enqueued, and the schedule revision is polled.
    public var pollSeconds = 0.5
    /// Callback deliveries: attempts before giving up, the first retry's delay (doubling each time) and its cap.
    public var callbackAttempts = 8
    public var callbackFirstRetrySeconds = 1.0
    public var callbackMaximumRetrySeconds = 300.0
    /// Seconds a callback receiver has to answer.
    public var callbackTimeoutSeconds = 10.0
    /// The largest media a job decodes (S3 objects may be bigger than an HTTP body): larger fails the job.
    public var maximumMediaBytes = 64 * 1024 * 1024
    /// The region SigV4 credentials are scoped to; any region a client signs for is accepted if the signature holds.
    public var accountID = "flightvoice-local"
    public var recognizer = RecognizerConfiguration()
    /// Where each request's logfmt line goes (`serve`: standard error, which journald keeps); nil logs nothing.
    public var requestLog: (@Sendable (String) -> Void)?
    /// The instant answers are given for (a fixed moment in tests: FLIGHTVOICE_NOW).
    public var now: @Sendable () -> Date = { Date() }

    public init(dataFolder: String) {
        self.dataFolder = dataFolder
    }
}
