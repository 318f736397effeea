import FlightCore
import Foundation

/// The terminal text of any query answer (the `ask` command): the card when found, otherwise what went wrong
/// and what to do next.
public enum AnswerText {
    /// The text for `answer`, lines joined by newlines, without a trailing newline.
    public static func render(_ answer: QueryAnswer, options: PresentationOptions) -> String {
        switch answer.status {
        case .found:
            if let lookup = answer.lookup { return FlightCard.render(lookup, options: options) }
            return notFound(answer, options: options)
        case .notFound:
            return notFound(answer, options: options)
        case .notUnderstood:
            return notUnderstood(answer, options: options)
        case .noSpeech:
            return "No speech was heard.\n\(tryLine(options))"
        case .error:
            return "Error: \(answer.message ?? "the query could not be processed")"
        }
    }

    /// `Not understood: <reason>.` then the "Try: …" hint, and suggestions when there are any.
    public static func notUnderstood(_ answer: QueryAnswer, options: PresentationOptions) -> String {
        let reason = answer.message ?? "that does not sound like a flight number"
        var lines = ["Not understood: \(sentence(reason))"]
        if let suggestions = didYouMean(answer.suggestions, options: options) { lines.append(suggestions) }
        lines.append(tryLine(options))
        return lines.joined(separator: "\n")
    }

    /// `No flight LX 41 today.` then `Did you mean: LX 40 (→ New York, 13:05), …?` when there are suggestions.
    public static func notFound(_ answer: QueryAnswer, options: PresentationOptions) -> String {
        let asked = answer.flightNumber?.display ?? "\"\(answer.heard)\""
        var lines = ["No flight \(asked) today."]
        if let suggestions = didYouMean(answer.suggestions, options: options) { lines.append(suggestions) }
        return lines.joined(separator: "\n")
    }

    /// `Try: "L X forty", "Swiss forty" or "lima x-ray four zero"`.
    static func tryLine(_ options: PresentationOptions) -> String {
        "Try: \(listed(options.example.phrases.map { "\"\($0)\"" }, conjunction: "or"))"
    }

    /// `Did you mean: LX 40 (→ New York, 13:05), LX 42 (→ Paris, 14:10)?`, or nil without suggestions.
    static func didYouMean(_ suggestions: [FlightLookup], options: PresentationOptions) -> String? {
        let shown = suggestions.prefix(max(0, options.maximumSuggestions))
        guard !shown.isEmpty else { return nil }
        let items = shown.map { lookup in
            let flight = lookup.flight
            let time = HubTime.clock(flight.scheduled, relativeTo: options.now)
            return "\(lookup.requested.display) (\(FlightCard.arrow(flight.direction)) \(flight.airport.city), \(time))"
        }
        return "Did you mean: \(items.joined(separator: ", "))?"
    }

    /// "a", "a or b", "a, b or c".
    static func listed(_ items: [String], conjunction: String) -> String {
        guard items.count > 1, let last = items.last else { return items.first ?? "" }
        return "\(items.dropLast().joined(separator: ", ")) \(conjunction) \(last)"
    }

    /// The text ending in a full stop (unless it already ends a sentence).
    static func sentence(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let last = trimmed.last else { return trimmed }
        return ".!?".contains(last) ? trimmed : trimmed + "."
    }
}
