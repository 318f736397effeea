import FlightCore
import Foundation

/// The terminal card of a found flight (the `ask` command):
///
///     LX 40  Swiss  → New York JFK     departs 13:05 (on time)
///     Gate E34 · Terminal E · Boarding
public enum FlightCard {
    /// The card's lines joined by newlines, without a trailing newline.
    public static func render(_ lookup: FlightLookup, options: PresentationOptions) -> String {
        let style = TerminalStyle(enabled: options.isTerminal)
        var lines = [headline(lookup.flight, options: options, style: style), detailLine(lookup.flight, style: style)]
        if lookup.isCodeshare {
            lines.append(codeshareLine(lookup))
        }
        return lines.joined(separator: "\n")
    }

    /// "LX 40  Swiss  → New York JFK     departs 13:05 (on time)".
    static func headline(_ flight: Flight, options: PresentationOptions, style: TerminalStyle) -> String {
        "\(style.bold(flight.number.display))  \(flight.airline.name)  \(route(flight))     \(timing(flight, options: options, style: style))"
    }

    /// "→ New York JFK" for a departure, "← London LHR" for an arrival.
    static func route(_ flight: Flight) -> String {
        "\(arrow(flight.direction)) \(flight.airport.city) \(flight.airport.iata)"
    }

    /// The arrow that points away from the hub for departures and towards it for arrivals.
    static func arrow(_ direction: FlightDirection) -> String {
        direction == .departure ? "→" : "←"
    }

    /// "departs 13:05 (now 13:45)", "arrives 09:40 (expected 09:52)", "departs 13:05 (CANCELLED)".
    static func timing(_ flight: Flight, options: PresentationOptions, style: TerminalStyle) -> String {
        let verb = flight.direction == .departure ? "departs" : "arrives"
        let scheduled = "\(verb) \(HubTime.clock(flight.scheduled, relativeTo: options.now))"
        if flight.status == .cancelled {
            return "\(scheduled) (\(style.bad("CANCELLED")))"
        }
        guard let estimated = flight.estimated else { return scheduled }
        if HubTime.sameMinute(estimated, flight.scheduled) {
            return "\(scheduled) (\(style.good("on time")))"
        }
        let word = flight.direction == .departure ? "now" : "expected"
        let text = "\(word) \(HubTime.clock(estimated, relativeTo: options.now))"
        let isLate = estimated > flight.scheduled
        return "\(scheduled) (\(isLate ? style.warning(text) : text))"
    }

    /// "Gate E34 (changed from E12) · Terminal E · Boarding", "Belt 21 · Terminal 1 · Landed".
    static func detailLine(_ flight: Flight, style: TerminalStyle) -> String {
        if flight.status == .cancelled {
            return "\(style.bad(FlightStatus.cancelled.displayText)): this flight will not operate today"
        }
        var parts: [String] = []
        switch flight.direction {
        case .departure:
            parts.append(gateText(flight, style: style))
        case .arrival:
            if let belt = flight.belt { parts.append("Belt \(style.bold(belt))") }
        }
        if let terminal = flight.terminal { parts.append("Terminal \(terminal)") }
        parts.append(style.status(flight.status.displayText, tone: flight.status.tone))
        return parts.joined(separator: " · ")
    }

    /// "Gate E34", "Gate E34 (changed from E12)" or "Gate not yet assigned".
    static func gateText(_ flight: Flight, style: TerminalStyle) -> String {
        guard let gate = flight.gate else { return "Gate not yet assigned" }
        if flight.gateChanged, let previous = flight.previousGate {
            return "Gate \(style.bold(gate)) (\(style.warning("changed from \(previous)")))"
        }
        return "Gate \(style.bold(gate))"
    }

    /// "Sold as LX 3287 · operated by British Airways as BA 287".
    static func codeshareLine(_ lookup: FlightLookup) -> String {
        "Sold as \(lookup.requested.display) · operated by \(lookup.flight.airline.name) as \(lookup.flight.number.display)"
    }
}
