import FlightCore
import Recognizer

/// Answers many clips at once for `recognize` and `eval`: one recognizer per worker, a progress bar on a terminal.
enum ClipBatch {
    /// Answers `inputs` with `jobs` workers; `deliver` gets each report in input order with the progress bar cleared.
    /// Returns the wall-clock seconds the batch took.
    static func run<Input: Sendable>(
        _ inputs: [Input], jobs: Int, answerer: SpokenQueryAnswerer, console: Console,
        answer: @escaping @Sendable (Input, FlightRecognizer) -> ClipReport,
        deliver: @escaping @Sendable (_ index: Int, _ report: ClipReport) -> Void
    ) throws -> Double {
        let progress = BatchProgressDisplay(total: inputs.count, console: console)
        try ParallelBatch.run(inputs, workerCount: jobs, makeWorker: {
            let recognizer = try answerer.makeRecognizer()
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
