import FlightCore
import Foundation

/// Today's flights and the airlines that fly them: what the recognizer listens for.
public struct FlightVocabulary: Sendable, Hashable {
    /// The airlines, for their names, callsigns and codes.
    public let airlines: AirlineDirectory
    /// Every flight number (operating and codeshare) of the day, sorted, without duplicates.
    public let flights: [FlightNumber]

    /// A vocabulary of `flights` named through `airlines`.
    public init(airlines: AirlineDirectory, flights: [FlightNumber]) {
        self.airlines = airlines
        self.flights = Array(Set(flights)).sorted()
    }

    /// True when some flight of the day, of any airline, has a longer number that starts with `number`'s digits
    /// (LX 412 continues 4 and 41): a traveller who has said only that much may still be saying one of today's flights.
    public func continuesSomeFlight(_ number: Int) -> Bool {
        let digits = String(number)
        return flights.contains { flight in
            let other = String(flight.number)
            return other.count > digits.count && other.hasPrefix(digits)
        }
    }

    /// The day's numbers and airlines as `dataSource` knows them near `now`.
    public init(dataSource: some FlightsDataSource, near now: Date = Date()) throws {
        self.init(airlines: try dataSource.airlineDirectory(), flights: try dataSource.flightNumbers(near: now))
    }

    public static func == (lhs: FlightVocabulary, rhs: FlightVocabulary) -> Bool {
        lhs.flights == rhs.flights && lhs.airlines.airlines == rhs.airlines.airlines
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(flights)
        hasher.combine(airlines.airlines)
    }
}

/// A JSGF grammar that accepts the day's flights (and only those) in their spoken forms, plus the inverse mapping
/// from a recognized word sequence back to the flights it names.
///
/// The shared rules (letters, NATO words, digits, carrier phrases) come from `grammar/flight-query.jsgf`; per airline
/// a rule holds the ways to name it (letters, NATO words, ICAO letters, name, callsign, spoken names) followed by only
/// that airline's numbers, factored into a prefix tree so the decoder's search stays small. Pure and `Sendable`.
public struct FlightGrammar: Sendable {
    /// The complete JSGF text, ready for the decoder.
    public let jsgf: String
    /// Every word the grammar can produce, sorted: each must be in the dictionary or be added at load time.
    public let words: [String]
    /// Per airline code, the word sequences that name it.
    private let airlinePhrases: [(words: [String], airline: String)]
    /// Per airline code, number words ("two eighty seven") to the number (287).
    private let numberReadings: [String: [String: Int]]
    /// The shared rules (`baseGrammar`), their words and their alternatives, from which the grammar was built.
    let base: BaseRules
    /// One rule per airline that flies today, by code: what `excluding(_:)` keeps of a grammar it does not rebuild.
    let airlineRules: [AirlineRule]

    /// The word allowed between an airline and its number ("Air France flight one twenty three").
    static let flightWord = SpokenVocabulary.flightWord

    /// The shared rules embedded from `grammar/flight-query.jsgf`.
    public static var baseGrammar: String { embeddedQueryGrammar }

    /// Builds the grammar for `vocabulary` on top of the shared rules in `baseGrammar` (default: the embedded file).
    public init(vocabulary: FlightVocabulary, baseGrammar: String? = nil) {
        let base = BaseRules(text: baseGrammar ?? embeddedQueryGrammar)
        var numbersByAirline: [String: [Int]] = [:]
        for flight in vocabulary.flights { numbersByAirline[flight.airline, default: []].append(flight.number) }
        self.init(base: base, airlineRules: numbersByAirline.keys.sorted().map { code in
            AirlineRule(code: code, airline: vocabulary.airlines.airline(iata: code), numbers: numbersByAirline[code]!, rules: base.rules)
        })
    }

    /// The grammar of the same day less `flights`: the same as building it from the day's vocabulary without them,
    /// rebuilding only the rules of the airlines that fly them (building a whole day's grammar is a third of the
    /// instructions of the rival pass that needs it, callgrind).
    func excluding(_ flights: Set<FlightNumber>) -> FlightGrammar {
        guard !flights.isEmpty else { return self }
        return FlightGrammar(base: base, airlineRules: airlineRules.compactMap { rule in
            let kept = rule.numbers.filter { !flights.contains(FlightNumber(airline: rule.code, number: $0)!) }
            if kept.count == rule.numbers.count { return rule }
            return kept.isEmpty ? nil : AirlineRule(code: rule.code, names: rule.names, numbers: kept, rules: base.rules)
        })
    }

    private init(base: BaseRules, airlineRules: [AirlineRule]) {
        let numberCount = airlineRules.reduce(0) { $0 + $1.numbers.count }
        var text = base.text + "\n\n"
        text += "// Generated from today's flights: \(numberCount) numbers of \(airlineRules.count) airlines.\n"
        text += airlineRules.isEmpty ? "<flight> = <VOID>;\n" : "<flight> = " + airlineRules.map { "<airline_\($0.code)>" }.joined(separator: " | ") + ";\n"
        var words = base.words
        for rule in airlineRules {
            text += rule.jsgf
            words.formUnion(rule.words)
        }
        words.insert(Self.flightWord)
        jsgf = text
        self.words = words.sorted()
        airlinePhrases = airlineRules.flatMap { rule in rule.phrases.map { ($0, rule.code) } }.sorted { $0.words.count > $1.words.count }
        numberReadings = Dictionary(uniqueKeysWithValues: airlineRules.map { ($0.code, $0.readings) })
        self.base = base
        self.airlineRules = airlineRules
    }

    /// The flights a recognized word sequence names, in order of appearance; several when it is ambiguous.
    public func flights(in hypothesis: String) -> [FlightNumber] {
        readings(of: Self.words(of: hypothesis)).map(\.flight)
    }

    /// Each flight a word sequence names with the word positions that name it (airline through number).
    func readings(of words: [String]) -> [(flight: FlightNumber, words: Range<Int>)] {
        var found: [(flight: FlightNumber, words: Range<Int>)] = []
        for named in airlinesNamed(in: words) {
            for end in stride(from: words.count, to: named.numberStart, by: -1) where end == words.count || !Self.continuesNumber(words[end]) {
                if let number = named.numbers[words[named.numberStart..<end].joined(separator: " ")],
                   let flight = FlightNumber(airline: named.airline, number: number) {
                    if !found.contains(where: { $0.flight == flight }) { found.append((flight, named.start..<end)) }
                    break
                }
            }
        }
        return found
    }

    /// True when `hypothesis` ends inside a number: the words after an airline it names are the first words, not all,
    /// of a way to say one of today's numbers of that airline ("l x one five" while LX 154 flies), and the next word
    /// of that way is one a traveller may say after a pause (`mayFollowAPause`). Such words can name a flight of
    /// today's (LX 15) and still be a traveller pausing mid-number; "l x forty" while LX 400 flies does not end inside
    /// a number, as no way of saying 400 starts with "forty", nor while LX 41 flies, as "forty-one" is said as one word.
    public func endsInsideNumber(_ hypothesis: String) -> Bool {
        let words = Self.words(of: hypothesis)
        return airlinesNamed(in: words).contains { named in
            guard named.numberStart < words.count else { return false }
            let saidSoFar = words[named.numberStart...].joined(separator: " ") + " ", last = words[words.count - 1]
            return named.numbers.keys.contains { way in
                way.hasPrefix(saidSoFar) && Self.mayFollowAPause(last, way.dropFirst(saidSoFar.count).prefix { $0 != " " })
            }
        }
    }

    /// Every place `words` name an airline that flies today: where its name starts, where its number would start
    /// (after an optional "flight"), and the ways to say its numbers today.
    private func airlinesNamed(in words: [String]) -> [(airline: String, start: Int, numberStart: Int, numbers: [String: Int])] {
        words.indices.flatMap { start in
            airlinePhrases.filter { words[start...].starts(with: $0.words) }.compactMap { phrase in
                guard let numbers = numberReadings[phrase.airline] else { return nil }
                var numberStart = start + phrase.words.count
                if numberStart < words.count, words[numberStart] == Self.flightWord { numberStart += 1 }
                return (phrase.airline, start, numberStart, numbers)
            }
        }
    }

    /// A hypothesis's words, lowercased.
    private static func words(of hypothesis: String) -> [String] {
        hypothesis.lowercased().split(separator: " ").map(String.init)
    }

    /// True when the number word `next` may come after a pause that follows `last`: not the units of a tens word
    /// ("forty… one" is "forty-one", one word), nor "hundred" or "thousand" after their digit.
    static func mayFollowAPause(_ last: String, _ next: Substring) -> Bool {
        if next == SpokenVocabulary.hundred || next == SpokenVocabulary.thousand { return false }
        let completesTens = SpokenVocabulary.tensWords.contains(last)
            && SpokenVocabulary.value(ofNumberWord: String(next)).map { (1...9).contains($0) } == true
        return !completesTens
    }

    /// True for a word that would continue a number ("one", "hundred", "double"): a reading must not stop before it.
    static func continuesNumber(_ word: String) -> Bool {
        SpokenVocabulary.value(ofNumberWord: word) != nil || SpokenVocabulary.repeaters[word] != nil
            || word == SpokenVocabulary.hundred || word == SpokenVocabulary.thousand
    }

    /// The ways to name an airline: its code spelled (letters or NATO words, digits), its ICAO code spelled, and
    /// its name, callsign and spoken names as words.
    static func namePhrases(code: String, airline: Airline?) -> [[GrammarToken]] {
        var phrases: [[GrammarToken]] = [spelled(code)]
        if let icao = airline?.icao, icao.count == 3 { phrases.append(spelled(icao)) }
        for name in airline?.allSpokenNames ?? [] {
            let tokens = nameWords(name)
            if !tokens.isEmpty { phrases.append(tokens.map { .word($0) }) }
        }
        var seen = Set<[GrammarToken]>()
        return phrases.filter { seen.insert($0).inserted }
    }

    /// A code as spelled tokens: "LX" → <letter_l> <letter_x>, "U2" → <letter_u> <digit_2>.
    private static func spelled(_ code: String) -> [GrammarToken] {
        code.uppercased().map { character in
            if let digit = character.wholeNumberValue { return .digit(digit) }
            return .letter(character)
        }
    }

    /// A name as lower-case words the dictionary can hold: letters, digits, apostrophes and hyphens kept.
    static func nameWords(_ name: String) -> [String] {
        name.lowercased()
            .map { $0.isLetter || $0.isNumber || $0 == "'" || $0 == "-" ? $0 : " " }
            .split(separator: " ")
            .map { String($0).trimmingCharacters(in: CharacterSet(charactersIn: "-'")) }
            .filter { !$0.isEmpty }
    }

    /// Every word sequence a token sequence can be heard as, with the shared rules' alternatives from `rules`.
    static func spellings(of tokens: [GrammarToken], rules: [String: [[String]]] = embeddedRules) -> [[String]] {
        tokens.reduce([[]]) { partial, token in partial.flatMap { prefix in token.spellings(in: rules).map { prefix + $0 } } }
    }

    /// The alternatives of the embedded grammar's shared rules.
    static let embeddedRules = ruleAlternatives(in: embeddedQueryGrammar)

    /// The alternatives of every rule of `text` written on one line as plain words and `|`, by rule name:
    /// `<letter_z> = z | zed | zulu;` → "letter_z": [["z"], ["zed"], ["zulu"]]. The grammar file is the one place
    /// that says how a letter or digit may be spoken, so reading a hypothesis back uses the same list.
    static func ruleAlternatives(in text: String) -> [String: [[String]]] {
        var rules: [String: [[String]]] = [:]
        for line in text.split(separator: "\n") {
            let code = line.components(separatedBy: "//")[0].trimmingCharacters(in: .whitespaces)
            guard code.hasPrefix("<"), code.hasSuffix(";"), let equals = code.firstIndex(of: "="),
                  let close = code.firstIndex(of: ">"), close < equals else { continue }
            let body = code[code.index(after: equals)..<code.index(before: code.endIndex)]
            guard !body.contains(where: { "<>()[]{}*+".contains($0) }) else { continue }
            let name = String(code[code.index(after: code.startIndex)..<close])
            rules[name] = body.split(separator: "|").map { $0.split(separator: " ").map(String.init) }.filter { !$0.isEmpty }
        }
        return rules
    }

    /// The words of a JSGF text: tokens of rule bodies that are not rule references, tags or operators.
    static func words(inJSGF text: String) -> [String] {
        var result = Set<String>()
        for line in text.split(separator: "\n") {
            let code = line.components(separatedBy: "//")[0]
            guard !code.hasPrefix("#"), !code.hasPrefix("grammar") else { continue }
            let body = code.contains("=") ? String(code[code.index(after: code.firstIndex(of: "=")!)...]) : code
            let cleaned = body.map { "()[]|;*+".contains($0) ? " " : $0 }
            for token in String(cleaned).split(separator: " ") where !token.hasPrefix("<") && !token.hasPrefix("{") {
                result.insert(String(token))
            }
        }
        return result.sorted()
    }
}

/// The shared rules a flight grammar is built on: their text, their words and the alternatives of the one-line rules.
struct BaseRules: Sendable {
    /// The text, without the white space around it.
    let text: String
    /// The words of the text (`FlightGrammar.words(inJSGF:)`).
    let words: Set<String>
    /// The alternatives of its one-line rules (`FlightGrammar.ruleAlternatives(in:)`).
    let rules: [String: [[String]]]

    init(text: String) {
        self.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        words = Set(FlightGrammar.words(inJSGF: text))
        rules = FlightGrammar.ruleAlternatives(in: text)
    }
}

/// The part of a flight grammar for one airline: the ways to name it, followed by the ways to say its numbers today.
struct AirlineRule: Sendable {
    let code: String
    /// The ways to name the airline (`FlightGrammar.namePhrases`).
    let names: [[GrammarToken]]
    /// Its numbers today, sorted, without duplicates.
    let numbers: [Int]
    /// The spoken forms of every number, in the order of `numbers`.
    let forms: [[GrammarToken]]
    /// Every word sequence of every name.
    let phrases: [[String]]
    /// Every word sequence of every number form to its number.
    let readings: [String: Int]
    /// Its two JSGF rules, `<airline_CODE>` and `<number_CODE>`.
    let jsgf: String
    /// The plain words of its names and forms (letters and digits are the shared rules').
    let words: Set<String>

    /// The rule of `code` (named through `airline`, when known) for `numbers`, with the shared rules' alternatives.
    init(code: String, airline: Airline?, numbers: [Int], rules: [String: [[String]]]) {
        self.init(code: code, names: FlightGrammar.namePhrases(code: code, airline: airline), numbers: numbers, rules: rules)
    }

    init(code: String, names: [[GrammarToken]], numbers: [Int], rules: [String: [[String]]]) {
        self.code = code
        self.names = names
        self.numbers = Array(Set(numbers)).sorted()
        var forms: [[GrammarToken]] = []
        var readings: [String: Int] = [:]
        for number in self.numbers {
            for form in GrammarToken.numberForms(of: number) {
                forms.append(form)
                for spelling in FlightGrammar.spellings(of: form, rules: rules) { readings[spelling.joined(separator: " ")] = number }
            }
        }
        self.forms = forms
        self.readings = readings
        phrases = names.flatMap { FlightGrammar.spellings(of: $0, rules: rules) }
        var words = Set<String>()
        for case .word(let word) in (names + forms).joined() { words.insert(word) }
        self.words = words
        jsgf = "<airline_\(code)> = (" + names.map { $0.map(\.jsgf).joined(separator: " ") }.joined(separator: " | ")
            + ") [\(FlightGrammar.flightWord)] <number_\(code)>;\n" + "<number_\(code)> = " + PrefixTree(forms).jsgf + ";\n"
    }
}

/// Token sequences merged on common prefixes and written as nested JSGF alternatives.
private struct PrefixTree {
    private final class Node {
        var children: [GrammarToken: Node] = [:]
        var isEnd = false
    }

    private let root = Node()

    init(_ sequences: [[GrammarToken]]) {
        for sequence in sequences {
            var node = root
            for token in sequence {
                if let child = node.children[token] {
                    node = child
                } else {
                    let child = Node()
                    node.children[token] = child
                    node = child
                }
            }
            node.isEnd = true
        }
    }

    /// The alternatives below the root, e.g. `<digit_4> ( <digit_0> | <digit_2> ) | forty`.
    var jsgf: String { Self.alternatives(root) }

    private static func alternatives(_ node: Node) -> String {
        node.children.keys.sorted().map { token in
            let child = node.children[token]!
            if child.children.isEmpty { return token.jsgf }
            let below = alternatives(child)
            let group = child.children.count > 1 || child.isEnd ? below : below
            if child.isEnd { return "\(token.jsgf) [\(group)]" }
            return child.children.count > 1 ? "\(token.jsgf) (\(group))" : "\(token.jsgf) \(group)"
        }.joined(separator: " | ")
    }
}
