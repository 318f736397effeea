import FlightCore
import Foundation

/// The neural pass read on a thread of its own while the grammar's other passes finish (the live path), before the
/// decision says whether it wants the reading: where it does, the decision has it sooner; where it does not, it is
/// stopped. The reading depends only on the audio and the flight today's grammar heard, so it is the one the batch
/// path would take.
///
/// The thread runs below the passes' priority (`niceness`): the neural pass takes what they leave of the two cores,
/// so a decision that does not want it is not held back by it.
///
/// Whether the first flight's off-list neighbours are worth scoring depends on the decision's features, known only once
/// the other passes are in: having scored today's flights, the thread waits for the owner's word (`reading(scoringOffListWhere:)`).
///
/// Safety of `@unchecked Sendable`: the helper thread only runs `NeuralPass.read` (the owner uses the pass on no other
/// thread until `stop()` or `reading(scoringOffListWhere:)` returns) and writes `passHelperCPUSeconds` before it ends;
/// the owner reads it only after joining the thread (`JoinedThread`). The owner writes `scoresOffList` before
/// signalling `offListAsked`; the thread reads it only after waiting for that.
final class NeuralReadAhead: @unchecked Sendable {
    /// The helper thread's nice value: with the passes at 0, a share of about a third of a core while they run.
    static let niceness: Int32 = 5

    private let offListAsked = DispatchSemaphore(value: 0)
    private let cancellation = DecodeCancellation()
    private var scoresOffList: (@Sendable (DecisionFeatures.NeuralReading) -> Bool)?
    private var asked = false
    private var read: JoinedThread<DecisionFeatures.NeuralReading>!
    /// The CPU the pass spent on threads of its own (`NeuralPass.helperThreadCPUSeconds`), written by the helper thread.
    private var passHelperCPUSeconds = 0.0

    /// Starts reading `samples` with `pass` after `prompt`, with the tuned decoder too where `readsTuned` (see `NeuralPass.read`).
    init(pass: NeuralPass, samples: [Int16], grammarFlight: FlightNumber?, prompt: String, readsTuned: Bool) {
        let box = UncheckedNeuralPass(pass: pass)
        let cancellation = cancellation
        read = JoinedThread(name: "FlightVoice.neural-read-ahead") { [self] in
            // Linux's nice value is the calling thread's.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
            defer { passHelperCPUSeconds = box.pass.helperThreadCPUSeconds }
            return try box.pass.read(samples, grammarFlight: grammarFlight, prompt: prompt, readsTuned: readsTuned, cancellation: cancellation) { [self] reading in
                offListAsked.wait()
                return scoresOffList?(reading) ?? false
            }
        }
    }

    /// The reading, once the thread has it, with the off-list neighbours scored where `scoresOffList` says.
    func reading(scoringOffListWhere scoresOffList: @escaping @Sendable (DecisionFeatures.NeuralReading) -> Bool) throws -> DecisionFeatures.NeuralReading {
        if !asked {
            asked = true
            self.scoresOffList = scoresOffList
            offListAsked.signal()
        }
        return try read.result()
    }

    /// Stops the read at its next decoder step and waits until the pass is free again.
    func stop() {
        cancellation.cancel()
        offListAsked.signal()
        _ = try? read.result()
    }

    /// CPU seconds the read used, on the thread and the pass's own (after `reading()` or `stop()`).
    var cpuSeconds: Double {
        read.cpuSeconds + passHelperCPUSeconds
    }
}

/// Carries the pass to the helper thread (see `NeuralReadAhead`).
private struct UncheckedNeuralPass: @unchecked Sendable {
    let pass: NeuralPass
}
