import FlightCore
import Foundation
@testable import Recognizer
import Testing

@Suite("Grammar generation")
struct FlightGrammarTests {
    static let tiny = FlightVocabulary(
        airlines: AirlineDirectory([Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss", spokenNames: ["swiss air"])]),
        flights: [FlightNumber(parsing: "LX40")!, FlightNumber(parsing: "LX287")!])

    @Test func aNumberIsContinuedByTheLongerNumbersOfAnyAirlineThatStartWithIt() {
        let day = FlightVocabulary(airlines: Self.tiny.airlines, flights: ["LX40", "LX287", "AZ2871"].map { FlightNumber(parsing: $0)! })
        #expect([4, 2, 28, 287].allSatisfy(day.continuesSomeFlight))
        #expect(![40, 2871, 3, 41, 8].contains(where: day.continuesSomeFlight))
    }

    @Test(arguments: [
        ("lima x-ray one five", true), ("l x one five", true), ("swiss flight one five", true), ("l x fifteen", false),
        ("l x one five four", false), ("l x one five please", false), ("l x four zero", true), ("l x four oh", true),
        // "forty" starts "forty one" (LX 41) and "four" starts "four hundred", but no one pauses inside those.
        ("l x forty", false), ("l x four", true), ("l x one", true), ("l x", false), ("one five", false), ("", false),
    ])
    func wordsEndInsideANumberWhenTheyStartAWayToSayALongerOneOfTheirAirline(hypothesis: String, inside: Bool) {
        let day = FlightGrammar(vocabulary: FlightVocabulary(airlines: Self.tiny.airlines,
                                                             flights: ["LX15", "LX154", "LX40", "LX41", "LX400"].map { FlightNumber(parsing: $0)! }))
        #expect(day.endsInsideNumber(hypothesis) == inside)
    }

    @Test("the grammar of a tiny day matches the golden file")
    func golden() throws {
        let grammar = FlightGrammar(vocabulary: Self.tiny)
        let generated = String(grammar.jsgf.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("// Generated") }.joined(separator: "\n"))
        let golden = try String(contentsOfFile: TestFlights.fixtures + "/tiny-grammar.golden.jsgf", encoding: .utf8)
        #expect(generated.trimmingCharacters(in: .newlines) == golden.trimmingCharacters(in: .newlines))
        #expect(grammar.jsgf.hasPrefix(FlightGrammar.baseGrammar.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("the decoder accepts the generated grammar")
    func decoderAccepts() throws {
        let recognizer = try FlightRecognizer(vocabulary: Self.tiny)
        #expect(recognizer.grammar.words.contains("forty"))
    }

    @Test("spoken number forms", arguments: [
        (40, "forty"), (40, "four zero"), (40, "four oh"), (40, "zero zero four zero"),
        (287, "two eight seven"), (287, "two eighty seven"), (287, "two hundred eighty seven"),
        (1234, "twelve thirty four"), (1234, "one two three four"), (1901, "nineteen oh one"),
        (900, "nine hundred"), (900, "nine oh oh"), (900, "nine double oh"), (777, "triple seven"), (1222, "one triple two"),
        (1222, "one two double two"), (1222, "one double two two"), (4400, "forty four hundred"),
        (2001, "two thousand one"), (2001, "twenty oh one"), (442, "zero four four two"), (9, "niner"),
    ])
    func numberForms(number: Int, spoken: String) {
        let airline = AirlineDirectory([Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss")])
        let grammar = FlightGrammar(vocabulary: FlightVocabulary(airlines: airline, flights: [FlightNumber(airline: "LX", number: number)!]))
        #expect(grammar.flights(in: "l x " + spoken) == [FlightNumber(airline: "LX", number: number)!])
        #expect(grammar.flights(in: "what's the gate for swiss flight " + spoken + " please") == [FlightNumber(airline: "LX", number: number)!])
    }

    @Test("words name only today's flights")
    func readsOnlyToday() {
        let grammar = FlightGrammar(vocabulary: Self.tiny)
        #expect(grammar.flights(in: "lima x-ray four zero") == [FlightNumber(parsing: "LX40")!])
        #expect(grammar.flights(in: "sierra whiskey romeo forty") == [FlightNumber(parsing: "LX40")!])
        #expect(grammar.flights(in: "l x forty one").isEmpty)
        #expect(grammar.flights(in: "where is the exit").isEmpty)
    }

    @Test("a grammar less some flights is the grammar built without them", arguments: [
        ["LX40"], ["BA287"], ["LX40", "LX1234", "LX3287"], ["U2812", "LH400"], ["AF123"], [],
    ])
    func excluding(flights: [String]) {
        let excluded = Set(flights.map { FlightNumber(parsing: $0)! })
        let derived = FlightGrammar(vocabulary: TestFlights.vocabulary).excluding(excluded)
        let built = FlightGrammar(vocabulary: FlightVocabulary(airlines: TestFlights.airlines,
                                                               flights: TestFlights.flights.filter { !excluded.contains($0) }))
        #expect(derived.jsgf == built.jsgf)
        #expect(derived.words == built.words)
        for text in ["l x forty", "lima x-ray four zero", "swiss twelve thirty four", "speedbird two eight seven",
                     "what's the gate for easy eight one two please", "l h four hundred", "l x three two eight seven"] {
            #expect(derived.flights(in: text) == built.flights(in: text), "\(text)")
        }
    }

    @Test("every grammar word is one the shared vocabulary or the airline directory explains")
    func vocabularyIsReadable() {
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary)
        for word in grammar.words { #expect(Self.normalizerKnows(word), "\(word) is not in the shared vocabulary") }
    }

    /// True for a word the normalizer reads: a carrier word, an airline's name word, a number, letter or repeater word.
    static func normalizerKnows(_ word: String) -> Bool {
        let names = Set(TestFlights.airlines.airlines.flatMap { $0.allSpokenNames.flatMap(FlightGrammar.nameWords) })
        return SpokenVocabulary.carrierWords.contains(word.replacingOccurrences(of: "'", with: "")) || names.contains(word)
            || SpokenVocabulary.value(ofNumberWord: word) != nil || SpokenVocabulary.letter(ofSpelledWord: word) != nil
            || SpokenVocabulary.letterHomophones[word] != nil || SpokenVocabulary.repeaters[word] != nil
            || [SpokenVocabulary.hundred, SpokenVocabulary.thousand, "flight"].contains(word)
    }

    @Test("the open grammar names every airline of the directory and reads any number, for the normalizer to read back")
    func openGrammar() {
        let grammar = OpenFlightGrammar(airlines: TestFlights.airlines)
        for airline in TestFlights.airlines.airlines {
            for name in airline.allSpokenNames.map(FlightGrammar.nameWords) where !name.isEmpty {
                #expect(grammar.jsgf.contains(" | " + name.joined(separator: " ")), "\(name) missing")
            }
        }
        #expect(grammar.jsgf.contains("<flight> = <open_airline> [flight] <open_number>;"))
        for word in grammar.words { #expect(Self.normalizerKnows(word), "\(word) is not in the shared vocabulary") }
    }

    @Test("the open grammar's number is read from its words whatever airline they name, a code's digit left out", arguments: [
        ("l x forty", 40),
        ("uh flight b oh ten oh five please", 1005),
        ("s i zero three one three", 313),
        ("u eight five five", 55),
        ("m seven six five five eight", 6558),
        ("when is two v oh seven eight eight", 788),
        ("lima o t two four four two thank you", 2442),
        ("a zed seventy seven", 77),
        ("eight b flight nine hundred eight", 908),
        ("u two forty", 40),
        ("i'm on s q seventeen oh two", 1702),
    ])
    func openGrammarNumber(words: String, number: Int) {
        #expect(OpenFlightGrammar.number(in: words) == number)
    }

    @Test("an open reading without number words has no number", arguments: ["", "uh l x please", "swiss"])
    func openGrammarWithoutNumber(words: String) {
        #expect(OpenFlightGrammar.number(in: words) == nil)
    }

    @Test("pronunciations for missing words come from dictionary pieces, then spelling rules")
    func pronouncer() {
        let dictionary = ["speed": "S P IY D", "bird": "B ER D", "easy": "IY Z IY", "jet": "JH EH T", "k": "K EY", "l": "EH L", "m": "EH M"]
        #expect(Pronouncer.phones(for: "speedbird") { dictionary[$0] } == "S P IY D B ER D")
        #expect(Pronouncer.phones(for: "klm") { dictionary[$0] } == "K EY EH L EH M")
        #expect(Pronouncer.phones(for: "shamrock") { dictionary[$0] } == "SH AE M R AA K")
    }
}

@Suite("Grammar and normalizer agree")
struct GrammarNormalizerAgreementTests {
    @Test("the normalizer reads every spoken form the grammar generates as the same flight")
    func normalizerReadsGrammarForms() {
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary)
        let normalizer = SpokenFlightNormalizer(airlines: TestFlights.airlines)
        var checked = 0
        for flight in TestFlights.vocabulary.flights {
            let airline = TestFlights.airlines.airline(iata: flight.airline)
            for name in FlightGrammar.namePhrases(code: flight.airline, airline: airline) {
                for form in GrammarToken.numberForms(of: flight.number) {
                    for phrase in [name + form, [.word("what's"), .word("the"), .word("gate"), .word("for")] + name + form + [.word("please")]] {
                        for spelling in FlightGrammar.spellings(of: phrase) {
                            let text = spelling.joined(separator: " ")
                            #expect(grammar.flights(in: text) == [flight], "grammar reading of \(text)")
                            let best = normalizer.normalize(text).best?.flight
                            #expect(best == flight, "normalizer read \(text) as \(best?.canonical ?? "nothing")")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 1000)
    }

    @Test("a letter or digit is read back in every way the grammar file lets it be spoken")
    func ruleAlternatives() {
        let rules = FlightGrammar.ruleAlternatives(in: FlightGrammar.baseGrammar)
        #expect(rules["letter_z"] == [["z"], ["zed"], ["zulu"]])
        #expect(rules["digit_0"] == [["zero"], ["oh"]])
        for letter in "abcdefghijklmnopqrstuvwxyz" { #expect(rules["letter_\(letter)"]?.isEmpty == false, "letter \(letter)") }
        for digit in 0...9 { #expect(rules["digit_\(digit)"]?.isEmpty == false, "digit \(digit)") }
        #expect(rules["query"] == nil, "rules that reference others are not word lists")
    }
}

@Suite("Decoding passes")
struct DecodingPassTests {
    /// A pass of the test day's grammar, and that grammar.
    static func todaysGrammarPass() throws -> (GrammarPass, FlightGrammar) {
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary)
        let pass = GrammarPass(decoder: try PocketSphinxDecoder(arguments: RecognizerConfiguration().commonArguments, verbose: false))
        var pronunciations: [String: String] = [:]
        try pass.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &pronunciations)
        return (pass, grammar)
    }

    @Test("a pass fed a clip in chunks, whole-utterance, reads exactly what it reads when fed the clip at once")
    func chunkedFeedingIsWholeDecoding() throws {
        let (pass, grammar) = try Self.todaysGrammarPass()
        let samples = try TestFlights.samples("lx40.wav")
        let whole = try pass.decode(samples)
        try pass.begin()
        for start in stride(from: 0, to: samples.count, by: 777) { try pass.feed(samples[start..<min(samples.count, start + 777)]) }
        let chunked = try pass.end()
        #expect(whole.hasPath && grammar.flights(in: whole.text) == [FlightNumber(parsing: "LX40")!], "heard \"\(whole.text)\"")
        #expect(chunked.text == whole.text && chunked.pathScore == whole.pathScore)
        #expect(chunked.words.map(\.endFrame) == whole.words.map(\.endFrame))
    }

    @Test("fed incrementally, a pass hears the flight while the audio streams in")
    func incrementalFeedingGivesPartials() throws {
        let (pass, grammar) = try Self.todaysGrammarPass()
        let samples = try TestFlights.samples("lx40.wav")
        try pass.begin(feeding: .incremental)
        var partials: [String] = []
        for start in stride(from: 0, to: samples.count, by: 1024) {
            try pass.feed(samples[start..<min(samples.count, start + 1024)])
            if let text = pass.partialText, !text.isEmpty { partials.append(text) }
        }
        let final = try pass.end()
        #expect(!partials.isEmpty)
        #expect(grammar.flights(in: final.text) == [FlightNumber(parsing: "LX40")!], "heard \"\(final.text)\"")
    }

    @Test("feeding without beginning is an error, not a crash")
    func feedWithoutBegin() throws {
        let pass = PhoneLoopPass(decoder: try PocketSphinxDecoder(arguments: RecognizerConfiguration().commonArguments, verbose: false))
        #expect(throws: RecognizerError.self) { try pass.feed([1, 2, 3][...]) }
    }
}
