import FlightCore

/// A grammar of every flight-number *shape* rather than today's flights: any airline the directory knows (by name,
/// callsign or spelled ICAO code) or any spelled two-character code, followed by any number from 1 to 9999 in its spoken forms.
///
/// It is the competitor in the recognizer's second opinion. Today's grammar can only answer one of today's flights,
/// so in noise or on unclear speech it forces the audio onto the nearest one; decoding the same audio against this
/// grammar shows what the audio says when nothing is forced. When both read the same flight, the answer does not
/// depend on the grammar's constraint; when they differ, the constraint chose it. Pure and `Sendable`.
public struct OpenFlightGrammar: Sendable {
    /// The complete JSGF text, ready for the decoder.
    public let jsgf: String
    /// Every word the grammar can produce, sorted.
    public let words: [String]

    /// Builds the grammar on top of the shared rules in `baseGrammar` (default: the embedded query grammar).
    public init(airlines: AirlineDirectory, baseGrammar: String? = nil) {
        let baseGrammar = baseGrammar ?? FlightGrammar.baseGrammar
        let names = airlines.airlines
            .flatMap(\.allSpokenNames)
            .map(FlightGrammar.nameWords)
            .filter { !$0.isEmpty }
            .map { $0.joined(separator: " ") }
        let icaoCodes = airlines.airlines.compactMap(\.icao).filter { $0.count == 3 }
            .map { $0.lowercased().map { "<letter_\($0)>" }.joined(separator: " ") }
        let airlineNames = Array(Set(names + icaoCodes)).sorted()

        let letters = "abcdefghijklmnopqrstuvwxyz".map { "<letter_\($0)>" }.joined(separator: " | ")
        let nonZero = (1...9).map { "<digit_\($0)>" }.joined(separator: " | ")
        var text = baseGrammar.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n"
        text += """
            // Generated: any airline or spelled code, then any number 1-9999.
            <flight> = <open_airline> [\(FlightGrammar.flightWord)] <open_number>;
            <open_letter> = \(letters);
            <open_nonzero> = \(nonZero);
            <open_digit> = <digit_0> | <open_nonzero>;
            <open_code> = <open_letter> (<open_letter> | <open_digit>) | <open_digit> <open_letter>;
            <open_airline> = <open_code>\(airlineNames.map { " | " + $0 }.joined());
            <open_spelled> = <open_digit> | (\(SpokenVocabulary.repeaters.keys.sorted().joined(separator: " | "))) <open_digit>;
            <open_teen> = \(SpokenVocabulary.teenWords.joined(separator: " | "));
            <open_pair> = <open_teen> | (\(SpokenVocabulary.tensWords.joined(separator: " | "))) [<open_nonzero>];
            <open_number> = <open_spelled> [<open_spelled> [<open_spelled> [<open_spelled>]]]
                | <open_pair> [<open_pair> | \(SpokenVocabulary.hundred) | <digit_0> <open_nonzero>]
                | <open_nonzero> (<open_pair> | \(SpokenVocabulary.hundred) [<open_pair> | <open_nonzero>]
                    | \(SpokenVocabulary.thousand) [<open_nonzero> \(SpokenVocabulary.hundred)] [<open_pair> | <open_nonzero>]);

            """
        jsgf = text
        var words = Set(FlightGrammar.words(inJSGF: text))
        words.insert(FlightGrammar.flightWord)
        self.words = words.sorted()
    }

    /// The number this grammar's words `text` end with, whichever airline they name: its number words after the
    /// airline, before any closing carrier words ("please"); nil when there are none. A code is two spelled tokens, so
    /// a code's digit is not part of the number: "u eight five five" is U8 55, "m seven six five five eight" M7 6558.
    /// Read from the words because the normalizer reads a flight only where the code is a known airline's or two
    /// unmistakable letters ("s i zero three one three" names none).
    public static func number(in text: String) -> Int? {
        let words = text.lowercased().split(separator: " ").map(String.init)
        guard let last = words.lastIndex(where: isNumberWord) else { return nil }
        var first = last
        while first > 0, isNumberWord(words[first - 1]) { first -= 1 }
        let isCodeToken = { (word: String) in spokenLetters.contains(word) || spokenDigits.contains(word) }
        if first > 0, spokenLetters.contains(words[first - 1]), spokenDigits.contains(words[first]),
           first == 1 || !isCodeToken(words[first - 2]) {
            first += 1
        }
        guard first <= last else { return nil }
        return SpokenFlightNormalizer.number(ofNumberWords: Array(words[first...last]))
    }

    /// The words of the shared letter and digit rules (`<letter_x> = x | x-ray;`).
    private static let spokenLetters = wordsOfRules { $0.hasPrefix("letter_") }
    private static let spokenDigits = wordsOfRules { $0.hasPrefix("digit_") }

    private static func wordsOfRules(named isIncluded: (String) -> Bool) -> Set<String> {
        Set(FlightGrammar.embeddedRules.filter { isIncluded($0.key) }.values.joined().filter { $0.count == 1 }.map { $0[0] })
    }

    /// A number word as this grammar uses it: its "o" is the letter, never a digit.
    private static func isNumberWord(_ word: String) -> Bool {
        FlightGrammar.continuesNumber(word) && !spokenLetters.contains(word)
    }
}
