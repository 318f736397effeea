import FlightCore
import Recognizer

/// Answers many clips at once for `recognize` and `eval`: one recognizer per worker, a progress bar on a terminal.
enum ClipBatch {
    /// Answers `inputs` with `jobs` workers; `deliver` gets each report in input order with the progress bar cleared.
    /// `live`: each worker hears its clips as a kiosk would, decoding on two threads whatever the other workers do
    /// (else as `SpokenQueryAnswerer.makeRecognizer(amongWorkers:)` decides). Returns the wall-clock seconds the batch took.
    static func run<Input: Sendable>(
        _ inputs: [Input], jobs: Int, answerer: SpokenQueryAnswerer, console: Console, live: Bool = false,
        answer: @escaping @Sendable (Input, FlightRecognizer) -> ClipReport,
        deliver: @escaping @Sendable (_ index: Int, _ report: ClipReport) -> Void
    ) throws -> Double {
        let progress = BatchProgressDisplay(total: inputs.count, console: console)
        let workers = live ? 1 : min(jobs, inputs.count)
        try ParallelBatch.run(inputs, workerCount: jobs, makeWorker: {
            let recognizer = try answerer.makeRecognizer(amongWorkers: workers)
            return { input in answer(input, recognizer) }
        }, deliver: { index, report in
            progress.clear()
            deliver(index, report)
            progress.show(done: index + 1)
        })
        progress.clear()
        return progress.elapsedSeconds
    }
}
