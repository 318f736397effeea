import Foundation

/// What one whole-utterance decode cost, thread by thread: what the live path's latency is made of, measured in CPU
/// seconds so that it can be read on a busy machine.
struct DecodeCost: Sendable {
    /// CPU seconds of the thread that decoded: today's grammar, the decision, the open grammar when the rival is
    /// predicted (`ComparisonPasses.openGrammarOnOwner`), and the rival when decoded there.
    var mainCPUSeconds: Double
    /// CPU seconds of the comparison passes on their own thread: the phone loop, and the open grammar unless the rival
    /// is predicted (0 when not measured).
    var comparisonsCPUSeconds: Double
    /// CPU seconds of the rival prediction's thread, when its rival was used (see `RivalPrediction`), else nil.
    var predictionCPUSeconds: Double?
    /// CPU seconds of each step, wherever it ran: what balancing the passes over the two cores has to go by.
    var steps = DecodeSteps()

    /// True when the rival used was started once today's grammar was done (`rivalBesideComparisons`), not predicted.
    var predictionFollowedTodaysGrammar = false

    /// Seconds the decode takes on two idle cores: the longest of the threads' chains (a predicted rival starts when
    /// the helper's comparison passes end, one started beside them when today's grammar ends, and so does a neural
    /// pass read ahead, which counts where the decision used it).
    var idleCoresSeconds: Double {
        let neuralAhead = steps.neuralAhead && !steps.neuralUnused ? steps.cepstra + steps.todaysGrammar + steps.neural : 0
        return max(passesIdleCoresSeconds, neuralAhead)
    }

    private var passesIdleCoresSeconds: Double {
        guard let prediction = predictionCPUSeconds else { return max(mainCPUSeconds, comparisonsCPUSeconds) }
        guard predictionFollowedTodaysGrammar else { return max(mainCPUSeconds, comparisonsCPUSeconds + prediction) }
        return max(mainCPUSeconds, comparisonsCPUSeconds, steps.cepstra + steps.todaysGrammar + prediction)
    }
}

/// CPU seconds of each step of one whole-utterance decode (0 for a step that did not run).
public struct DecodeSteps: Sendable, Hashable {
    /// Computing the cepstra every pass decodes (the owner's thread, before the passes start).
    public var cepstra = 0.0
    public var todaysGrammar = 0.0
    public var phoneLoop = 0.0
    public var openGrammar = 0.0
    /// The rival, decoded after today's grammar or alongside it (`RivalPrediction`).
    public var rival = 0.0
    /// True when the rival was the one decoded alongside.
    public var rivalAlongside = false
    /// A second acoustic model's whole decode (`RecognizerConfiguration.crossCheckModel`), all its threads.
    public var crossCheck = 0.0
    /// The neural model's pass (`NeuralPass`): encoder, free decode and today's candidates scored.
    public var neural = 0.0
    /// True when the neural pass ran beside the comparisons, before the decision said whether it wants it (the live
    /// path: `FlightRecognizer.decodeSnapshot`'s `neuralBesideComparisons`).
    public var neuralAhead = false
    /// True when it ran ahead and the decision did not want it.
    public var neuralUnused = false

    public init() {}
}

/// The calling thread's CPU time.
enum ThreadCPUClock {
    /// CPU seconds the calling thread has used (user and system).
    static func seconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
