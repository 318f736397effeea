import FlightCore
import Foundation

/// The rival decoded ahead of need, on the second core, while today's grammar decodes the same utterance.
///
/// The rival pass decodes today's grammar less the flights heard, so it can only start once they are known: after the
/// main decode, which puts it on the critical path (today's grammar and the rival cost about the same at the default
/// beams, and together more than the phone loop and the open grammar). The live path already has a guess of those
/// flights for free: the streaming pass's hypothesis of the same words. The rival for them is decoded on the second
/// core once the phone loop is done, while the first decodes today's grammar and then the open grammar
/// (`ComparisonPasses.openGrammarOnOwner`), so the two cores carry about the same work; and its search is compiled
/// while the traveller still speaks (`prepare`), the moment the hypothesis names a flight, so that only its decode is
/// left. The owner uses that rival only when the main decode heard exactly the predicted flights: the same grammar,
/// the same audio and the rival's own beams give the same path as decoding it afterwards (a search reused from
/// `RivalPass`'s cache decodes as a new one), so the decision stays what the sequential passes decide (tested).
/// Otherwise it decodes the rival as before, and this one finishes unused.
///
/// Safety of `@unchecked Sendable`: the rival pass is touched only by work items of one serial queue; `latestPrepared`
/// is guarded by the lock.
final class RivalPredictor: @unchecked Sendable {
    private let rival: RivalPass
    private let queue = DispatchQueue(label: "FlightVoice.rival-prediction")
    private let lock = NSLock()
    private var latestPrepared: Set<FlightNumber> = []

    /// Owns `rival`.
    init(rival: RivalPass) {
        self.rival = rival
    }

    /// Compiles the rival search of `today` less `flights` in the background, unless it is the last one asked for;
    /// skipped when another is asked for before it starts (the hypothesis moved on).
    func prepare(excluding flights: [FlightNumber], from today: FlightGrammar, pronunciations: [String: String]) {
        let wanted = Set(flights)
        guard !wanted.isEmpty, lock.withLock({ () -> Bool in
            guard latestPrepared != wanted else { return false }
            latestPrepared = wanted
            return true
        }) else { return }
        let box = UncheckedSelf(predictor: self)
        queue.async {
            let predictor = box.predictor
            guard predictor.lock.withLock({ predictor.latestPrepared == wanted }) else { return }
            var added = pronunciations
            try? predictor.rival.exclude(flights, from: today, pronunciations: &added)
        }
    }

    /// Starts decoding `cepstra` against `today` less `predicted` (not empty), once `comparisons` (if any) has done its
    /// helper's work and any search being prepared is compiled, unless `cancellation` is cancelled by then.
    func start(predicted: [FlightNumber], from today: FlightGrammar, pronunciations: [String: String], cepstra: Cepstra,
               after comparisons: ComparisonPasses?, cancellation: DecodeCancellation? = nil) -> RivalPrediction {
        let prediction = RivalPrediction(predicted: Set(predicted))
        let box = UncheckedSelf(predictor: self)
        lock.withLock { latestPrepared = Set(predicted) }
        queue.async {
            comparisons?.waitUntilDone()
            let cpuBefore = ThreadCPUClock.seconds()
            var added = pronunciations
            let outcome = Result {
                try cancellation?.check()
                try box.predictor.rival.exclude(predicted, from: today, pronunciations: &added)
                return try box.predictor.rival.decode(cepstra)
            }
            prediction.finish(outcome, cpuSeconds: ThreadCPUClock.seconds() - cpuBefore)
        }
        return prediction
    }

    /// Adds `today`'s words and frame to the rival's decoder in the background (`RivalPass.prepare(for:)`).
    func prepare(for today: FlightGrammar, pronunciations: [String: String]) {
        let box = UncheckedSelf(predictor: self)
        queue.async {
            var added = pronunciations
            try? box.predictor.rival.prepare(for: today, pronunciations: &added)
        }
    }

    /// Waits until every item queued so far is done (before a new grammar is loaded).
    func waitUntilIdle() { queue.sync {} }
}

/// One rival decoded alongside (see `RivalPredictor`).
///
/// Safety of `@unchecked Sendable`: `outcome` and `spentSeconds` are written under the lock before the semaphore is
/// signalled, and read under the lock.
final class RivalPrediction: @unchecked Sendable {
    /// The flights whose rival is decoded.
    let predicted: Set<FlightNumber>
    private let decodedSignal = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var running = true
    private var outcome: Result<RivalPath, any Error>?
    private var spentSeconds = 0.0

    init(predicted: Set<FlightNumber>) {
        self.predicted = predicted
    }

    fileprivate func finish(_ outcome: Result<RivalPath, any Error>, cpuSeconds: Double) {
        lock.withLock {
            self.outcome = outcome
            spentSeconds = cpuSeconds
            running = false
        }
        decodedSignal.signal()
    }

    /// CPU seconds its decode took, once it is done (0 before).
    var cpuSeconds: Double { lock.withLock { spentSeconds } }

    /// True until its decode is done.
    var isRunning: Bool { lock.withLock { running } }

    /// The rival path excluding `heard`, when that is what was predicted (waits for its decode); nil when the
    /// prediction was other flights or its decode failed: the owner then decodes the rival itself.
    func path(excluding heard: [FlightNumber]) -> RivalPath? {
        guard predicted == Set(heard) else { return nil }
        wait()
        return lock.withLock { try? outcome?.get() }
    }

    /// Waits until its decode is done.
    func wait() {
        decodedSignal.wait()
        decodedSignal.signal()
    }
}

/// Carries the predictor to its queue's work items (see `RivalPredictor`).
private struct UncheckedSelf: @unchecked Sendable {
    let predictor: RivalPredictor
}
