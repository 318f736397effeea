import Foundation

/// What a command runs with: where it writes, the environment, its effective settings, and the time it answers for.
struct CommandContext: Sendable {
    let console: Console
    let environment: [String: String]
    /// Every setting with where it came from (flag, settings file, environment, default).
    let settings: EffectiveSettings
    /// The instant "today" and "nearest flight" are judged against: now, or `FLIGHTVOICE_NOW` (ISO 8601) to replay a moment.
    let now: Date

    init(console: Console, environment: [String: String], settings: EffectiveSettings) throws(UsageError) {
        self.console = console
        self.environment = environment
        self.settings = settings
        if let replayed = environment["FLIGHTVOICE_NOW"], !replayed.isEmpty {
            guard let date = ISO8601DateFormatter().date(from: replayed) else {
                throw UsageError(message: "FLIGHTVOICE_NOW must be an ISO 8601 time such as 2026-11-30T12:00:00+01:00, not '\(replayed)'")
            }
            now = date
        } else {
            now = Date()
        }
    }
}
