import Foundation

/// A body run on a thread of its own from its creation, its result (or error) waited for by `result()`. The thread
/// inherits the creating thread's nice value (Linux keeps it per thread), so work split off a reading keeps its priority.
///
/// Safety of `@unchecked Sendable`: the thread writes `outcome` and `threadCPUSeconds` once, before signalling; the owner
/// reads them only after waiting.
final class JoinedThread<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Value, any Error>?
    private var threadCPUSeconds = 0.0
    private var waited = false

    init(name: String, _ body: @escaping @Sendable () throws -> Value) {
        let thread = Thread { [self] in
            let started = ThreadCPUClock.seconds()
            outcome = Result { try body() }
            threadCPUSeconds = ThreadCPUClock.seconds() - started
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the body (once; later calls return at once) and returns its value or throws its error. One thread calls it.
    func result() throws -> Value {
        wait()
        return try outcome!.get()
    }

    /// CPU seconds the thread used, once it is done (waits for it).
    var cpuSeconds: Double {
        wait()
        return threadCPUSeconds
    }

    private func wait() {
        guard !waited else { return }
        waited = true
        done.wait()
    }
}
