import Foundation
import Synchronization
import TranscriptionJobs

/// Counters for `GET /metrics` (Prometheus text format 0.0.4). Thread-safe.
final class ServiceMetrics: Sendable {
    private struct Counters {
        var requests: [String: Int] = [:]
        var decodeSeconds = 0.0
        var audioSeconds = 0.0
        var decodes = 0
        var callbacksDelivered = 0
        var callbacksFailedAttempts = 0
    }

    private let counters = Mutex(Counters())

    /// Counts one answered request of `route` (the route's pattern, so names do not explode the label set).
    func countRequest(method: String, route: String, status: Int) {
        counters.withLock { $0.requests["method=\"\(method)\",route=\"\(route)\",status=\"\(status)\"", default: 0] += 1 }
    }

    /// Adds one decode: CPU-bound seconds spent and seconds of audio decoded.
    func countDecode(seconds: Double, audioSeconds: Double) {
        counters.withLock {
            $0.decodeSeconds += seconds
            $0.audioSeconds += audioSeconds
            $0.decodes += 1
        }
    }

    /// Counts a callback attempt's result.
    func countCallback(delivered: Bool) {
        counters.withLock { delivered ? ($0.callbacksDelivered += 1) : ($0.callbacksFailedAttempts += 1) }
    }

    /// The metrics page; `jobs` and `queueDepth` are read from the store and the worker pool at scrape time.
    func render(jobs: [JobStatus: Int], waitingRecognitions: Int, workers: Int) -> String {
        let snapshot = counters.withLock { $0 }
        var lines: [String] = []
        lines.append("# HELP flightvoice_http_requests_total HTTP requests answered, by method, route and status.")
        lines.append("# TYPE flightvoice_http_requests_total counter")
        for (labels, count) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
            lines.append("flightvoice_http_requests_total{\(labels)} \(count)")
        }
        lines.append("# HELP flightvoice_jobs Transcription jobs in the store, by status.")
        lines.append("# TYPE flightvoice_jobs gauge")
        for status in JobStatus.allCases { lines.append("flightvoice_jobs{status=\"\(status.rawValue)\"} \(jobs[status] ?? 0)") }
        lines.append("# HELP flightvoice_queue_depth Jobs waiting for a worker plus synchronous recognitions waiting.")
        lines.append("# TYPE flightvoice_queue_depth gauge")
        lines.append("flightvoice_queue_depth \((jobs[.queued] ?? 0) + waitingRecognitions)")
        lines.append("# HELP flightvoice_workers Recognition workers.")
        lines.append("# TYPE flightvoice_workers gauge")
        lines.append("flightvoice_workers \(workers)")
        lines.append("# HELP flightvoice_decode_seconds_total Seconds spent decoding audio.")
        lines.append("# TYPE flightvoice_decode_seconds_total counter")
        lines.append("flightvoice_decode_seconds_total \(snapshot.decodeSeconds)")
        lines.append("# HELP flightvoice_audio_seconds_total Seconds of audio decoded.")
        lines.append("# TYPE flightvoice_audio_seconds_total counter")
        lines.append("flightvoice_audio_seconds_total \(snapshot.audioSeconds)")
        lines.append("# HELP flightvoice_decodes_total Clips decoded (jobs and synchronous recognitions).")
        lines.append("# TYPE flightvoice_decodes_total counter")
        lines.append("flightvoice_decodes_total \(snapshot.decodes)")
        lines.append("# HELP flightvoice_callbacks_total Callback attempts, by result.")
        lines.append("# TYPE flightvoice_callbacks_total counter")
        lines.append("flightvoice_callbacks_total{result=\"delivered\"} \(snapshot.callbacksDelivered)")
        lines.append("flightvoice_callbacks_total{result=\"failed\"} \(snapshot.callbacksFailedAttempts)")
        return lines.joined(separator: "\n") + "\n"
    }
}
