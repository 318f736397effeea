import FlightCore
import Foundation

/// How a written candidate names the airline of its flight.
public enum WrittenAirlineForm: String, Sendable, Codable, CaseIterable, Hashable {
    /// The IATA code as one word: "LX 40".
    case code
    /// The code spelled letter by letter: "L X 40" (codes of letters only; "U2 1234" is the code form).
    case spelledCode = "spelled_code"
    /// The code's letters with full stops, as Whisper writes spelled letters it does not know as a word ("L.A.H. for
    /// 100" in the issue's probe): "L.X. 40" (codes of letters only). Not in the standard forms: measure it first.
    case dottedCode = "dotted_code"
    /// The code in the NATO alphabet: "Lima X-ray 40" (a digit of the code stays a digit: "Uniform 2 1234").
    case natoCode = "nato_code"
    /// The ICAO code as one word: "SWR 40".
    case icaoCode = "icao_code"
    /// The airline's name or another name people say for it: "Swiss 40", "British Airways 287", "Swiss Air 40".
    case name
    /// The radio callsign, where it differs from every name: "Speedbird 287".
    case callsign
}

/// One of today's flights written as Whisper would transcribe it: a leading space, then the text, then the end
/// punctuation (" LX 40.", " What's the gate for Swiss 40?").
public struct WrittenFlightCandidate: Sendable, Hashable {
    /// The flight the text names.
    public let flight: FlightNumber
    /// How the text names the airline.
    public let form: WrittenAirlineForm
    /// The text as the decoder should be forced through it, leading space included.
    public let text: String

    public init(flight: FlightNumber, form: WrittenAirlineForm, text: String) {
        self.flight = flight
        self.form = form
        self.text = text
    }

    /// The end punctuation of its text ("." or "?"); empty when it has none.
    var endPunctuation: String {
        [CarrierPhrase.statementEnding, CarrierPhrase.questionEnding].first { text.hasSuffix($0) } ?? ""
    }

    /// Its text in three: what comes before its number (" Lima X-ray "), the number as written ("400", the longest of
    /// its written ways of `numberStyles` the text ends in) and the end punctuation ("."); nil when the text does not
    /// end in one of them.
    func textParts(numberStyles: CandidateWritingOptions.NumberStyles) -> (beforeNumber: String, number: String, ending: String)? {
        let ending = endPunctuation
        let body = text.dropLast(ending.count)
        let ownNumbers = FlightCandidateWriter.writtenNumbers(flight.number, styles: numberStyles)
        guard let number = ownNumbers.filter({ body.hasSuffix(" " + $0) }).max(by: { $0.count < $1.count }) else { return nil }
        return (String(body.dropLast(number.count)), number, ending)
    }
}

/// Words of the grammar's carrier phrases written around a flight: " What's the gate for LX 40?".
public struct CarrierPhrase: Sendable, Hashable {
    /// The words before the flight as written ("What's the gate for"); empty for a bare flight.
    public let before: String
    /// The punctuation that ends the transcript: "?" after a question, else ".".
    public let ending: String

    public init(before: String, ending: String) {
        self.before = before
        self.ending = ending
    }

    /// Punctuation Whisper ends a statement with.
    public static let statementEnding = "."
    /// Punctuation Whisper ends a question with.
    public static let questionEnding = "?"

    /// The flight alone: " LX 40.".
    public static let bare = CarrierPhrase(before: "", ending: statementEnding)
    /// The grammar's optional word before the flight: " Flight LX 40.".
    public static let flightWord = CarrierPhrase(before: written([SpokenVocabulary.flightWord]), ending: statementEnding)

    /// The phrases the grammar lets a traveller say before a flight, read from its JSGF text (`grammar/flight-query.jsgf`,
    /// `FlightGrammar.baseGrammar`): each alternative of `<question>` (ending "?") and of `<subject>` (ending "."),
    /// written with a capital first letter ("What's the gate for", "I'm on"). Their combinations ("what about my
    /// flight is") are left out: each phrase costs a copy of the whole token tree. Empty when the rules are missing.
    public static func grammarPhrases(inJSGF jsgf: String) -> [CarrierPhrase] {
        let questions = alternatives(ofRule: "question", inJSGF: jsgf).map { CarrierPhrase(before: written($0), ending: questionEnding) }
        let subjects = alternatives(ofRule: "subject", inJSGF: jsgf).map { CarrierPhrase(before: written($0), ending: statementEnding) }
        var seen = Set<CarrierPhrase>()
        return (questions + subjects).filter { seen.insert($0).inserted }
    }

    /// The phrase among `phrases` (and the word "flight" after it, or alone) that `transcript` starts with, in
    /// words, ignoring case and punctuation ("What's the gate for Alex 40?" → "What's the gate for"), longest first;
    /// ending as the transcript does ("?" or "."). Nil when it starts with none: score the bare candidates then.
    ///
    /// Scoring every carrier phrase costs a copy of the whole tree per phrase; scoring the one the free decode heard
    /// costs its few tokens (`TrieScorer.score(_:with:after:ending:)`), with the matching ending.
    public static func matching(freeTranscript transcript: String, among phrases: [CarrierPhrase]) -> CarrierPhrase? {
        let words = comparableWords(transcript)
        let flight = SpokenVocabulary.flightWord
        var best: (phrase: [String], written: String)?
        for phrase in phrases + [CarrierPhrase(before: "", ending: statementEnding)] {
            var phraseWords = comparableWords(phrase.before)
            guard words.starts(with: phraseWords) else { continue }
            var written = phrase.before
            if words.dropFirst(phraseWords.count).first == flight {
                phraseWords.append(flight)
                written = written.isEmpty ? CarrierPhrase.flightWord.before : written + " " + flight
            }
            if !phraseWords.isEmpty, phraseWords.count > best?.phrase.count ?? 0 { best = (phraseWords, written) }
        }
        guard let best else { return nil }
        let ending = transcript.trimmingCharacters(in: .whitespaces).hasSuffix(questionEnding) ? questionEnding : statementEnding
        return CarrierPhrase(before: best.written, ending: ending)
    }

    /// Whether a free transcript that begins with `start` (its last word perhaps unfinished) may still start with one
    /// of `phrases` or with "flight", however it goes on; false means `matching` will find none in the whole transcript.
    /// Lets the free decode's tokens ride in the walk of the bare candidates before it has finished.
    public static func mayMatch(freeTranscriptStart start: String, among phrases: [CarrierPhrase]) -> Bool {
        let words = comparableWords(start)
        let phrasesInWords = phrases.map { comparableWords($0.before) } + [[SpokenVocabulary.flightWord]]
        return phrasesInWords.contains { phrase in
            guard !phrase.isEmpty else { return false }
            for (index, word) in words.enumerated() {
                guard index < phrase.count else { return true }
                let isLast = index == words.count - 1
                guard isLast ? phrase[index].hasPrefix(word) : phrase[index] == word else { return false }
            }
            return true
        }
    }

    /// Lower-case words without punctuation, apostrophes dropped: "What's the gate, for" → ["whats", "the", "gate", "for"].
    private static func comparableWords(_ text: String) -> [String] {
        text.lowercased().filter { $0 != "'" && $0 != "’" }
            .split { !$0.isLetter && !$0.isNumber }
            .map(String.init)
    }

    /// The alternatives of a rule made only of words and `|`, possibly over several lines:
    /// `<question> = what's the gate for | which gate is;` → [["what's", "the", "gate", "for"], ["which", "gate", "is"]].
    /// Empty when the rule is missing or refers to other rules.
    static func alternatives(ofRule name: String, inJSGF jsgf: String) -> [[String]] {
        let code = jsgf.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.components(separatedBy: "//")[0] }
            .joined(separator: " ")
        // The definition, not a reference: the name followed by "=" (references come first in the file).
        var searchStart = code.startIndex
        var definition: (equals: String.Index, end: String.Index)?
        while definition == nil, let head = code.range(of: "<\(name)>", range: searchStart..<code.endIndex) {
            searchStart = head.upperBound
            if let equals = code[head.upperBound...].firstIndex(where: { !$0.isWhitespace }), code[equals] == "=",
               let end = code[equals...].firstIndex(of: ";") {
                definition = (equals, end)
            }
        }
        guard let (equals, end) = definition else { return [] }
        let body = code[code.index(after: equals)..<end]
        guard !body.contains(where: { "<>()[]{}*+".contains($0) }) else { return [] }
        return body.split(separator: "|").map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }.filter { !$0.isEmpty }
    }

    /// Words written as a sentence starts: first letter capital, the pronoun "I" capital ("i'm on" → "I'm on").
    static func written(_ words: [String]) -> String {
        let cased = words.map { word in
            word == "i" || word.hasPrefix("i'") ? "I" + word.dropFirst() : word
        }.joined(separator: " ")
        return cased.prefix(1).uppercased() + cased.dropFirst()
    }
}

/// Which ways of writing a flight become candidates. Every way costs decoder evaluations (one per new node of the
/// token tree), so the defaults are the ways Whisper tends to write.
public struct CandidateWritingOptions: Sendable, Hashable {
    /// Which ways of writing a number become candidates, beside its digits ("40").
    public struct NumberStyles: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// The digit-by-digit forms with leading zeros the grammar accepts: "040", "0040" (said "zero four zero"), and
        /// with `separateDigits` also apart ("0 4 0"). Without them the neural pass's first flight was right on 20 of 39
        /// human dev queries said that way ("l x oh one six one" read "L X 1 0 1 6."), with them on 32 (2026-12-06).
        public static let leadingZeros = NumberStyles(rawValue: 1 << 0)
        /// Round hundreds and thousands in words, as Whisper sometimes writes them: "four hundred", "two thousand".
        public static let roundNumberWords = NumberStyles(rawValue: 1 << 1)
        /// Each digit apart, as Whisper writes a number said digit by digit: "9 5 5 9". Without it, "E W nine five five
        /// nine", transcribed freely as "E W 9 5 5 9", was scored as EW 9551 (human dev voices, 2026-12-03).
        public static let separateDigits = NumberStyles(rawValue: 1 << 2)
        /// Runs of a digit said "double" or "triple" as the grammar accepts them, written as Whisper writes them, the
        /// word and the other digits as digits or as words: "double 5 6", "double five six". Without them the neural
        /// pass's first flight was right on 15 of the 33 training and dev queries said that way ("swiss air double one
        /// seven one" read "Swiss Air 1 1 7 1."), with them on 20, the other 160 of a probe unchanged (2026-12-06).
        public static let repeatedDigits = NumberStyles(rawValue: 1 << 3)
        /// Numbers said with "hundred" or "thousand" and more after it, in words as said: "seven hundred twenty five",
        /// "one thousand seven hundred fourteen". Without them such a query had only the digits ("1714") against the
        /// round words of other flights ("one thousand one hundred"), which its "thousand" and "hundred" drew it to.
        public static let scaleNumberWords = NumberStyles(rawValue: 1 << 4)
    }

    /// The ways to name the airline.
    public var forms: [WrittenAirlineForm]
    /// Ways of writing the number beside its digits.
    public var numberStyles: NumberStyles
    /// The carrier phrases around each flight; each one adds a copy of every candidate.
    public var carriers: [CarrierPhrase]
    /// Also write the grammar's optional "flight" between the airline and the number, as Whisper writes it after a
    /// name ("Japan Airlines Flight 88."): "LX Flight 40", "Swiss Flight 40". Without it "Air France flight one twenty
    /// three" could only be scored as a number said with the word in it ("Air France 1123."); on espeak-ng dev voices
    /// saying the word (2026-12-06), the neural pass's first flight was right on 19 and 14 of 25 code forms (clean,
    /// 10 dB) without it, 23 and 18 with it, and on 23 and 21 of 30 names without, 26 and 22 with; the same on queries
    /// without the word. Whisper's "Flight" led its "flight" there: written capitalised only.
    public var flightWordAfterAirline: Bool

    /// The ways to name an airline in `standard`: all but `dottedCode`.
    public static let standardForms: [WrittenAirlineForm] = [.code, .spelledCode, .natoCode, .icaoCode, .name, .callsign]

    public init(forms: [WrittenAirlineForm] = standardForms, numberStyles: NumberStyles = [.leadingZeros, .roundNumberWords, .scaleNumberWords, .separateDigits, .repeatedDigits],
                carriers: [CarrierPhrase] = [.bare], flightWordAfterAirline: Bool = true) {
        self.forms = forms
        self.numberStyles = numberStyles
        self.carriers = carriers
        self.flightWordAfterAirline = flightWordAfterAirline
    }

    /// The standard airline forms, digits (together and apart, with and without leading zeros), round number words and
    /// runs said "double" or "triple", each with and without "Flight" before the number, no carrier phrase: what
    /// Whisper writes for a flight said alone.
    public static let standard = CandidateWritingOptions()
}

/// Writes today's flights as Whisper transcribes them, in every way a traveller names them, from the same tables the
/// recognizer's grammar is built from: `Airline` (codes, name, callsign, spoken names), `SpokenVocabulary` (NATO
/// words, the word "flight") and `SpokenNumberForms` (the ways to say a number). Pure and `Sendable`.
///
/// Casing: codes upper case ("LX"), NATO words capitalised ("Lima X-ray"), names as the airline table writes them
/// ("easyJet", "KLM"); spoken names, stored lower case, take the casing of the same word in the name, callsign or
/// ICAO code ("tap portugal" → "TAP Portugal", "sas" → "SAS"), else a capital first letter ("swiss air" → "Swiss Air").
/// Numbers are written in digits ("LX 40", never "LX forty"): Whisper writes flight numbers that way.
public struct FlightCandidateWriter: Sendable {
    /// The airlines, for their names and codes; a flight of an airline not listed gets its code forms only.
    public let airlines: AirlineDirectory
    public let options: CandidateWritingOptions

    public init(airlines: AirlineDirectory, options: CandidateWritingOptions = .standard) {
        self.airlines = airlines
        self.options = options
    }

    /// Every candidate of every flight, flight by flight in the order given, without duplicate texts for one flight.
    public func candidates(for flights: [FlightNumber]) -> [WrittenFlightCandidate] {
        flights.flatMap(candidates(for:))
    }

    /// Every candidate of one flight, without duplicate texts.
    public func candidates(for flight: FlightNumber) -> [WrittenFlightCandidate] {
        let numbers = Self.writtenNumbers(flight.number, styles: options.numberStyles)
        var seen = Set<String>()
        var result: [WrittenFlightCandidate] = []
        for carrier in options.carriers {
            for (form, airlineText) in airlinePhrases(flight.airline) {
                for number in numbers {
                    var cores = [airlineText + " " + number]
                    if options.flightWordAfterAirline { cores.append(airlineText + " " + Self.writtenFlightWord + " " + number) }
                    for core in cores {
                        let text = " " + (carrier.before.isEmpty ? core : carrier.before + " " + core) + carrier.ending
                        if seen.insert(text).inserted { result.append(WrittenFlightCandidate(flight: flight, form: form, text: text)) }
                    }
                }
            }
        }
        return result
    }

    /// The grammar's "flight" as Whisper writes it between an airline and its number: "Flight".
    public static let writtenFlightWord = CarrierPhrase.flightWord.before

    /// The ways to write the airline `code`, by form, in the order of `options.forms`, without repeating a text.
    func airlinePhrases(_ code: String) -> [(WrittenAirlineForm, String)] {
        let airline = airlines.airline(iata: code)
        var seen = Set<String>()
        var phrases: [(WrittenAirlineForm, String)] = []
        for form in options.forms {
            for text in Self.phrases(form, code: code, airline: airline) where seen.insert(text.lowercased()).inserted {
                phrases.append((form, text))
            }
        }
        return phrases
    }

    /// The texts of one form for an airline.
    private static func phrases(_ form: WrittenAirlineForm, code: String, airline: Airline?) -> [String] {
        switch form {
        case .code:
            return [code]
        case .spelledCode:
            // A code with a digit is written as one word ("U2", "A3"): spelled, "A 3 850" reads as a number.
            guard code.allSatisfy(\.isLetter) else { return [] }
            return [spacedApart(code)]
        case .dottedCode:
            guard code.allSatisfy(\.isLetter) else { return [] }
            return [code.map { "\($0)." }.joined()]
        case .natoCode:
            return [code.map { character in
                SpokenVocabulary.natoWords[character].map(capitalised) ?? String(character)
            }.joined(separator: " ")]
        case .icaoCode:
            return [airline?.icao].compactMap { $0 }
        case .name:
            guard let airline else { return [] }
            return [airline.name] + airline.spokenNames.map { written(spokenName: $0, of: airline) }
        case .callsign:
            return [airline?.callsign].compactMap { $0 }
        }
    }

    /// A lower-case spoken name with the casing of the airline's own words (see the type's summary).
    static func written(spokenName: String, of airline: Airline) -> String {
        let known = ([airline.name] + [airline.callsign, airline.icao].compactMap { $0 })
            .flatMap { $0.split(separator: " ").map(String.init) }
        return spokenName.split(separator: " ").map { word -> String in
            if let match = known.first(where: { $0.lowercased() == word.lowercased() }) { return match }
            if word.count == 1 { return word.uppercased() }
            return capitalised(String(word))
        }.joined(separator: " ")
    }

    /// "x-ray" → "X-ray".
    private static func capitalised(_ word: String) -> String { word.prefix(1).uppercased() + word.dropFirst() }

    /// The ways to write `number`, digits first ("40"), then those `styles` add, from the spoken forms of
    /// `SpokenNumberForms`: a digit-by-digit form with leading zeros as its digits ("040"), one with "double" or
    /// "triple" in its words ("double 5 6", "double five six"), a form with "hundred" or "thousand" in words, round
    /// ("four hundred", "two thousand") or going on after them ("two hundred eighty seven"); the other forms ("forty",
    /// "two eighty seven", "forty four hundred") are written as the digits.
    public static func writtenNumbers(_ number: Int, styles: CandidateWritingOptions.NumberStyles) -> [String] {
        var written = [String(number)]
        if styles.contains(.separateDigits), number >= 10 { written.append(spacedApart(String(number))) }
        for form in SpokenNumberForms.forms(of: number) {
            guard let digits = digitString(of: form) else {
                if (styles.contains(.roundNumberWords) && isRoundInWords(form)) || (styles.contains(.scaleNumberWords) && saysScaleAndMore(form)) {
                    written.append(inWords(form, digitsAsWords: true))
                }
                continue
            }
            if digits.hasPrefix("0"), !styles.contains(.leadingZeros) { continue }
            if saysRepeats(form) {
                guard styles.contains(.repeatedDigits) else { continue }
                written.append(inWords(form, digitsAsWords: false))
                written.append(inWords(form, digitsAsWords: true))
            } else if digits.hasPrefix("0") {
                written.append(digits)
                if styles.contains(.separateDigits) { written.append(spacedApart(digits)) }
            }
        }
        var seen = Set<String>()
        return written.filter { seen.insert($0).inserted }
    }

    /// A form's words, its digits in words or as digits: "four hundred", "double 5 6".
    private static func inWords(_ form: [SpokenNumberToken], digitsAsWords: Bool) -> String {
        form.map { token in
            switch token {
            case .word(let word): word
            case .digit(let digit): digitsAsWords ? SpokenVocabulary.digitWords[digit] : String(digit)
            }
        }.joined(separator: " ")
    }

    /// Whether a form says a run of one digit with "double" or "triple".
    private static func saysRepeats(_ form: [SpokenNumberToken]) -> Bool {
        form.contains { if case .word(let word) = $0 { SpokenVocabulary.repeaters[word] != nil } else { false } }
    }

    /// Each character a word of its own: "LX" → "L X", "0161" → "0 1 6 1".
    private static func spacedApart(_ text: String) -> String { text.map(String.init).joined(separator: " ") }

    /// The words that scale the digit before them.
    private static let scales = [SpokenVocabulary.hundred, SpokenVocabulary.thousand]

    /// True for a form that ends in "hundred" or "thousand" and says its other parts as single digits ("four
    /// hundred", "four thousand four hundred"), not pairs ("forty four hundred": Whisper writes 4400, and the
    /// normalizer does not read it).
    private static func isRoundInWords(_ form: [SpokenNumberToken]) -> Bool {
        guard case .word(let last) = form.last, scales.contains(last) else { return false }
        return form.allSatisfy { token in
            if case .word(let word) = token { return scales.contains(word) }
            return true
        }
    }

    /// True for a form with "hundred" or "thousand" that goes on after it ("two hundred eighty seven", "two thousand one").
    private static func saysScaleAndMore(_ form: [SpokenNumberToken]) -> Bool {
        guard let lastScale = form.lastIndex(where: { if case .word(let word) = $0 { scales.contains(word) } else { false } }) else { return false }
        return lastScale < form.index(before: form.endIndex)
    }

    /// The digits a digit-by-digit form says ("double four" → "44", "zero four zero" → "040"); nil for other forms.
    private static func digitString(of form: [SpokenNumberToken]) -> String? {
        var digits = ""
        var repetitions = 1
        for token in form {
            switch token {
            case .digit(let digit):
                digits += String(repeating: String(digit), count: repetitions)
                repetitions = 1
            case .word(let word):
                guard let count = SpokenVocabulary.repeaters[word] else { return nil }
                repetitions = count
            }
        }
        return digits
    }
}
