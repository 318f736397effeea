import CSystemd
import Foundation

/// Tells systemd how a `Type=notify` service is doing (sd_notify(3)): ready once it listens, alive at half the unit's
/// `WatchdogSec=`, stopping when it drains. Outside systemd (no `NOTIFY_SOCKET`) every call does nothing.
///
/// Thread rule: safe from any thread; the watchdog pings come from their own dispatch queue.
public final class ServiceNotifier: @unchecked Sendable {
    /// The environment variable systemd sets to the socket notifications go to.
    public static let socketVariable = "NOTIFY_SOCKET"

    /// True when a service manager listens (`NOTIFY_SOCKET` is set).
    public let isSupervised: Bool
    /// How often the watchdog is pinged: half of `WATCHDOG_USEC`, so one late ping is not yet a missed deadline; nil
    /// when the unit has no `WatchdogSec=` (or it is meant for another process, `WATCHDOG_PID`).
    public let watchdogInterval: Duration?
    private let lock = NSLock()
    private var watchdogTimer: (any DispatchSourceTimer)?

    /// A notifier for this process, as systemd started it.
    public init() {
        let socket = getenv(Self.socketVariable).map { String(cString: $0) } ?? ""
        isSupervised = !socket.isEmpty
        var microseconds: UInt64 = 0
        if isSupervised, sd_watchdog_enabled(0, &microseconds) > 0, microseconds > 0 {
            watchdogInterval = .microseconds(Int64(microseconds / 2))
        } else {
            watchdogInterval = nil
        }
    }

    /// Says the service is up (`READY=1`) with a status line `systemctl status` shows, and starts the watchdog pings.
    public func ready(status: String) {
        send("READY=1\nSTATUS=\(Self.oneLine(status))")
        startWatchdog()
    }

    /// Says the service is shutting down (`STOPPING=1`) and why; the watchdog pings stop.
    public func stopping(status: String) {
        lock.withLock {
            watchdogTimer?.cancel()
            watchdogTimer = nil
        }
        send("STOPPING=1\nSTATUS=\(Self.oneLine(status))")
    }

    /// Sends one notification (newline-separated `KEY=VALUE` assignments); false when it could not be sent or no
    /// manager listens.
    @discardableResult
    public func send(_ assignments: String) -> Bool {
        guard isSupervised else { return false }
        return sd_notify(0, assignments) > 0
    }

    private func startWatchdog() {
        guard let interval = watchdogInterval else { return }
        lock.withLock {
            guard watchdogTimer == nil else { return }
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "flightvoice.watchdog"))
            let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
            timer.schedule(deadline: .now(), repeating: .nanoseconds(nanoseconds))
            timer.setEventHandler { [weak self] in self?.send("WATCHDOG=1") }
            timer.resume()
            watchdogTimer = timer
        }
    }

    /// Status text on one line: a newline would start another assignment.
    private static func oneLine(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ")
    }

    deinit {
        watchdogTimer?.cancel()
    }
}
