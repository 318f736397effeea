import Foundation

// Other job-store backends (the PostgreSQL one lives in its own module) build these values; their memberwise
// initializers are internal to this module.

extension JobPage {
    /// A page of `jobs`, with the token of the next page or nil on the last.
    package static func page(jobs: [TranscriptionJob], nextToken: String?) -> JobPage {
        JobPage(jobs: jobs, nextToken: nextToken)
    }
}

extension CallbackDelivery {
    /// A delivery as a backend claimed it; `attempts` counts those made before this one.
    package static func delivery(id: Int64, jobName: String, url: String, payload: String, attempts: Int) -> CallbackDelivery {
        CallbackDelivery(id: id, jobName: jobName, url: url, payload: payload, attempts: attempts)
    }
}
