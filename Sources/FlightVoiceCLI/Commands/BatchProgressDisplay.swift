import Foundation
import Presenter
import Synchronization

/// The progress bar of a batch on standard error, drawn only when standard error is a terminal.
final class BatchProgressDisplay: Sendable {
    private let total: Int
    private let console: Console
    private let started = Date()
    private let shown = Mutex(false)

    init(total: Int, console: Console) {
        self.total = total
        self.console = console
    }

    /// Seconds since the batch started.
    var elapsedSeconds: Double { Date().timeIntervalSince(started) }

    /// Redraws the bar for `done` of the total clips.
    func show(done: Int) {
        guard console.errorIsTerminal else { return }
        console.writeError("\r" + BatchProgress.progressLine(done: done, total: total, elapsedSeconds: elapsedSeconds))
        shown.withLock { $0 = true }
    }

    /// Erases the bar so a result line can be printed in its place.
    func clear() {
        guard console.errorIsTerminal, shown.withLock({ $0 }) else { return }
        console.writeError("\r\u{1B}[2K")
    }
}
