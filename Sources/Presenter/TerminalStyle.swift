import FlightCore

/// ANSI styling that is applied only when the output is a terminal; otherwise text passes through unchanged.
struct TerminalStyle {
    /// Whether escape sequences are written.
    let enabled: Bool

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { wrap(text, "1") }
    /// Good news: on time, boarding, landed.
    func good(_ text: String) -> String { wrap(text, "32") }
    /// Needs attention: delayed, final call, a changed gate.
    func warning(_ text: String) -> String { wrap(text, "33") }
    /// Bad news: cancelled, diverted.
    func bad(_ text: String) -> String { wrap(text, "1;31") }
    /// Secondary information.
    func dim(_ text: String) -> String { wrap(text, "2") }
}

extension FlightStatus {
    /// How urgent the status is for a traveller, which picks its colour on a terminal.
    var tone: StatusTone {
        switch self {
        case .onTime, .checkInOpen, .boarding, .departed, .landed, .arrived: .good
        case .delayed, .finalCall, .gateClosed: .warning
        case .cancelled, .diverted: .bad
        case .scheduled, .expected: .neutral
        }
    }
}

/// The colour family of a status.
enum StatusTone {
    case good, warning, bad, neutral
}

extension TerminalStyle {
    /// The status words in the colour of their tone.
    func status(_ text: String, tone: StatusTone) -> String {
        switch tone {
        case .good: good(text)
        case .warning: warning(text)
        case .bad: bad(text)
        case .neutral: text
        }
    }
}
