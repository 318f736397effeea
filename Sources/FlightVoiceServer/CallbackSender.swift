import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TranscriptionJobs

/// Delivers finished jobs to their `callbackUrl` on one thread: POSTs the job's JSON with the delivery's idempotency
/// key, retries failures with doubling back-off, and records every attempt in the store. Each send is held under a
/// lease the `LeaseKeeper` renews, so that another server resends it only once this process is gone: every callback
/// arrives at least once, and exactly once per key for a receiver that deduplicates (see `TranscriptionJobStore`).
final class CallbackSender: @unchecked Sendable {
    /// The header carrying the delivery's idempotency key, the same on every attempt.
    static let deliveryIDHeader = "FlightVoice-Delivery-Id"
    /// The header naming the job the callback is about.
    static let jobHeader = "FlightVoice-Job"

    private let store: any TranscriptionJobStore
    private let configuration: ServiceConfiguration
    private let metrics: ServiceMetrics
    private let leases: LeaseKeeper
    /// Who holds this process's sends, unique per process start.
    private let owner = "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UUID().uuidString.prefix(8)):callbacks"
    private let condition = NSCondition()
    private var stopping = false
    private let session: URLSession

    init(store: any TranscriptionJobStore, configuration: ServiceConfiguration, metrics: ServiceMetrics, leases: LeaseKeeper) {
        self.store = store
        self.configuration = configuration
        self.metrics = metrics
        self.leases = leases
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
            guard let delivery = try? store.claimDueCallback(owner: owner, leaseSeconds: configuration.leaseSeconds, now: Date()) else {
                condition.lock()
                if !stopping { _ = condition.wait(until: Date().addingTimeInterval(configuration.pollSeconds)) }
                condition.unlock()
                continue
            }
            leases.hold(.callback(delivery.id), owner: owner)
            let failure = send(delivery)
            metrics.countCallback(delivered: failure == nil)
            if let failure {
                let attempt = delivery.attempts + 1
                let delay = min(configuration.callbackMaximumRetrySeconds, configuration.callbackFirstRetrySeconds * pow(2, Double(attempt - 1)))
                let retryAt = attempt < configuration.callbackAttempts ? Date().addingTimeInterval(delay) : nil
                try? store.callbackFailed(id: delivery.id, owner: owner, error: failure, retryAt: retryAt)
            } else {
                try? store.callbackDelivered(id: delivery.id, now: Date())
            }
            leases.release(.callback(delivery.id))
        }
    }

    /// POSTs one delivery; nil when the receiver answered 2xx, else what went wrong.
    private func send(_ delivery: CallbackDelivery) -> String? {
        guard let url = URL(string: delivery.url) else { return "'\(delivery.url)' is not a URL" }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = Data(delivery.payload.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(delivery.key, forHTTPHeaderField: Self.deliveryIDHeader)
        request.setValue(delivery.jobName, forHTTPHeaderField: Self.jobHeader)
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
