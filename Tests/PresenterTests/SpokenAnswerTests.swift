import FlightCore
import Foundation
import Presenter
import Testing

@Suite("Spoken sentences")
struct SpokenAnswerTests {
    let options = PresentationOptions(now: Fixtures.now)

    @Test("the doc examples are spoken exactly")
    func docExamples() {
        #expect(SpokenAnswer.sentence(for: Fixtures.boardingDeparture, options: options)
            == "Swiss flight L X 40 to New York departs at 13:05 from gate E 34. It is boarding.")
        let arrived = Fixtures.lookup(Fixtures.arrival(status: .arrived, codeshares: []))
        #expect(SpokenAnswer.sentence(for: arrived, options: options)
            == "British Airways flight B A 287 from London arrived at 09:52. Baggage is on belt 21.")
        #expect(SpokenAnswer.sentence(for: Fixtures.notUnderstoodAnswer, options: options)
            == "Sorry, I did not understand. Please say the flight number again, for example L X 40.")
        let oneSuggestion = QueryAnswer(status: .notFound, heard: "l x forty one", flightNumber: Fixtures.number("LX41"), candidates: [],
                                        lookup: nil, suggestions: [Fixtures.boardingDeparture], message: nil)
        #expect(SpokenAnswer.sentence(for: oneSuggestion, options: options)
            == "I could not find L X 41 today. Did you mean L X 40 to New York?")
    }

    @Test("every status has its own wording, recorded in a golden file")
    func golden() throws {
        var cases: [(String, FlightLookup)] = FlightStatus.allCases.map { status in
            ("departure \(status.rawValue)", Fixtures.lookup(Fixtures.departure(estimated: status == .delayed ? Fixtures.today(13, 45) : Fixtures.today(13, 5), status: status)))
        }
        cases += FlightStatus.allCases.map { status in
            ("arrival \(status.rawValue)", Fixtures.lookup(Fixtures.arrival(status: status, codeshares: [])))
        }
        cases += [
            ("gate change", Fixtures.gateChange),
            ("gate unassigned", Fixtures.gateUnassigned),
            ("codeshare", Fixtures.codeshareArrival),
            ("tomorrow", Fixtures.tomorrowDeparture),
        ]
        var lines = cases.map { label, lookup in "\(label): \(SpokenAnswer.sentence(for: lookup, options: options))" }
        let answers: [(String, QueryAnswer)] = [
            ("found answer", Fixtures.foundAnswer),
            ("not found", Fixtures.notFoundAnswer),
            ("not found, no suggestions", QueryAnswer(status: .notFound, heard: "b a nine", flightNumber: Fixtures.number("BA9"),
                                                      candidates: [], lookup: nil, suggestions: [], message: nil)),
            ("not understood", Fixtures.notUnderstoodAnswer),
            ("no speech", Fixtures.noSpeechAnswer),
            ("error", Fixtures.errorAnswer),
        ]
        lines += answers.map { label, answer in "\(label): \(SpokenAnswer.sentence(for: answer, options: options))" }
        try Golden.check(lines.joined(separator: "\n"), named: "say-sentences.txt")
    }

    @Test("spoken output never contains symbols a speech engine reads badly")
    func plainWords() {
        for lookup in [Fixtures.boardingDeparture, Fixtures.landedArrival, Fixtures.delayedDeparture, Fixtures.cancelledDeparture,
                       Fixtures.gateChange, Fixtures.codeshareArrival, Fixtures.gateUnassigned] {
            let sentence = SpokenAnswer.sentence(for: lookup, options: PresentationOptions(now: Fixtures.now, isTerminal: true))
            #expect(!sentence.contains("→") && !sentence.contains("·") && !sentence.contains("\u{1B}"))
        }
    }
}
