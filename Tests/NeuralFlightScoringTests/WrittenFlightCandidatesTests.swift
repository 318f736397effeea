import FlightCore
import Testing
@testable import NeuralFlightScoring

@Suite("Written flight candidates")
struct WrittenFlightCandidatesTests {
    static let airlines = AirlineDirectory([
        Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss", spokenNames: ["swiss air"]),
        Airline(iata: "BA", icao: "BAW", name: "British Airways", callsign: "Speedbird", spokenNames: ["british"]),
        Airline(iata: "U2", icao: "EZY", name: "easyJet", callsign: "Easy", spokenNames: ["easy jet"]),
        Airline(iata: "TP", icao: "TAP", name: "TAP Air Portugal", callsign: "Air Portugal", spokenNames: ["tap", "tap portugal"]),
        Airline(iata: "SK", icao: "SAS", name: "Scandinavian Airlines", callsign: "Scandinavian", spokenNames: ["sas", "s a s"]),
    ])

    static func flight(_ text: String) -> FlightNumber { FlightNumber(parsing: text)! }

    /// The standard options with numbers in digits only and no "Flight", so that the airline forms read one to a number.
    static let digitsTogether = CandidateWritingOptions(numberStyles: [.roundNumberWords], flightWordAfterAirline: false)

    @Test("every form of a flight, as Whisper writes it")
    func formsOfOneFlight() {
        let writer = FlightCandidateWriter(airlines: Self.airlines, options: Self.digitsTogether)
        let candidates = writer.candidates(for: Self.flight("LX40"))
        #expect(candidates.map(\.text) == [" LX 40.", " L X 40.", " Lima X-ray 40.", " SWR 40.", " Swiss 40.", " Swiss Air 40."])
        #expect(candidates.map(\.form) == [.code, .spelledCode, .natoCode, .icaoCode, .name, .name])
        #expect(candidates.allSatisfy { $0.flight == Self.flight("LX40") })
        let speedbird = writer.candidates(for: Self.flight("BA287"))
        #expect(speedbird.map(\.text) == [" BA 287.", " B A 287.", " Bravo Alpha 287.", " BAW 287.", " British Airways 287.",
                                          " British 287.", " Speedbird 287."])
        #expect(speedbird.last?.form == .callsign)
    }

    @Test("a code with a digit is one word, or a NATO word and the digit")
    func digitCodes() {
        let writer = FlightCandidateWriter(airlines: Self.airlines, options: .init(forms: [.code, .spelledCode, .natoCode], numberStyles: [],
                                                                                       flightWordAfterAirline: false))
        #expect(writer.candidates(for: Self.flight("U21234")).map(\.text) == [" U2 1234.", " Uniform 2 1234."])
        #expect(writer.candidates(for: Self.flight("2L7")).map(\.text) == [" 2L 7.", " 2 Lima 7."])
    }

    @Test("the dotted spelling, when asked for")
    func dotted() {
        let writer = FlightCandidateWriter(airlines: Self.airlines, options: .init(forms: [.dottedCode], numberStyles: [], flightWordAfterAirline: false))
        #expect(writer.candidates(for: Self.flight("LX40")).map(\.text) == [" L.X. 40."])
        #expect(writer.candidates(for: Self.flight("U21234")).isEmpty)
        #expect(FlightCandidateWriter(airlines: Self.airlines).candidates(for: Self.flight("LX40")).allSatisfy { $0.form != .dottedCode })
    }

    @Test("a number is also written digit by digit, as Whisper writes one said that way")
    func separateDigits() {
        let texts = FlightCandidateWriter(airlines: Self.airlines, options: .init(forms: [.code, .spelledCode], numberStyles: .separateDigits,
                                                                                              flightWordAfterAirline: false))
            .candidates(for: Self.flight("LX40")).map(\.text)
        #expect(texts == [" LX 40.", " LX 4 0.", " L X 40.", " L X 4 0."])
        #expect(FlightCandidateWriter.writtenNumbers(9, styles: .separateDigits) == ["9"])
        #expect(FlightCandidateWriter.writtenNumbers(9559, styles: .separateDigits) == ["9559", "9 5 5 9"])
    }

    @Test("by default a number said with leading zeros is written with them, together and apart")
    func leadingZerosByDefault() {
        let texts = FlightCandidateWriter(airlines: Self.airlines, options: .init(forms: [.spelledCode], flightWordAfterAirline: false))
            .candidates(for: Self.flight("LX161")).map(\.text)
        #expect(texts == [" L X 161.", " L X 1 6 1.", " L X 0161.", " L X 0 1 6 1.", " L X one hundred sixty one."])
        #expect(FlightCandidateWriter.writtenNumbers(40, styles: [.leadingZeros, .separateDigits]) == ["40", "4 0", "040", "0 4 0", "0040", "0 0 4 0"])
        #expect(FlightCandidateWriter.writtenNumbers(1234, styles: CandidateWritingOptions.standard.numberStyles)
                == ["1234", "1 2 3 4", "one thousand two hundred thirty four"])
    }

    @Test("by default a run of one digit said \"double\" or \"triple\" is written so, the other digits as digits and as words")
    func repeatedDigitsByDefault() {
        let texts = FlightCandidateWriter(airlines: Self.airlines, options: .init(forms: [.code], flightWordAfterAirline: false))
            .candidates(for: Self.flight("LX556")).map(\.text)
        #expect(texts == [" LX 556.", " LX 5 5 6.", " LX double 5 6.", " LX double five six.", " LX 0556.", " LX 0 5 5 6.",
                          " LX 0 double 5 6.", " LX zero double five six.", " LX five hundred fifty six."])
        #expect(FlightCandidateWriter.writtenNumbers(1100, styles: .repeatedDigits)
                == ["1100", "1 1 double 0", "one one double zero", "double 1 0 0", "double one zero zero", "double 1 double 0", "double one double zero"])
        #expect(FlightCandidateWriter.writtenNumbers(777, styles: .repeatedDigits)
                == ["777", "7 double 7", "seven double seven", "double 7 7", "double seven seven", "triple 7", "triple seven"])
        #expect(FlightCandidateWriter.writtenNumbers(1234, styles: .repeatedDigits) == ["1234"])
        #expect(!FlightCandidateWriter.writtenNumbers(7, styles: .repeatedDigits).contains { $0.contains("double") },
                "without leading zeros, no \"double 0\" before a number")
    }

    @Test("an airline the directory does not know gets its code forms only")
    func unknownAirline() {
        let writer = FlightCandidateWriter(airlines: AirlineDirectory([]), options: .init(numberStyles: [], flightWordAfterAirline: false))
        #expect(writer.candidates(for: Self.flight("QQ5")).map(\.text) == [" QQ 5.", " Q Q 5.", " Quebec Quebec 5."])
    }

    @Test("spoken names take the airline's own casing", arguments: [
        ("TP", "tap portugal", "TAP Portugal"), ("TP", "tap", "TAP"), ("SK", "sas", "SAS"), ("SK", "s a s", "S A S"),
        ("U2", "easy jet", "Easy Jet"), ("LX", "swiss air", "Swiss Air"), ("BA", "british", "British"),
    ])
    func spokenNameCasing(code: String, spoken: String, written: String) {
        #expect(FlightCandidateWriter.written(spokenName: spoken, of: Self.airlines.airline(iata: code)!) == written)
    }

    @Test("numbers in digits, with leading zeros, round words and words with hundred or thousand when asked", arguments: [
        (40, CandidateWritingOptions.NumberStyles(), ["40"]),
        (40, .leadingZeros, ["40", "040", "0040"]),
        (40, .roundNumberWords, ["40"]),
        (287, [.leadingZeros, .roundNumberWords], ["287", "0287"]),
        (400, .roundNumberWords, ["400", "four hundred"]),
        (4400, .roundNumberWords, ["4400", "four thousand four hundred"]),
        (2000, .roundNumberWords, ["2000", "two thousand"]),
        (4900, .roundNumberWords, ["4900", "four thousand nine hundred"]),
        (1234, [.leadingZeros, .roundNumberWords], ["1234"]),
        (287, .scaleNumberWords, ["287", "two hundred eighty seven"]),
        (1714, .scaleNumberWords, ["1714", "one thousand seven hundred fourteen"]),
        (2001, .scaleNumberWords, ["2001", "two thousand one"]),
        (4056, .scaleNumberWords, ["4056", "four thousand fifty six"]),
        (4400, .scaleNumberWords, ["4400"]),
        (40, .scaleNumberWords, ["40"]),
        (1700, [.roundNumberWords, .scaleNumberWords], ["1700", "one thousand seven hundred"]),
        (9, .leadingZeros, ["9", "09", "009", "0009"]),
    ] as [(Int, CandidateWritingOptions.NumberStyles, [String])])
    func numbers(number: Int, styles: CandidateWritingOptions.NumberStyles, expected: [String]) {
        #expect(FlightCandidateWriter.writtenNumbers(number, styles: styles) == expected)
    }

    @Test("carrier phrases are the grammar's questions and subjects")
    func grammarCarriers() {
        let phrases = CarrierPhrase.grammarPhrases(inJSGF: SourceTree.grammar)
        #expect(phrases.contains(CarrierPhrase(before: "What's the gate for", ending: "?")))
        #expect(phrases.contains(CarrierPhrase(before: "Where is", ending: "?")))
        #expect(phrases.contains(CarrierPhrase(before: "I'm on", ending: ".")))
        #expect(phrases.contains(CarrierPhrase(before: "I am flying", ending: ".")))
        // 13 questions and 7 subjects today; every question ends in "?", every subject in ".".
        #expect(phrases.count == 20)
        #expect(phrases.filter { $0.ending == "?" }.count == 13)
        #expect(CarrierPhrase.grammarPhrases(inJSGF: "<other> = a | b;").isEmpty)
        #expect(CarrierPhrase.alternatives(ofRule: "question", inJSGF: "<question> = <x> | b;").isEmpty)
        #expect(CarrierPhrase.alternatives(ofRule: "question", inJSGF: "<question> = a b // note\n | c;") == [["a", "b"], ["c"]])
    }

    @Test("by default \"Flight\" between every airline form and the number, as Whisper writes it after a name")
    func flightWordAfterAirline() {
        let texts = FlightCandidateWriter(airlines: Self.airlines, options: .init(numberStyles: [])).candidates(for: Self.flight("BA287")).map(\.text)
        #expect(texts == [" BA 287.", " BA Flight 287.", " B A 287.", " B A Flight 287.", " Bravo Alpha 287.", " Bravo Alpha Flight 287.",
                          " BAW 287.", " BAW Flight 287.", " British Airways 287.", " British Airways Flight 287.",
                          " British 287.", " British Flight 287.", " Speedbird 287.", " Speedbird Flight 287."])
        #expect(CandidateWritingOptions.standard.flightWordAfterAirline)
    }

    @Test("carrier phrases and the word flight around the flight")
    func carriersAroundFlight() {
        let options = CandidateWritingOptions(forms: [.code, .callsign], numberStyles: [], carriers: [.bare, .flightWord, CarrierPhrase(before: "What's the gate for", ending: "?")])
        let texts = FlightCandidateWriter(airlines: Self.airlines, options: options).candidates(for: Self.flight("BA287")).map(\.text)
        #expect(texts == [" BA 287.", " BA Flight 287.", " Speedbird 287.", " Speedbird Flight 287.",
                          " Flight BA 287.", " Flight BA Flight 287.", " Flight Speedbird 287.", " Flight Speedbird Flight 287.",
                          " What's the gate for BA 287?", " What's the gate for BA Flight 287?",
                          " What's the gate for Speedbird 287?", " What's the gate for Speedbird Flight 287?"])
    }

    @Test("every candidate of the seed day reads back as its flight; every carrier phrase around a sample of them")
    func normalizerReadsEveryCandidate() {
        let day = SeedDay.day
        let normalizer = SpokenFlightNormalizer(airlines: day.airlines)
        let everyForm = CandidateWritingOptions(forms: WrittenAirlineForm.allCases, numberStyles: [.leadingZeros, .roundNumberWords, .repeatedDigits],
                                                carriers: [.bare, .flightWord])
        var withCarriers = everyForm
        withCarriers.carriers = CarrierPhrase.grammarPhrases(inJSGF: SourceTree.grammar)
        // Every 20th flight inside the grammar's 20 carrier phrases: a whole day is 200,000 texts.
        let sample = day.flights.enumerated().filter { $0.offset % 20 == 0 }.map(\.element)
        let candidates = FlightCandidateWriter(airlines: day.airlines, options: everyForm).candidates(for: day.flights)
            + FlightCandidateWriter(airlines: day.airlines, options: withCarriers).candidates(for: sample)
        var misread: [String] = []
        for candidate in candidates where normalizer.normalize(candidate.text).best?.flight != candidate.flight {
            misread.append("\(candidate.text) → \(normalizer.normalize(candidate.text).best?.flight.canonical ?? "nothing") (\(candidate.flight))")
        }
        #expect(misread.isEmpty, "\(misread.count) of \(candidates.count) misread, e.g. \(misread.prefix(10))")
        #expect(candidates.count > 10 * day.flights.count)
    }

    @Test("each seed flight has its code and NATO forms (and spelled ones, for letter codes); texts start with a space and end in .")
    func seedDayShape() {
        let day = SeedDay.day
        let candidates = FlightCandidateWriter(airlines: day.airlines).candidates(for: day.flights)
        let byFlight = Dictionary(grouping: candidates, by: \.flight)
        #expect(byFlight.count == day.flights.count)
        for (flight, forms) in byFlight {
            #expect(Set(forms.map(\.form)).isSuperset(of: [.code, .natoCode]), "\(flight)")
            #expect(forms.contains { $0.form == .spelledCode } == flight.airline.allSatisfy(\.isLetter), "\(flight)")
            #expect(Set(forms.map(\.text)).count == forms.count, "\(flight) has a duplicate text")
        }
        #expect(candidates.allSatisfy { $0.text.hasPrefix(" ") && $0.text.last == "." })
    }
}

@Suite("The carrier phrase of a free transcript")
struct CarrierMatchingTests {
    static let phrases = CarrierPhrase.grammarPhrases(inJSGF: SourceTree.grammar)

    @Test("a transcript that starts with a phrase of the grammar", arguments: [
        ("What's the gate for Alex 40?", "What's the gate for", "?"), ("what's the gate for flight LX 40", "What's the gate for flight", "."),
        ("Flight LX 40.", "Flight", "."), ("Where is LX 40?", "Where is", "?"), ("Where's Swiss 40?", "Where's", "?"),
        ("I'm on L.A.H. for 100.", "I'm on", "."), ("The gate for LX 40.", "The gate for", "."), ("Is LX 40 on time?", "Is", "?"),
        ("What is the gate, for BA 287?", "What is the gate for", "?"),
    ])
    func matches(transcript: String, before: String, ending: String) {
        #expect(CarrierPhrase.matching(freeTranscript: transcript, among: Self.phrases) == CarrierPhrase(before: before, ending: ending))
    }

    @Test("a transcript that starts with none", arguments: ["LX 40.", "Alex 40", "", "Gates of LX 40", "Whatever LX 40?"])
    func matchesNone(transcript: String) {
        #expect(CarrierPhrase.matching(freeTranscript: transcript, among: Self.phrases) == nil)
    }

    @Test("every start of a transcript with a phrase may still match; a start no phrase begins with never does", arguments: [
        " What's the gate for Alex 40?", " what's the gate for flight LX 40", "Flight LX 40.", " Where's Swiss 40?", " I'm on L.A.H. for 100.",
        " Is LX 40 on time?", " What is the gate, for BA 287?", " Um, LX 40.", " LX 40.", " Alex 40", " Gates of LX 40", " Whatever LX 40?",
        " I X 40.", " Speedbird 287.", " Swiss 40.",
    ])
    func startMayMatch(transcript: String) {
        let matches = CarrierPhrase.matching(freeTranscript: transcript, among: Self.phrases) != nil
        let starts = transcript.indices.map { String(transcript[..<$0]) } + [transcript]
        let undecided = starts.prefix { CarrierPhrase.mayMatch(freeTranscriptStart: $0, among: Self.phrases) }
        if matches {
            #expect(undecided.count == starts.count, "\"\(starts[min(undecided.count, starts.count - 1)])\" ruled the phrase out")
        } else {
            #expect(undecided.count < starts.count, "no start of \"\(transcript)\" ruled a phrase out")
        }
        #expect(CarrierPhrase.mayMatch(freeTranscriptStart: "", among: Self.phrases))
    }

    @Test("a start rules the phrases out at its first word no phrase begins with", arguments: [
        (" Alex 40", " A"), (" LX 40.", " L"), (" Speedbird 287.", " Sp"), (" Gates of LX 40", " Gates"), (" Whatever LX 40?", " Whate"),
    ])
    func ruledOutAt(transcript: String, start: String) {
        let starts = transcript.indices.map { String(transcript[..<$0]) } + [transcript]
        #expect(starts.first { !CarrierPhrase.mayMatch(freeTranscriptStart: $0, among: Self.phrases) } == start)
    }

    @Test("a carrier's tokens then the bare candidate's are the tokens of the whole text, for every grammar phrase")
    func tokensConcatenate() {
        let day = SeedDay.day
        let tokenizer = SourceTree.tokenizer
        let sample = day.flights.enumerated().filter { $0.offset % 25 == 0 }.map(\.element)
        for carrier in Self.phrases + [.flightWord] {
            let whole = FlightCandidateWriter(airlines: day.airlines, options: .init(carriers: [carrier])).candidates(for: sample)
            let bare = FlightCandidateWriter(airlines: day.airlines, options: .init(carriers: [CarrierPhrase(before: "", ending: carrier.ending)]))
                .candidates(for: sample)
            #expect(whole.map(\.text) == bare.map { " " + carrier.before + $0.text })
            let prefix = tokenizer.encode(" " + carrier.before)
            for (with, without) in zip(whole, bare) where tokenizer.encode(with.text) != prefix + tokenizer.encode(without.text) {
                Issue.record("\(with.text) does not tokenise as its carrier then \(without.text)")
            }
        }
    }
}
