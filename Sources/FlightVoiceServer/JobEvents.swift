import Foundation
import Presenter
import TranscriptionJobs

/// One Server-Sent Event: `event: NAME` and one line of JSON data.
struct ServerSentEvent: Sendable, Equatable {
    let name: String
    let data: String

    /// The event as it goes on the wire.
    var wireFormat: String { "event: \(name)\ndata: \(data)\n\n" }
}

/// What happened to jobs in this process, for `?wait=` and the events stream: a change counter every waiter can block
/// on, and each job's events since this process started (status changes, partial hypotheses, the final event).
///
/// Thread safety: all state behind one `NSCondition`; waiters block on it (they run on connection threads).
final class JobEventHub: @unchecked Sendable {
    private struct Log {
        var events: [ServerSentEvent] = []
        var closed = false
        /// The last status published, so that the same change heard twice (from this process and from the
        /// database's announcement) is shown once.
        var status: JobStatus?
    }

    private let condition = NSCondition()
    private var generation = 0
    private var logs: [String: Log] = [:]
    private var closedOrder: [String] = []
    /// Set when the server drains: every wait returns at once.
    private var interrupted = false
    /// Finished jobs whose events are kept for late subscribers; older ones are dropped (the store still has the job).
    private let retainedClosedLogs = 1000

    /// Appends a `status` event to job `name`'s log unless that status is the last one it shows.
    func publishStatus(_ name: String, _ status: JobStatus) {
        condition.lock()
        defer { condition.unlock() }
        guard logs[name]?.status != status, logs[name]?.closed != true else { return }
        logs[name, default: Log()].status = status
        let event = ServerSentEvent(name: "status", data: JSONValue.object(["name": .string(name), "status": .string(status.rawValue)]).serialized())
        append(event, to: name, closes: false)
    }

    /// Appends `event` to job `name`'s log; `closes` marks it as the last one. Wakes every waiter. A closed log
    /// takes nothing more (a job's end may be heard both from its worker and from the database).
    func publish(_ name: String, _ event: ServerSentEvent, closes: Bool = false) {
        condition.lock()
        defer { condition.unlock() }
        guard logs[name]?.closed != true else { return }
        append(event, to: name, closes: closes)
    }

    /// Wakes every waiter without a new event: something changed that only the store knows (another server's job).
    func touch() {
        condition.lock()
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Appends under the lock the caller holds.
    private func append(_ event: ServerSentEvent, to name: String, closes: Bool) {
        logs[name, default: Log()].events.append(event)
        if closes {
            logs[name]?.closed = true
            closedOrder.append(name)
            if closedOrder.count > retainedClosedLogs { logs[closedOrder.removeFirst()] = nil }
        }
        generation += 1
        condition.broadcast()
    }

    /// Forgets job `name` (deleted) and wakes waiters.
    func forget(_ name: String) {
        condition.lock()
        logs[name] = nil
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes every waiter (the server is draining: long polls and event streams end).
    func interruptAll() {
        condition.lock()
        interrupted = true
        generation += 1
        condition.broadcast()
        condition.unlock()
    }

    /// The current change counter; pass it to `waitForChange`.
    var currentGeneration: Int {
        condition.lock()
        defer { condition.unlock() }
        return generation
    }

    /// Blocks until something changed after `seen` or `deadline` passes.
    func waitForChange(after seen: Int, until deadline: Date) {
        condition.lock()
        while generation == seen && Date() < deadline && !interrupted { _ = condition.wait(until: deadline) }
        condition.unlock()
    }

    /// Job `name`'s events from `index` on, blocking until there is one, its log closed, or `deadline` passed.
    /// `known` is false when this process has no log for the job (it finished before a restart, or not started).
    func events(for name: String, from index: Int, until deadline: Date) -> (events: [ServerSentEvent], closed: Bool, known: Bool) {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let log = logs[name], log.events.count > index || log.closed {
                return (Array(log.events.dropFirst(index)), log.closed, true)
            }
            if Date() >= deadline || interrupted { return ([], false, logs[name] != nil) }
            _ = condition.wait(until: deadline)
        }
    }
}
