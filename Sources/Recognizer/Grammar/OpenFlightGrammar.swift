import FlightCore

/// A grammar of today's airlines followed by any number of one to four digits in the usual spoken forms: it names
/// the same airlines as the flight grammar, the same ways, but does not know today's numbers.
///
/// Why: the flight grammar can only answer one of today's flights, so it forces the nearest one even when another
/// number was said (or none). Decoding the same audio with this open grammar shows which number was most likely
/// said; when the two readings disagree, the forced answer is not trusted. Its number rule is bounded (at most four
/// digits, no repetition) because a looser one lets noise and trailing silence become extra digits. Pure, `Sendable`.
struct OpenFlightGrammar: Sendable {
    /// The complete JSGF text.
    let jsgf: String
    /// Every word it can produce.
    let words: [String]
    private let airlinePhrases: [(words: [String], airline: String)]

    init(vocabulary: FlightVocabulary, baseGrammar: String) {
        let codes = Set(vocabulary.flights.map(\.airline)).sorted()
        var phrases: [[GrammarToken]] = []
        var readings: [(words: [String], airline: String)] = []
        for code in codes {
            for phrase in FlightGrammar.namePhrases(code: code, airline: vocabulary.airlines.airline(iata: code)) {
                phrases.append(phrase)
                for spelling in FlightGrammar.spellings(of: phrase) { readings.append((spelling, code)) }
            }
        }
        let digit = "<any_digit>", pair = "<any_pair>"
        let hundred = SpokenVocabulary.hundred, thousand = SpokenVocabulary.thousand
        var text = baseGrammar.trimmingCharacters(in: .whitespacesAndNewlines) + "\n\n"
        text += "// Open flight grammar: today's airlines, any number.\n"
        text += "<flight> = <any_airline> [\(FlightGrammar.flightWord)] <any_number>;\n"
        text += "<any_airline> = " + (phrases.isEmpty ? "<VOID>" : phrases.map { $0.map(\.jsgf).joined(separator: " ") }.joined(separator: " | ")) + ";\n"
        text += "<any_digit> = " + (0...9).map { "<digit_\($0)>" }.joined(separator: " | ") + ";\n"
        text += "<any_nonzero> = " + (1...9).map { "<digit_\($0)>" }.joined(separator: " | ") + ";\n"
        text += "<any_pair> = " + SpokenVocabulary.teenWords.joined(separator: " | ") + " | ("
            + SpokenVocabulary.tensWords.joined(separator: " | ") + ") [<any_nonzero>];\n"
        text += "<any_number> = \(digit) [\(digit) [\(digit) [\(digit)]]] | \(pair) [\(pair)] | \(digit) \(pair)"
            + " | \(digit) \(hundred) [\(pair) | \(digit)] | \(pair) \(hundred)"
            + " | \(digit) \(thousand) [\(digit) \(hundred)] [\(pair) | \(digit)];\n"
        jsgf = text
        var words = Set(FlightGrammar.words(inJSGF: text))
        for phrase in phrases { for token in phrase { words.formUnion(token.spellings) } }
        for digit in 0...9 { words.formUnion(GrammarToken.digit(digit).spellings) }
        self.words = words.sorted()
        airlinePhrases = readings.sorted { $0.words.count > $1.words.count }
    }

    /// The flight an open-grammar hypothesis names: the first airline phrase, then the number words after it.
    func flight(in hypothesis: String) -> FlightNumber? {
        let words = hypothesis.lowercased().split(separator: " ").map(String.init)
        for start in words.indices {
            guard let phrase = airlinePhrases.first(where: { words[start...].starts(with: $0.words) }) else { continue }
            var rest = words[(start + phrase.words.count)...]
            if rest.first == FlightGrammar.flightWord { rest = rest.dropFirst() }
            let numberWords = Array(rest.prefix { SpokenVocabulary.value(ofNumberWord: $0) != nil || $0 == SpokenVocabulary.hundred || $0 == SpokenVocabulary.thousand || $0 == "double" })
            guard let number = Self.number(numberWords) else { return nil }
            return FlightNumber(airline: phrase.airline, number: number)
        }
        return nil
    }

    private static func digit(_ word: String) -> Int? {
        guard let value = SpokenVocabulary.value(ofNumberWord: word), value < 10 else { return nil }
        return value
    }

    /// Reads number words as the grammar's forms allow: "four zero", "double four", "forty", "two eighty seven",
    /// "twelve thirty four", "nine hundred", "two thousand one", "forty four hundred". Nil when not a number.
    static func number(_ words: [String]) -> Int? {
        guard !words.isEmpty else { return nil }
        if let index = words.firstIndex(of: SpokenVocabulary.thousand) {
            guard let thousands = number(Array(words[..<index])), thousands < 10 else { return nil }
            let rest = Array(words[(index + 1)...])
            return rest.isEmpty ? thousands * 1000 : number(rest).map { thousands * 1000 + $0 }
        }
        if let index = words.firstIndex(of: SpokenVocabulary.hundred) {
            guard let hundreds = number(Array(words[..<index])), hundreds < 100 else { return nil }
            let rest = Array(words[(index + 1)...])
            guard let tail = rest.isEmpty ? 0 : number(rest), tail < 100 else { return nil }
            return hundreds * 100 + tail
        }
        var digits = ""
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "double", index + 1 < words.count, let digit = digit(words[index + 1]) {
                digits += String(repeating: String(digit), count: 2)
                index += 2
                continue
            }
            guard let value = SpokenVocabulary.value(ofNumberWord: word) else { return nil }
            if value >= 20, index + 1 < words.count, let ones = digit(words[index + 1]), ones > 0 {
                digits += String(value + ones)
                index += 2
                continue
            }
            digits += String(value)
            index += 1
        }
        guard digits.count <= 4, let value = Int(digits), value > 0 else { return nil }
        return value
    }
}
