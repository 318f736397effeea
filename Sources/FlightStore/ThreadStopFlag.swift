import Foundation
import Synchronization

/// Set once when a stream's consumer goes away; the thread feeding the stream checks it between waits. Thread-safe.
package final class ThreadStopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    /// How finely `sleep(seconds:)` checks the flag, in seconds.
    private static let sleepSlice: TimeInterval = 0.05

    package init() {}

    package var isStopped: Bool { flag.load(ordering: .acquiring) }
    package func stop() { flag.store(true, ordering: .releasing) }

    /// Sleeps up to `seconds`, returning early once stopped.
    package func sleep(seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(seconds)
        while !isStopped, Date() < deadline { Thread.sleep(forTimeInterval: Self.sleepSlice) }
    }
}
