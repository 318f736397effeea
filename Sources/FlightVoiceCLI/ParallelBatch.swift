import Dispatch
import Synchronization

/// Runs a batch on several threads, each with its own worker (e.g. a decoder, which must never be shared), and
/// hands results back in input order as soon as each is ready.
enum ParallelBatch {
    /// Processes `inputs` with `workerCount` threads.
    /// - `makeWorker` runs once on each thread; the closure it returns is used on that thread only.
    /// - `deliver` is called serially, in input order, once per input.
    /// - Throws the first error of `makeWorker` (after the batch stops handing out work): without workers there is no batch.
    static func run<Input: Sendable, Output: Sendable>(
        _ inputs: [Input],
        workerCount: Int,
        makeWorker: @escaping @Sendable () throws -> (Input) -> Output,
        deliver: @escaping @Sendable (_ index: Int, _ output: Output) -> Void
    ) throws {
        let state = Mutex(BatchState<Output>())
        let threads = max(1, min(workerCount, inputs.count))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let process: (Input) -> Output
            do {
                process = try makeWorker()
            } catch {
                state.withLock { state in
                    if state.workerFailure == nil { state.workerFailure = error }
                }
                return
            }
            while let index = state.withLock({ $0.claimNext(count: inputs.count) }) {
                let output = process(inputs[index])
                // Delivery happens under the lock so that outputs leave strictly in order, one at a time.
                state.withLock { state in
                    state.finished[index] = output
                    while let ready = state.finished.removeValue(forKey: state.nextToDeliver) {
                        deliver(state.nextToDeliver, ready)
                        state.nextToDeliver += 1
                    }
                }
            }
        }
        if let failure = state.withLock({ $0.workerFailure }) { throw failure }
    }
}

private struct BatchState<Output> {
    var nextToClaim = 0
    var nextToDeliver = 0
    var finished: [Int: Output] = [:]
    var workerFailure: (any Error)?

    mutating func claimNext(count: Int) -> Int? {
        guard workerFailure == nil, nextToClaim < count else { return nil }
        defer { nextToClaim += 1 }
        return nextToClaim
    }
}
