/// Maps what people say or type ("what's the gate for L X forty", "Speedbird 287", "lx 040") to ranked flight numbers.
///
/// The reading is a small grammar: carrier words, then an airline (name, callsign, spelled or written IATA or ICAO
/// code, or a letter-and-digit code), optional carrier words, the number, and carrier words again. Every way the
/// tokens fit it becomes a candidate; anything that does not fit is refused with a reason, never guessed.
/// Pure and thread-safe; lookup tables are built once in `init`, and `normalize` is quadratic at worst in the
/// (short) number of words.
public struct SpokenFlightNormalizer: Sendable {
    public let airlines: AirlineDirectory

    /// How plausible a well-formed code no airline has is, against a known one (it is still offered: the lookup says not found).
    static let unknownAirlineScore = 0.3
    /// How plausible it is that a word that is also an ordinary word ("a", "i", "you", "see") was said as a letter.
    static let ambiguousLetterScore = 0.8
    /// How plausible it is that a letter-like word ("a", "i") just before an airline code was not part of the code.
    static let skippedLetterScore = 0.3
    /// How plausible it is that a carrier word sounding like a digit ("for", "to") just before the number was that digit.
    static let digitHomophoneScore = 0.4
    /// The most number words read as one flight number: every group says at least one digit, so a longer run is
    /// refused unread (bar leading zeros), which keeps a pathological input from costing quadratic time.
    static let maximumNumberWords = 16
    /// The most candidates returned; the rest are far less plausible.
    static let maximumCandidates = 5
    /// Generic words that may be left off an airline's name ("Turkish Airlines" → "Turkish").
    static let genericNameEndings: Set<String> = ["airlines", "airline", "airways", "air", "lines", "international", "aviation"]

    /// Airlines by spoken phrase, words separated by single spaces ("british airways").
    private let airlinesByPhrase: [String: [Airline]]
    /// Airlines by phrase with the spaces removed ("easyjet" for both "easyJet" and "easy jet").
    private let airlinesByCompactPhrase: [String: [Airline]]
    /// The most words in one airline phrase.
    private let longestPhrase: Int
    /// Every word of every airline phrase: such words are not "unrecognized" even when they do not fit.
    private let airlineNameWords: Set<String>
    /// Every word the normalizer knows, already classified; other words are classified per call.
    private let knownTokens: [String: Token]

    public init(airlines: AirlineDirectory) {
        self.airlines = airlines
        var byPhrase: [String: [Airline]] = [:]
        var byCompactPhrase: [String: [Airline]] = [:]
        var longest = 1
        var nameWords = Set<String>()
        func add(_ words: [String], _ airline: Airline) {
            guard !words.isEmpty else { return }
            if !(byPhrase[words.joined(separator: " ")]?.contains(airline) ?? false) { byPhrase[words.joined(separator: " "), default: []].append(airline) }
            if !(byCompactPhrase[words.joined()]?.contains(airline) ?? false) { byCompactPhrase[words.joined(), default: []].append(airline) }
            longest = max(longest, words.count)
            nameWords.formUnion(words)
        }
        for airline in airlines.airlines {
            for phrase in airline.allSpokenNames {
                let words = Self.words(of: phrase)
                add(words, airline)
                var shortened = words
                while shortened.count > 1, let last = shortened.last, Self.genericNameEndings.contains(last) {
                    shortened.removeLast()
                }
                if shortened.count < words.count, shortened != ["air"], !(shortened.count == 1 && Lexicon.fillers.contains(shortened[0])) {
                    add(shortened, airline)
                }
            }
        }
        airlinesByPhrase = byPhrase
        airlinesByCompactPhrase = byCompactPhrase
        longestPhrase = longest
        airlineNameWords = nameWords

        var vocabulary = Set(nameWords).union(SpokenVocabulary.carrierWords).union(SpokenVocabulary.letterHomophones.keys)
        vocabulary.formUnion(SpokenVocabulary.natoWords.values.flatMap(Self.words(of:)))
        vocabulary.formUnion(SpokenVocabulary.natoVariants.keys.flatMap(Self.words(of:)))
        vocabulary.formUnion(SpokenVocabulary.digitWords + SpokenVocabulary.teenWords + SpokenVocabulary.tensWords)
        vocabulary.formUnion(SpokenVocabulary.digitVariants.keys)
        vocabulary.formUnion([SpokenVocabulary.hundred, SpokenVocabulary.thousand, Lexicon.numberConjunction] + SpokenVocabulary.repeaters.keys)
        vocabulary.formUnion("abcdefghijklmnopqrstuvwxyz0123456789".map(String.init))
        knownTokens = Dictionary(uniqueKeysWithValues: vocabulary.map { ($0, Token($0)) })
    }

    /// Reads `text` as a flight number; see `NormalizationOutcome`.
    public func normalize(_ text: String) -> NormalizationOutcome {
        let tokens = Self.words(of: text).map { knownTokens[$0] ?? Token($0) }
        guard tokens.contains(where: { !$0.isFiller }) else { return .notUnderstood(.empty) }

        // fillersFrom[i]: every token from i on is a filler.
        var fillersFrom = [Bool](repeating: true, count: tokens.count + 1)
        for index in stride(from: tokens.count - 1, through: 0, by: -1) {
            fillersFrom[index] = fillersFrom[index + 1] && tokens[index].isFiller
        }
        let lastStart = tokens.firstIndex { !$0.isFiller } ?? tokens.count - 1
        var diagnostics = Diagnostics()
        var best: [FlightNumber: FlightCandidate] = [:]

        func offer(_ flight: FlightNumber, _ score: Double, _ readings: [TokenReading]) {
            if let existing = best[flight], existing.score >= score { return }
            best[flight] = FlightCandidate(flight: flight, score: score, readings: readings)
        }
        func fillers(_ range: Range<Int>) -> [TokenReading] {
            range.map { TokenReading(token: tokens[$0].text, readAs: "", role: .filler) }
        }

        for start in 0...lastStart {
            let startScore = start > 0 && tokens[start - 1].letter != nil ? Self.skippedLetterScore : 1
            for part in airlineParts(tokens, at: start, diagnostics: &diagnostics) {
                diagnostics.airlineCode = diagnostics.airlineCode ?? part.code
                if let written = part.writtenDigits {
                    guard fillersFrom[part.end] else {
                        diagnostics.noteStray(tokens[part.end...])
                        continue
                    }
                    guard let number = Self.flightNumberValue(written, diagnostics: &diagnostics),
                          let flight = FlightNumber(airline: part.code, number: number) else { continue }
                    offer(flight, startScore * part.score, fillers(0..<start) + part.readings + fillers(part.end..<tokens.count))
                    continue
                }
                var numberStart = part.end
                while numberStart < tokens.count, tokens[numberStart].isFiller, tokens[numberStart].number == nil { numberStart += 1 }
                var runEnd = numberStart
                while runEnd < tokens.count, tokens[runEnd].number != nil { runEnd += 1 }
                if runEnd > numberStart, !fillersFrom[runEnd] { diagnostics.noteStray(tokens[runEnd...]) }
                // The longest run of number words that leaves only fillers behind it ("forty oh please" drops nothing, "and" may go),
                // optionally led by a carrier word that sounds like a digit ("L X for two": 2, or 42 misheard).
                func readNumber(from firstToken: Int, leadingDigit: Int?, score: Double) {
                    for numberEnd in stride(from: runEnd, to: numberStart, by: -1) where fillersFrom[numberEnd] {
                        let run = firstToken..<numberEnd
                        guard run.count <= Self.maximumNumberWords else {
                            let heard = run.prefix(Self.maximumNumberWords).map { tokens[$0].text }.joined(separator: " ")
                            diagnostics.tooManyDigits = diagnostics.tooManyDigits ?? heard + " …"
                            return
                        }
                        let words = run.map { $0 < numberStart ? NumberWord.digit(leadingDigit!) : tokens[$0].number! }
                        let numberReadings = NumberReader.readings(of: words, tokens: run.map { tokens[$0].text })
                        guard !numberReadings.isEmpty else { continue }
                        for reading in numberReadings {
                            guard let number = Self.flightNumberValue(reading.digits, diagnostics: &diagnostics),
                                  let flight = FlightNumber(airline: part.code, number: number) else { continue }
                            let readings = fillers(0..<start) + part.readings + fillers(part.end..<firstToken) + reading.readings
                                + fillers(numberEnd..<tokens.count)
                            offer(flight, startScore * part.score * reading.score * score, readings)
                        }
                        return
                    }
                }
                readNumber(from: numberStart, leadingDigit: nil, score: 1)
                if numberStart > part.end, runEnd > numberStart, let digit = Lexicon.digitHomophones[tokens[numberStart - 1].text] {
                    readNumber(from: numberStart - 1, leadingDigit: digit, score: Self.digitHomophoneScore)
                }
            }
        }

        guard !best.isEmpty else {
            // An airline after other words: "forty swiss" lacks a number after it, "one with L X forty" has stray words before it.
            for start in tokens.indices where start > lastStart {
                for part in airlineParts(tokens, at: start, diagnostics: &diagnostics) {
                    var next = part.end
                    while next < tokens.count, tokens[next].isFiller, tokens[next].number == nil { next += 1 }
                    if part.writtenDigits != nil || (next < tokens.count && tokens[next].number != nil) {
                        diagnostics.noteStray(tokens[..<start])
                    } else {
                        diagnostics.airlineCode = diagnostics.airlineCode ?? part.code
                    }
                }
            }
            return .notUnderstood(diagnose(tokens, diagnostics))
        }
        let ranked = best.values
            .sorted { ($0.score, $1.flight.canonical) > ($1.score, $0.flight.canonical) }
            .prefix(Self.maximumCandidates)
        let total = ranked.reduce(0) { $0 + $1.score }
        return .understood(ranked.map { FlightCandidate(flight: $0.flight, score: $0.score / total, readings: $0.readings) })
    }

    // MARK: - Tokens

    /// Lower-case words, digits as ASCII: apostrophes vanish ("what's" → "whats"), other punctuation separates
    /// ("l.x." → "l", "x"; "LX-40" → "lx", "40"; "x-ray" → "x", "ray").
    static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text.lowercased() {
            if let digit = character.wholeNumberValue, character.isNumber, (0...9).contains(digit) {
                current += String(digit)  // also full-width and other scripts' digits
            } else if character.isLetter || character.isNumber {
                current.append(character)  // non-ASCII letters stay in their word, which is then unknown, not spelled
            } else if character == "'" || character == "\u{2019}" {
                continue
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// One word with everything it could be.
    struct Token {
        let text: String
        let isFiller: Bool
        let number: NumberWord?
        /// The letter it spells where an airline code is expected.
        let letter: Character?
        /// True when the word is also an ordinary word or a digit ("a", "you", "see", "o"): a weaker letter.
        let letterIsAmbiguous: Bool

        init(_ text: String) {
            self.text = text
            isFiller = Lexicon.fillers.contains(text)
            number = NumberWord(token: text)
            let homophone = Lexicon.letterHomophones[text]
            letter = SpokenVocabulary.letter(ofSpelledWord: text) ?? homophone
            letterIsAmbiguous = isFiller || homophone != nil || number != nil
        }

        /// True for three letters and one to four digits ("swr40", "xyz12"): an ICAO designator, known or not.
        var isWrittenICAODesignator: Bool {
            let digits = text.dropFirst(3)
            return text.prefix(3).allSatisfy(\.isLetter) && (1...4).contains(digits.count) && digits.allSatisfy(\.isNumber)
        }

        /// The digit when this word can be a digit of an airline code ("two", "2"; not "oh").
        var airlineDigit: Int? {
            guard let digit = number?.singleDigit, SpokenVocabulary.digitVariants[text] == nil else { return nil }
            return digit
        }
    }

    // MARK: - Airline

    /// One way the words from some position name an airline.
    struct AirlinePart {
        /// The IATA code it stands for.
        var code: String
        var end: Int
        var score: Double
        var readings: [TokenReading]
        /// The digits of a written designator ("LX40" → "40"), which needs no spoken number after it.
        var writtenDigits: String? = nil
    }

    /// What was seen on the way, to say why nothing fitted.
    struct Diagnostics {
        var airlineCode: String?
        var tooManyDigits: String?
        var unknownICAO: String?
        /// Words that stopped an otherwise complete reading ("L X forty L X forty", "one with L X forty").
        var strayWords: [String]?

        mutating func noteStray(_ tokens: ArraySlice<Token>) {
            guard strayWords == nil else { return }
            let words = tokens.filter { !$0.isFiller }.map(\.text)
            if strayWords == nil, !words.isEmpty { strayWords = words }
        }
    }

    /// Every airline reading starting at `start`: names, one-word codes, written designators, spelled codes.
    private func airlineParts(_ tokens: [Token], at start: Int, diagnostics: inout Diagnostics) -> [AirlinePart] {
        var parts: [AirlinePart] = []
        let first = tokens[start]

        // Names and callsigns, longest first so that among equal readings the one naming the airline in full is kept.
        for length in stride(from: min(longestPhrase, tokens.count - start), through: 1, by: -1) {
            let window = tokens[start..<(start + length)].map(\.text)
            var found = airlinesByPhrase[window.joined(separator: " ")] ?? []
            if length <= 2, window.allSatisfy({ $0.count >= 2 }) {
                for airline in airlinesByCompactPhrase[window.joined()] ?? [] where !found.contains(airline) { found.append(airline) }
            }
            for airline in found {
                let readings = window.enumerated().map { TokenReading(token: $1, readAs: $0 == 0 ? airline.iata : "", role: .airlineName) }
                parts.append(AirlinePart(code: airline.iata, end: start + length, score: 1, readings: readings))
            }
        }

        // One written word: "lx", "u2", "swr", "lx40", "swr40", "4u812".
        parts += writtenParts(first, at: start)
        if first.isWrittenICAODesignator, airlines.airline(icao: String(first.text.prefix(3))) == nil {
            diagnostics.unknownICAO = diagnostics.unknownICAO ?? first.text.prefix(3).uppercased()
        }

        // Spelled letters: "l x", "lima x-ray", "s w r", "double u", and letter-digit codes: "u two", "four u".
        for item in letterItems(tokens, at: start) {
            if item.letters.count == 2 {
                parts += spelledCode(item.letters, items: [item], diagnostics: &diagnostics)
                continue
            }
            // A word that is also a carrier word ("you", "a", "be") does not start a letter-digit code: "can you two eighty seven".
            if let digit = tokens.indices.contains(item.end) ? tokens[item.end].airlineDigit : nil, !first.isFiller,
               let airline = airlines.airline(iata: "\(item.letters)\(digit)") {
                let readings = item.readings + [TokenReading(token: tokens[item.end].text, readAs: String(digit), role: .airlineDigit)]
                let score = pow(Self.ambiguousLetterScore, item.ambiguousCount)
                parts.append(AirlinePart(code: airline.iata, end: item.end + 1, score: score, readings: readings))
            }
            for second in letterItems(tokens, at: item.end) {
                let letters = item.letters + second.letters
                if letters.count == 2 {
                    parts += spelledCode(letters, items: [item, second], diagnostics: &diagnostics)
                    for third in letterItems(tokens, at: second.end) where third.letters.count == 1 {
                        parts += spelledCode(letters + third.letters, items: [item, second, third], diagnostics: &diagnostics)
                    }
                } else {
                    parts += spelledCode(letters, items: [item, second], diagnostics: &diagnostics)
                }
            }
        }
        if let digit = first.airlineDigit {
            for item in letterItems(tokens, at: start + 1) where item.letters.count == 1 {
                guard let airline = airlines.airline(iata: "\(digit)\(item.letters)") else { continue }
                let readings = [TokenReading(token: first.text, readAs: String(digit), role: .airlineDigit)] + item.readings
                let score = pow(Self.ambiguousLetterScore, item.ambiguousCount)
                parts.append(AirlinePart(code: airline.iata, end: item.end, score: score, readings: readings))
            }
        }
        return parts
    }

    /// A one-word code or written designator: "lx", "QQ", "u2", "swr", "lx40", "LX0040", "swr40", "u21234", "4u812".
    private func writtenParts(_ token: Token, at start: Int) -> [AirlinePart] {
        let text = token.text.uppercased()
        guard text.count >= 2, !token.isFiller, token.number == nil, token.letter == nil else { return [] }
        var parts: [AirlinePart] = []
        let iata = String(text.prefix(2))
        let rest = String(text.dropFirst(2))
        if FlightNumber.isValidAirlineCode(iata), rest.allSatisfy(\.isNumber) {
            let known = airlines.airline(iata: iata) != nil
            if rest.isEmpty {
                // A bare two-letter word is a code only when it is no other word the normalizer knows.
                if known || (iata.allSatisfy(\.isLetter) && !airlineNameWords.contains(token.text) && Lexicon.letterHomophones[token.text] == nil) {
                    let reading = TokenReading(token: token.text, readAs: iata, role: .airlineLetter)
                    parts.append(AirlinePart(code: iata, end: start + 1, score: known ? 1 : Self.unknownAirlineScore, readings: [reading]))
                }
            } else {
                let reading = TokenReading(token: token.text, readAs: iata + rest, role: .writtenFlightNumber)
                parts.append(AirlinePart(code: iata, end: start + 1, score: known ? 1 : Self.unknownAirlineScore, readings: [reading], writtenDigits: rest))
            }
        }
        let icao = String(text.prefix(3))
        let icaoRest = String(text.dropFirst(3))
        if text.count >= 3, icao.allSatisfy(\.isLetter), icaoRest.allSatisfy(\.isNumber), let airline = airlines.airline(icao: icao) {
            if icaoRest.isEmpty {
                parts.append(AirlinePart(code: airline.iata, end: start + 1, score: 1, readings: [TokenReading(token: token.text, readAs: icao, role: .airlineICAO)]))
            } else {
                let reading = TokenReading(token: token.text, readAs: airline.iata + icaoRest, role: .writtenFlightNumber)
                parts.append(AirlinePart(code: airline.iata, end: start + 1, score: 1, readings: [reading], writtenDigits: icaoRest))
            }
        }
        return parts
    }

    /// One spelled letter (or two, for "double a"), with the tokens it used.
    struct LetterItem {
        var letters: String
        var end: Int
        var ambiguousCount: Int
        var readings: [TokenReading]
    }

    /// The letters spelled from `start`: "l", "lima", "x ray", "see", "double u" (W), "double a" (AA).
    private func letterItems(_ tokens: [Token], at start: Int) -> [LetterItem] {
        guard start < tokens.count else { return [] }
        let token = tokens[start]
        let next = start + 1 < tokens.count ? tokens[start + 1] : nil
        var items: [LetterItem] = []
        if token.text == Lexicon.doubleWord, let next {
            if Lexicon.doubleULetters.contains(next.text) {
                items.append(LetterItem(letters: "W", end: start + 2, ambiguousCount: 0, readings: [
                    TokenReading(token: token.text, readAs: "W", role: .airlineLetter), TokenReading(token: next.text, readAs: "", role: .airlineLetter),
                ]))
            } else if let letter = next.letter, next.number == nil {
                items.append(LetterItem(letters: "\(letter)\(letter)", end: start + 2, ambiguousCount: next.letterIsAmbiguous ? 1 : 0, readings: [
                    TokenReading(token: token.text, readAs: String(letter), role: .airlineLetter),
                    TokenReading(token: next.text, readAs: String(letter), role: .airlineLetter),
                ]))
            }
        }
        guard let letter = token.letter else { return items }
        if token.text == "x", next?.text == Lexicon.xRaySecondHalf {
            items.append(LetterItem(letters: "X", end: start + 2, ambiguousCount: 0, readings: [
                TokenReading(token: token.text, readAs: "X", role: .airlineLetter), TokenReading(token: next!.text, readAs: "", role: .airlineLetter),
            ]))
        }
        items.append(LetterItem(letters: String(letter), end: start + 1, ambiguousCount: token.letterIsAmbiguous ? 1 : 0, readings: [
            TokenReading(token: token.text, readAs: String(letter), role: .airlineLetter),
        ]))
        return items
    }

    /// A spelled two-letter IATA code (known, or unknown when every letter was unmistakable) or a known three-letter ICAO code.
    private func spelledCode(_ letters: String, items: [LetterItem], diagnostics: inout Diagnostics) -> [AirlinePart] {
        let ambiguous = items.reduce(0) { $0 + $1.ambiguousCount }
        let readings = items.flatMap(\.readings)
        let end = items.last!.end
        let score = pow(Self.ambiguousLetterScore, ambiguous)
        if letters.count == 2 {
            if airlines.airline(iata: letters) != nil {
                return [AirlinePart(code: letters, end: end, score: score, readings: readings)]
            }
            return ambiguous == 0 ? [AirlinePart(code: letters, end: end, score: Self.unknownAirlineScore, readings: readings)] : []
        }
        guard let airline = airlines.airline(icao: letters) else {
            if ambiguous == 0 { diagnostics.unknownICAO = diagnostics.unknownICAO ?? letters }
            return []
        }
        let icaoReadings = readings.map { TokenReading(token: $0.token, readAs: $0.readAs, role: .airlineICAO) }
        return [AirlinePart(code: airline.iata, end: end, score: score, readings: icaoReadings)]
    }

    // MARK: - Number and refusal

    /// The flight number that `words`, all number words, say on their most plausible reading ("ten oh five" → 1005,
    /// "double oh seven" → 7); nil when they are not all number words or say more than four digits.
    public static func number(ofNumberWords words: [String]) -> Int? {
        let numberWords = words.compactMap(NumberWord.init(token:))
        guard !words.isEmpty, numberWords.count == words.count,
              let best = NumberReader.readings(of: numberWords, tokens: words).first else { return nil }
        var diagnostics = Diagnostics()
        return flightNumberValue(best.digits, diagnostics: &diagnostics)
    }

    /// The flight number a digit string says, or nil (noting a string too long to be one).
    private static func flightNumberValue(_ digits: String, diagnostics: inout Diagnostics) -> Int? {
        let significant = digits.drop { $0 == "0" }
        guard significant.count <= 4 else {
            diagnostics.tooManyDigits = diagnostics.tooManyDigits ?? digits
            return nil
        }
        guard let value = Int(significant), value > 0 else { return nil }
        return value
    }

    /// Why no reading fitted, most specific reason first.
    private func diagnose(_ tokens: [Token], _ diagnostics: Diagnostics) -> NormalizationFailure {
        let unknown = tokens.filter { token in
            !token.isFiller && token.number == nil && token.letter == nil && !airlineNameWords.contains(token.text)
                && token.text != Lexicon.xRaySecondHalf && writtenParts(token, at: 0).isEmpty && !token.isWrittenICAODesignator
        }
        if !unknown.isEmpty { return .unrecognizedWords(unknown.map(\.text)) }
        if let digits = diagnostics.tooManyDigits { return .tooManyDigits(digits) }
        if let code = diagnostics.unknownICAO { return .unknownAirline(code) }
        if let words = diagnostics.strayWords { return .unrecognizedWords(words) }
        if let code = diagnostics.airlineCode { return .noNumber(airline: code) }
        if tokens.contains(where: { $0.number != nil && !$0.isFiller }) { return .noAirline }
        return .unrecognizedWords(tokens.filter { !$0.isFiller }.map(\.text))
    }
}

/// `base` raised to a small whole power.
private func pow(_ base: Double, _ exponent: Int) -> Double {
    (0..<exponent).reduce(1) { result, _ in result * base }
}
