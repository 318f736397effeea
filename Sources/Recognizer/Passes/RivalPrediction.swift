import FlightCore
import Foundation

/// The rival decoded ahead of need, on a helper thread, while today's grammar decodes the same utterance.
///
/// The rival pass decodes today's grammar less the flights heard, so it can only start once they are known: after the
/// main decode, which puts it on the critical path. A quick reading of the same audio with today's grammar at the
/// streaming pass's narrow beams (a fifth of the main decode's cost) predicts those flights; the rival for them is then
/// decoded at once with its own decoder. The owner uses that rival only when the main decode heard exactly the
/// predicted flights: the same grammar, the same audio and the rival's own beams give the same path as decoding it
/// afterwards, so the decision stays what the sequential passes decide (tested). Otherwise it decodes the rival as
/// before, and this one finishes unused.
///
/// The helper thread starts once the comparison passes are done, so that on two cores it never slows today's grammar
/// or the comparisons that decision waits for; the owner never waits for a prediction not yet made (on a busy
/// machine it decodes the rival itself then).
///
/// Safety of `@unchecked Sendable`: the two passes are touched only by the helper thread from `init` until `isRunning`
/// turns false (the owner reuses them only after that); `predicted` and `outcome` are written before their semaphores
/// are signalled and read only after waiting on them.
final class RivalPrediction: @unchecked Sendable {
    private let decodedSignal = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var running = true
    private var predicted: Set<FlightNumber> = []
    private var outcome: Result<RivalPath, any Error>?
    private var isPredicted = false
    private var spentSeconds = 0.0

    /// Starts predicting on a helper thread: `predictor` reads `cepstra` with `grammar`, then `rival` decodes them
    /// against `vocabulary` less the flights read (`pronunciations`: the words added to the dictionaries so far).
    /// `after` the comparison passes (their `finish`, waited for on the helper thread).
    init(predictor: GrammarPass, rival: RivalPass, grammar: FlightGrammar, vocabulary: FlightVocabulary,
         pronunciations: [String: String], cepstra: Cepstra, after comparisons: ComparisonPasses) {
        let passes = UncheckedPasses(predictor: predictor, rival: rival)
        let thread = Thread { [self] in
            comparisons.waitUntilDone()
            let cpuBefore = ThreadCPUClock.seconds()
            let flights = (try? passes.predictor.decode(cepstra)).map { grammar.flights(in: $0.text) } ?? []
            lock.withLock {
                predicted = Set(flights)
                isPredicted = true
            }
            if !flights.isEmpty {
                var added = pronunciations
                outcome = Result {
                    try passes.rival.exclude(flights, from: vocabulary, pronunciations: &added)
                    return try passes.rival.decode(cepstra)
                }
            }
            let spent = ThreadCPUClock.seconds() - cpuBefore
            lock.withLock {
                spentSeconds = spent
                running = false
            }
            decodedSignal.signal()
        }
        thread.name = "FlightVoice.rival-prediction"
        thread.start()
    }

    /// CPU seconds the helper thread spent, once it is done (0 before).
    var cpuSeconds: Double { lock.withLock { spentSeconds } }

    /// True until the helper thread is done with both passes.
    var isRunning: Bool { lock.withLock { running } }

    /// The rival path excluding `heard`, when that is what was predicted (waits for its decode); nil when the prediction
    /// is not made yet (unless `waitingForThePrediction`), was other flights, or its decode failed: the owner then
    /// decodes the rival itself.
    func path(excluding heard: [FlightNumber], waitingForThePrediction: Bool = false) -> RivalPath? {
        if waitingForThePrediction { wait() }
        let flights: Set<FlightNumber>? = lock.withLock { isPredicted ? predicted : nil }
        guard let flights, !flights.isEmpty, flights == Set(heard) else { return nil }
        decodedSignal.wait()
        decodedSignal.signal()
        return try? outcome?.get()
    }

    /// Waits until the helper thread is done.
    func wait() {
        decodedSignal.wait()
        decodedSignal.signal()
    }
}

/// Carries the passes to the helper thread (see `RivalPrediction`).
private struct UncheckedPasses: @unchecked Sendable {
    let predictor: GrammarPass
    let rival: RivalPass
}
