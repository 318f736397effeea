import Foundation

/// The phone-loop and open-grammar passes over one utterance, on a helper thread while the main decode runs: the
/// comparisons do not depend on it, so an utterance takes as long as its longest pass rather than the sum of all three.
/// With `openGrammarOnOwner` the helper decodes only the phone loop and the owner decodes the open grammar in
/// `results()`, after its own decode: the helper's core is then free for a predicted rival (`RivalPrediction`). Each
/// pass has its own decoder, so which thread decodes it does not change what it reads.
///
/// Safety of `@unchecked Sendable`: between `start` and `finish` the passes the helper decodes and its result fields
/// are touched only by the helper thread; the owner reads them only after `finish` has waited for it.
final class ComparisonPasses: @unchecked Sendable {
    /// What the two passes found.
    struct Output {
        /// The phone loop's segments.
        let phones: [PocketSphinxDecoder.Segment]
        /// The open grammar's words ("" when it found no path).
        let openText: String
        /// The open grammar's segments (none without a path).
        let openSegments: [PocketSphinxDecoder.Segment]
    }

    private let phoneLoop: PhoneLoopPass
    private let openGrammar: OpenGrammarPass
    private let cepstra: Cepstra
    private let openGrammarOnOwner: Bool
    private let cancellation: DecodeCancellation?
    private var outcome: Result<Output, any Error>?
    private var helper: Thread?
    private let done = DispatchSemaphore(value: 0)
    private let doneForOthers = DispatchSemaphore(value: 0)
    private var finished = false
    /// CPU seconds the helper's passes took (read after `finish`).
    private(set) var cpuSeconds = 0.0
    /// CPU seconds of the phone loop and of the open grammar, wherever each ran (read after `results`).
    private(set) var phoneLoopCPUSeconds = 0.0
    private(set) var openGrammarCPUSeconds = 0.0

    /// Decodes `cepstra`, the utterance's (computed once for every pass); the open grammar on the owner's thread when
    /// `openGrammarOnOwner`; no pass starts once `cancellation` is cancelled.
    init(phoneLoop: PhoneLoopPass, openGrammar: OpenGrammarPass, cepstra: Cepstra, openGrammarOnOwner: Bool = false,
         cancellation: DecodeCancellation? = nil) {
        self.phoneLoop = phoneLoop
        self.openGrammar = openGrammar
        self.cepstra = cepstra
        self.openGrammarOnOwner = openGrammarOnOwner
        self.cancellation = cancellation
    }

    /// Starts both decodes on a helper thread, or runs them now when not `concurrently`.
    func start(concurrently: Bool) {
        guard concurrently else {
            run()
            doneForOthers.signal()
            return
        }
        let thread = Thread { [self] in
            run()
            done.signal()
            doneForOthers.signal()
        }
        helper = thread
        thread.start()
    }

    /// Waits for the helper thread, if any; safe to call more than once.
    func finish() {
        guard !finished else { return }
        finished = true
        if helper != nil { done.wait() }
    }

    /// Waits until the helper's passes are done, from any thread (the owner's `finish` stays the owner's).
    func waitUntilDone() {
        doneForOthers.wait()
        doneForOthers.signal()
    }

    /// What both passes found; waits for them (and decodes the open grammar first, with `openGrammarOnOwner`).
    func results() throws -> Output {
        let ownStarted = ThreadCPUClock.seconds()
        let ownOpen = openGrammarOnOwner ? Result { try cancellation?.check(); return try openGrammar.decode(cepstra) } : nil
        if openGrammarOnOwner { openGrammarCPUSeconds = ThreadCPUClock.seconds() - ownStarted }
        finish()
        let helpers = try outcome!.get()
        guard let ownOpen else { return helpers }
        let open = try ownOpen.get()
        return Output(phones: helpers.phones, openText: open.text, openSegments: open.segments)
    }

    private func run() {
        let cpuBefore = ThreadCPUClock.seconds()
        defer { cpuSeconds = ThreadCPUClock.seconds() - cpuBefore }
        outcome = Result {
            let phones = try phoneLoop.decode(cepstra)
            phoneLoopCPUSeconds = ThreadCPUClock.seconds() - cpuBefore
            if openGrammarOnOwner { return Output(phones: phones, openText: "", openSegments: []) }
            try cancellation?.check()
            let open = try openGrammar.decode(cepstra)
            openGrammarCPUSeconds = ThreadCPUClock.seconds() - cpuBefore - phoneLoopCPUSeconds
            return Output(phones: phones, openText: open.text, openSegments: open.segments)
        }
    }
}
