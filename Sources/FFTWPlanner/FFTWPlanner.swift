import Foundation

/// The one lock around FFTW's planner. The planner (making and destroying plans) is process-wide state and not
/// thread-safe, so every module that plans — the neural pass's log-mel (Whisper) and the audio checks' transforms
/// (Recognizer) — holds this same lock: with a lock per module, two batch workers planning at once corrupted the heap.
/// Executing a plan needs no lock.
public enum FFTWPlanner {
    private static let lock = NSLock()

    /// Runs `body`, which makes or destroys FFTW plans, while no other thread does.
    public static func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock(body)
    }
}
