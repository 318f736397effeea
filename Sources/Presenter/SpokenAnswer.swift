import FlightCore
import Foundation

/// Sentences for text-to-speech (`--say`): codes spelled letter by letter ("L X 40"), gates split ("E 34"),
/// times as 24-hour "13:05" in the hub's time zone.
public enum SpokenAnswer {
    /// The sentence(s) answering `answer`.
    public static func sentence(for answer: QueryAnswer, options: PresentationOptions) -> String {
        let example = spelled(options.example.flight)
        switch answer.status {
        case .found:
            if let lookup = answer.lookup { return sentence(for: lookup, options: options) }
            return notFound(answer, options: options)
        case .notFound:
            return notFound(answer, options: options)
        case .notUnderstood:
            return "Sorry, I did not understand. Please say the flight number again, for example \(example)."
        case .noSpeech:
            return "Sorry, I did not hear anything. Please say the flight number, for example \(example)."
        case .error:
            return "Sorry, something went wrong. Please try again."
        }
    }

    /// "Swiss flight L X 40 to New York departs at 13:05 from gate E 34. It is boarding."
    public static func sentence(for lookup: FlightLookup, options: PresentationOptions) -> String {
        let flight = lookup.flight
        let subject = subject(lookup)
        let time = HubTime.spokenTime(flight.estimated ?? flight.scheduled, relativeTo: options.now)
        var sentences: [String]
        switch (flight.status, flight.direction) {
        case (.cancelled, _):
            sentences = ["\(subject) is cancelled."]
        case (.diverted, _):
            sentences = ["\(subject) has been diverted."]
        case (_, .departure):
            sentences = departure(flight, subject: subject, time: time)
        case (_, .arrival):
            sentences = arrival(flight, subject: subject, time: time)
        }
        if flight.gateChanged, let gate = flight.gate, ![.cancelled, .departed].contains(flight.status) {
            sentences.append("Please note the gate has changed to \(spelledGate(gate)).")
        }
        return sentences.joined(separator: " ")
    }

    private static func departure(_ flight: Flight, subject: String, time: String) -> [String] {
        let fromGate = flight.gate.map { " from gate \(spelledGate($0))" } ?? ""
        let gateUnknown = flight.gate == nil ? ["The gate is not yet assigned."] : []
        switch flight.status {
        case .departed:
            return ["\(subject) departed \(time)."]
        case .delayed:
            let gate = flight.gate.map { ["It departs from gate \(spelledGate($0))."] } ?? gateUnknown
            return ["\(subject) is delayed, now expected \(time)."] + gate
        case .scheduled, .onTime, .checkInOpen, .boarding, .finalCall, .gateClosed, .expected, .landed, .arrived, .cancelled, .diverted:
            let status: [String] = switch flight.status {
            case .onTime: ["It is on time."]
            case .checkInOpen: ["Check-in is open."]
            case .boarding: ["It is boarding."]
            case .finalCall: ["This is the final call."]
            case .gateClosed: ["The gate is closed."]
            default: []
            }
            return ["\(subject) departs \(time)\(fromGate)."] + gateUnknown + status
        }
    }

    private static func arrival(_ flight: Flight, subject: String, time: String) -> [String] {
        switch flight.status {
        case .landed:
            return ["\(subject) landed \(time)."] + (flight.belt.map { ["Baggage will be on belt \($0)."] } ?? [])
        case .arrived:
            return ["\(subject) arrived \(time)."] + (flight.belt.map { ["Baggage is on belt \($0)."] } ?? [])
        case .delayed:
            return ["\(subject) is delayed, now expected \(time)."]
        case .onTime:
            return ["\(subject) is on time, arriving \(time)."]
        case .scheduled:
            return ["\(subject) is scheduled to arrive \(time)."]
        case .expected, .checkInOpen, .boarding, .finalCall, .gateClosed, .departed, .cancelled, .diverted:
            return ["\(subject) is expected \(time)."]
        }
    }

    /// "I could not find L X 41 today. Did you mean L X 40 to New York?"
    static func notFound(_ answer: QueryAnswer, options: PresentationOptions) -> String {
        let asked = answer.flightNumber.map(spelled) ?? answer.heard
        let suggestions = answer.suggestions.prefix(max(0, options.maximumSuggestions)).map { lookup in
            let flight = lookup.flight
            let preposition = flight.direction == .departure ? "to" : "from"
            return "\(spelled(lookup.requested)) \(preposition) \(flight.airport.city)"
        }
        let first = "I could not find \(asked) today."
        guard !suggestions.isEmpty else { return "\(first) Please check the flight number and try again." }
        return "\(first) Did you mean \(spokenList(Array(suggestions)))?"
    }

    /// "Swiss flight L X 40 to New York", or for a codeshare
    /// "Flight L X 3287, operated by British Airways as B A 287, from London".
    static func subject(_ lookup: FlightLookup) -> String {
        let flight = lookup.flight
        let place = "\(flight.direction == .departure ? "to" : "from") \(flight.airport.city)"
        if lookup.isCodeshare {
            return "Flight \(spelled(lookup.requested)), operated by \(flight.airline.name) as \(spelled(flight.number)), \(place)"
        }
        return "\(flight.airline.name) flight \(spelled(flight.number)) \(place)"
    }

    /// "L X 40": the airline code letter by letter, then the number.
    static func spelled(_ number: FlightNumber) -> String {
        "\(number.airline.map { String($0) }.joined(separator: " ")) \(number.number)"
    }

    /// "E 34": letters and digits of a gate as separate words.
    static func spelledGate(_ gate: String) -> String {
        var result = ""
        var previous: Character?
        for character in gate {
            if let previous, previous.isLetter != character.isLetter, previous != " ", character != " " { result.append(" ") }
            result.append(character)
            previous = character
        }
        return result
    }

    /// "a", "a or b", "a, b, or c".
    static func spokenList(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        case 2: return "\(items[0]) or \(items[1])"
        default: return "\(items.dropLast().joined(separator: ", ")), or \(items[items.count - 1])"
        }
    }
}
