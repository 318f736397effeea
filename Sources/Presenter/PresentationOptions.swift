import FlightCore
import Foundation

/// What a rendering depends on besides the answer itself: the moment "today" refers to and the output device.
/// Renderers are pure functions of their inputs and these options; nothing is read from the clock or environment.
public struct PresentationOptions: Sendable, Hashable {
    /// The moment the answer is given; decides whether a time is "today", "tomorrow" or another day.
    public var now: Date
    /// True when the output is a terminal that understands ANSI styles; colour and bold are then added.
    /// Styles never carry meaning alone: every status is also written as words.
    public var isTerminal: Bool
    /// The flight used in "Try: …" and "for example …" hints.
    public var example: SpokenExample
    /// How many "Did you mean …?" suggestions to show at most.
    public var maximumSuggestions: Int

    /// Options for `now`, plain text unless `isTerminal` is true.
    public init(now: Date, isTerminal: Bool = false, example: SpokenExample = .swiss40, maximumSuggestions: Int = 3) {
        self.now = now
        self.isTerminal = isTerminal
        self.example = example
        self.maximumSuggestions = maximumSuggestions
    }
}

/// A flight to quote when telling people how to say a flight number.
public struct SpokenExample: Sendable, Hashable {
    /// The flight number quoted, e.g. LX 40.
    public let flight: FlightNumber
    /// The airline name people say, e.g. "Swiss".
    public let airlineName: String

    /// An example with the given number and airline name.
    public init(flight: FlightNumber, airlineName: String) {
        self.flight = flight
        self.airlineName = airlineName
    }

    /// Swiss flight LX 40, the project's running example.
    public static let swiss40 = SpokenExample(flight: FlightNumber(airline: "LX", number: 40)!, airlineName: "Swiss")

    /// The ways to say it, e.g. `"L X forty", "Swiss forty" or "lima x-ray four zero"`.
    public var phrases: [String] {
        let letters = flight.airline.map { String($0) }
        let spelled = letters.joined(separator: " ")
        let number = SpokenNumbers.words(for: flight.number)
        let nato = letters.map { letter in
            letter.first.flatMap { SpokenVocabulary.natoWords[$0] } ?? SpokenNumbers.digitWords(for: letter)
        }
        let digits = SpokenNumbers.digitWords(for: String(flight.number))
        return [
            "\(spelled) \(number)",
            "\(airlineName) \(number)",
            "\(nato.joined(separator: " ")) \(digits)",
        ]
    }
}

/// Numbers written as the words people say.
enum SpokenNumbers {
    /// "forty", "seven", "twelve" for 0...99; digit by digit ("two eight seven") above, as flight numbers are read.
    static func words(for number: Int) -> String {
        switch number {
        case 0..<10: return SpokenVocabulary.digitWords[number]
        case 10..<20: return SpokenVocabulary.teenWords[number - 10]
        case 20..<100:
            let tens = SpokenVocabulary.tensWords[number / 10 - 2]
            return number % 10 == 0 ? tens : "\(tens) \(SpokenVocabulary.digitWords[number % 10])"
        default: return digitWords(for: String(number))
        }
    }

    /// Each digit of `text` as a word, separated by spaces ("40" → "four zero"); other characters are kept.
    static func digitWords(for text: String) -> String {
        text.map { character in
            character.wholeNumberValue.map { SpokenVocabulary.digitWords[$0] } ?? String(character)
        }.joined(separator: " ")
    }
}
