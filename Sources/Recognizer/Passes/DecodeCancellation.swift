import Foundation

/// Stops a decode running on other threads once its result can no longer be used (the live path's background decode
/// of a candidate end, when the traveller speaks again). A pass runs to its end inside the library; the decode stops at
/// the next pass boundary, on each of its threads, and throws `DecodeCancelled`, so the two cores are free for the
/// decode that matters sooner.
///
/// Safety of `@unchecked Sendable`: the flag is read and written under the lock.
final class DecodeCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    /// Asks the decode to stop at its next pass boundary.
    func cancel() { lock.withLock { cancelled = true } }

    /// Throws `DecodeCancelled` once `cancel()` has been called.
    func check() throws {
        if lock.withLock({ cancelled }) { throw DecodeCancelled() }
    }
}

/// A decode stopped by its `DecodeCancellation`: no result.
struct DecodeCancelled: Error {}
