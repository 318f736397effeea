import FlightStore
import Foundation
import TranscriptionJobs

/// The storage a service runs on, chosen by the front end so that the HTTP layer never knows which it is: one
/// server's data folder (SQLite flights and jobs, files and S3 objects in the folder), or a database several servers
/// share.
public struct ServiceBackend: Sendable {
    /// The flights every lookup, `PUT /v1/flights` and import use.
    public var flights: any FlightDatabase
    /// The job queue.
    public var jobs: any TranscriptionJobStore
    /// Job media and transcripts; nil keeps them in the data folder.
    public var jobFiles: (any JobFileStore)?
    /// S3 buckets and objects; nil keeps them in the data folder.
    public var objects: (any ObjectStore)?
    /// Names of jobs changed by any server (nil: changes may have been missed), when other servers share the queue,
    /// so that `?wait` and event streams here hear jobs decoded elsewhere.
    public var jobChanges: (@Sendable () -> AsyncStream<String?>)?
    /// Partial hypotheses shared with the other servers of a fleet, so that an event stream here shows a job another
    /// server decodes as it is decoded; nil when this server decodes every job its clients see.
    public var partials: JobPartialsRelay?
    /// True when other live servers use the same queue: leases at start are requeued only once expired, since their
    /// holders may be alive, and job files must be shared.
    public var sharedByServers: Bool

    public init(flights: any FlightDatabase, jobs: any TranscriptionJobStore, jobFiles: (any JobFileStore)? = nil, objects: (any ObjectStore)? = nil,
                jobChanges: (@Sendable () -> AsyncStream<String?>)? = nil, partials: JobPartialsRelay? = nil, sharedByServers: Bool = false) {
        self.flights = flights
        self.jobs = jobs
        self.jobFiles = jobFiles
        self.objects = objects
        self.jobChanges = jobChanges
        self.partials = partials
        self.sharedByServers = sharedByServers
    }

    /// One server's own storage under `folder`: `flights.sqlite`, `jobs.sqlite`, files in the folder.
    public static func dataFolder(_ folder: DataFolder, jobStore: (any TranscriptionJobStore)? = nil) throws -> ServiceBackend {
        ServiceBackend(flights: try FlightStore(path: folder.flightsDatabase), jobs: try jobStore ?? SQLiteJobStore(path: folder.jobsDatabase))
    }
}

/// How partial hypotheses travel between servers: `announce` tells the others of one heard here (returning at once,
/// best effort), `othersPartials` streams those the others heard (nil elements are to be skipped).
public struct JobPartialsRelay: Sendable {
    public var announce: @Sendable (_ job: String, _ transcript: String) -> Void
    public var othersPartials: @Sendable () -> AsyncStream<(job: String, transcript: String)?>

    public init(announce: @escaping @Sendable (_ job: String, _ transcript: String) -> Void,
                othersPartials: @escaping @Sendable () -> AsyncStream<(job: String, transcript: String)?>) {
        self.announce = announce
        self.othersPartials = othersPartials
    }
}

extension DataFolder: JobFileStore {
    /// No limit of its own: the request body limit and `maximumMediaBytes` apply.
    public var maximumFileBytes: Int { Int.max }

    public func read(_ path: String) throws -> Data? { FileManager.default.contents(atPath: absolute(path)) }

    public func remove(_ path: String) throws {
        let file = absolute(path)
        guard FileManager.default.fileExists(atPath: file) else { return }
        try FileManager.default.removeItem(atPath: file)
    }
}
