import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TranscriptionJobs

/// Delivers finished jobs to their `callbackUrl` on one thread: POSTs the job's JSON, retries failures with doubling
/// back-off, and records every attempt in the store, which makes each delivery at most once successful (see
/// `TranscriptionJobStore`).
final class CallbackSender: @unchecked Sendable {
    private let store: any TranscriptionJobStore
    private let configuration: ServiceConfiguration
    private let metrics: ServiceMetrics
    private let condition = NSCondition()
    private var stopping = false
    private let session: URLSession

    init(store: any TranscriptionJobStore, configuration: ServiceConfiguration, metrics: ServiceMetrics) {
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.callbackTimeoutSeconds
        sessionConfiguration.timeoutIntervalForResource = configuration.callbackTimeoutSeconds
        session = URLSession(configuration: sessionConfiguration)
    }

    /// Starts the delivery thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "FlightVoice.callbacks"
        thread.start()
    }

    /// Wakes the thread: a delivery may be due now.
    func wake() {
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    /// Ends the thread after the delivery in progress.
    func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            if stopping {
                condition.unlock()
                return
            }
            condition.unlock()
            guard let delivery = try? store.claimDueCallback(now: Date()) else {
                condition.lock()
                if !stopping { _ = condition.wait(until: Date().addingTimeInterval(configuration.pollSeconds)) }
                condition.unlock()
                continue
            }
            let failure = send(delivery)
            metrics.countCallback(delivered: failure == nil)
            if let failure {
                let attempt = delivery.attempts + 1
                let delay = min(configuration.callbackMaximumRetrySeconds, configuration.callbackFirstRetrySeconds * pow(2, Double(attempt - 1)))
                let retryAt = attempt < configuration.callbackAttempts ? Date().addingTimeInterval(delay) : nil
                try? store.callbackFailed(id: delivery.id, error: failure, retryAt: retryAt)
            } else {
                try? store.callbackDelivered(id: delivery.id, now: Date())
            }
        }
    }

    /// POSTs one delivery; nil when the receiver answered 2xx, else what went wrong.
    private func send(_ delivery: CallbackDelivery) -> String? {
        guard let url = URL(string: delivery.url) else { return "'\(delivery.url)' is not a URL" }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(delivery.payload.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(String(delivery.id), forHTTPHeaderField: "X-FlightVoice-Delivery")
        request.setValue(delivery.jobName, forHTTPHeaderField: "X-FlightVoice-Job")
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: String? = "no answer"
        session.dataTask(with: request) { _, response, error in
            if let error {
                outcome = error.localizedDescription
            } else if let status = (response as? HTTPURLResponse)?.statusCode {
                outcome = (200..<300).contains(status) ? nil : "the receiver answered \(status)"
            }
            done.signal()
        }.resume()
        done.wait()
        return outcome
    }
}
