import Testing
import FlightCore

/// How candidates are ranked and scored, and what each token was read as.
@Suite("Candidate ranking and readings")
struct CandidateRankingTests {
    let normalizer = TestAirlines.normalizer

    func candidates(_ text: String) -> [FlightCandidate] {
        guard case .understood(let candidates) = normalizer.normalize(text) else { return [] }
        return candidates
    }

    @Test("unambiguous input gives exactly one candidate scored 1", arguments: [
        "L X forty", "Swiss forty", "SWR40", "lx 040", "what's the gate for B A two eight seven", "four U eight one two", "U two one two three four",
        "E Z Y two one", "I'm on S Q seventeen", "Q Q forty", "L X forty four",
    ])
    func unambiguous(text: String) {
        let found = candidates(text)
        #expect(found.count == 1)
        #expect(found.first?.score == 1)
    }

    @Test func tensInsideLongerNumberIsReadAsOneNumberFirst() throws {
        let found = candidates("L X two eighty seven")
        #expect(found.map(\.flight.canonical) == ["LX287", "LX2807"])
        #expect(found[0].score > found[1].score)
    }

    @Test func spelledIWinsOverCarrierWordI() {
        let found = candidates("I B six seven eight")
        #expect(found.first?.flight.canonical == "IB678")
        #expect(found.map(\.flight.canonical).contains("B678"), "\"i\" as a word leaves JetBlue B6 78")
        #expect(found[0].score > found[1].score)
    }

    @Test("scores are in 0...1, best first, and sum to 1", arguments: ["L X two eighty seven", "I B six seven eight", "delta lima one", "Swiss forty"])
    func scoresAreOrdered(text: String) {
        let found = candidates(text)
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { (0...1).contains($0.score) })
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.score >= $1.score })
        #expect(abs(found.reduce(0) { $0 + $1.score } - 1) < 1e-9)
    }

    @Test func readingsOfSpelledCodeInCarrierPhrase() {
        let readings = candidates("what's the gate for L X forty please").first?.readings ?? []
        #expect(readings == [
            TokenReading(token: "whats", readAs: "", role: .filler),
            TokenReading(token: "the", readAs: "", role: .filler),
            TokenReading(token: "gate", readAs: "", role: .filler),
            TokenReading(token: "for", readAs: "", role: .filler),
            TokenReading(token: "l", readAs: "L", role: .airlineLetter),
            TokenReading(token: "x", readAs: "X", role: .airlineLetter),
            TokenReading(token: "forty", readAs: "40", role: .number),
            TokenReading(token: "please", readAs: "", role: .filler),
        ])
    }

    @Test func readingsOfNatoWordsWithXRayAndNiner() {
        let readings = candidates("lima x-ray one niner").first?.readings ?? []
        #expect(readings.map(\.role) == [.airlineLetter, .airlineLetter, .airlineLetter, .number, .number])
        #expect(readings.map(\.readAs) == ["L", "X", "", "1", "9"])
        #expect(readings.map(\.token) == ["lima", "x", "ray", "one", "niner"])
    }

    @Test func readingsOfAirlineName() {
        let readings = candidates("British Airways flight two eight seven").first?.readings ?? []
        #expect(readings.map(\.role) == [.airlineName, .airlineName, .filler, .number, .number, .number])
        #expect(readings.first?.readAs == "BA")
    }

    @Test func readingsOfSpelledICAOCode() {
        let readings = candidates("E Z Y two one").first?.readings ?? []
        #expect(readings.map(\.role) == [.airlineICAO, .airlineICAO, .airlineICAO, .number, .number])
        #expect(readings.prefix(3).map(\.readAs) == ["E", "Z", "Y"])
    }

    @Test func readingsOfLetterDigitCodes() {
        #expect(candidates("U two one two three four").first?.readings.prefix(2).map(\.role) == [.airlineLetter, .airlineDigit])
        #expect(candidates("four U eight one two").first?.readings.prefix(2).map(\.role) == [.airlineDigit, .airlineLetter])
    }

    @Test func readingsOfWrittenDesignator() {
        #expect(candidates("LX040").first?.readings == [TokenReading(token: "lx040", readAs: "LX040", role: .writtenFlightNumber)])
        #expect(candidates("SWR40").first?.readings == [TokenReading(token: "swr40", readAs: "LX40", role: .writtenFlightNumber)])
    }

    @Test func readingsOfNumberGroups() {
        let readings = candidates("L X one hundred and twenty three").first?.readings ?? []
        #expect(readings.dropFirst(2).map(\.readAs) == ["123", "", "", "", ""])
        #expect(readings.dropFirst(2).allSatisfy { $0.role == .number })
    }

    @Test func unknownTwoLetterCodeIsStillACandidate() {
        #expect(candidates("Q Q forty").first?.flight == FlightNumber(airline: "QQ", number: 40))
        #expect(TestAirlines.directory.airline(iata: "QQ") == nil)
    }

    @Test func failurePayloadsSayWhatWasHeard() {
        #expect(normalizer.normalize("Swiss") == .notUnderstood(.noNumber(airline: "LX")))
        #expect(normalizer.normalize("L X one two three four five") == .notUnderstood(.tooManyDigits("12345")))
        #expect(normalizer.normalize("Q Q Q forty") == .notUnderstood(.unknownAirline("QQQ")))
        #expect(normalizer.normalize("where is the exit") == .notUnderstood(.unrecognizedWords(["exit"])))
        #expect(normalizer.normalize("forty") == .notUnderstood(.noAirline))
        #expect(normalizer.normalize("um, please") == .notUnderstood(.empty))
    }

    @Test func anEmptyDirectoryStillReadsWrittenAndUnknownSpelledCodes() {
        let bare = SpokenFlightNormalizer(airlines: AirlineDirectory([]))
        #expect(bare.normalize("LX40").best?.flight.canonical == "LX40")
        #expect(bare.normalize("L X forty").best?.flight.canonical == "LX40")
        #expect(bare.normalize("Swiss forty") == .notUnderstood(.unrecognizedWords(["swiss"])))
    }
}

@Suite("Digit homophones")
struct DigitHomophoneTests {
    func candidates(_ text: String) -> [FlightCandidate] {
        guard case .understood(let candidates) = TestAirlines.normalizer.normalize(text) else { return [] }
        return candidates
    }

    @Test("a carrier word sounding like a digit before the number is a weaker reading", arguments: [
        ("L X for two", ["LX2", "LX42"]), ("L X to forty", ["LX40", "LX240"]), ("swiss flight for one two", ["LX12", "LX412"]),
    ])
    func weakerReading(text: String, expected: [String]) {
        let found = candidates(text)
        #expect(found.map(\.flight.canonical) == expected)
        #expect(found.count == 2 && found[0].score > found[1].score)
        #expect(found.last?.readings.contains { ["for", "to"].contains($0.token) && $0.role == .number } == true)
        #expect(found.first?.readings.contains { ["for", "to"].contains($0.token) && $0.role == .filler } == true)
    }

    @Test func onlyDirectlyBeforeTheNumber() {
        #expect(candidates("gate for L X forty").map(\.flight.canonical) == ["LX40"])
        #expect(candidates("L X forty for me").map(\.flight.canonical) == ["LX40"])
    }
}
