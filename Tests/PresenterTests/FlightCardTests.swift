import FlightCore
import Foundation
import Presenter
import Testing

@Suite("Terminal card and answer text")
struct FlightCardTests {
    let plain = PresentationOptions(now: Fixtures.now)

    @Test("the doc example renders exactly")
    func docExample() {
        #expect(FlightCard.render(Fixtures.boardingDeparture, options: plain) == """
            LX 40  Swiss  → New York JFK     departs 13:05 (on time)
            Gate E34 · Terminal E · Boarding
            """)
    }

    @Test("cards match their golden files", arguments: [
        ("card-departure.txt", Fixtures.boardingDeparture),
        ("card-arrival.txt", Fixtures.landedArrival),
        ("card-delayed.txt", Fixtures.delayedDeparture),
        ("card-early-arrival.txt", Fixtures.earlyArrival),
        ("card-cancelled.txt", Fixtures.cancelledDeparture),
        ("card-gate-change.txt", Fixtures.gateChange),
        ("card-codeshare.txt", Fixtures.codeshareArrival),
        ("card-gate-unassigned.txt", Fixtures.gateUnassigned),
        ("card-tomorrow.txt", Fixtures.tomorrowDeparture),
    ])
    func golden(name: String, lookup: FlightLookup) throws {
        try Golden.check(FlightCard.render(lookup, options: plain), named: name)
    }

    @Test("terminal styling matches its golden file")
    func styledGolden() throws {
        let styled = PresentationOptions(now: Fixtures.now, isTerminal: true)
        let cards = [Fixtures.boardingDeparture, Fixtures.delayedDeparture, Fixtures.cancelledDeparture, Fixtures.gateChange]
            .map { FlightCard.render($0, options: styled) }
        try Golden.check(cards.joined(separator: "\n\n"), named: "card-styled-terminal.txt")
    }

    @Test("colour is never the only cue: styled text without escapes equals plain text")
    func styleAddsNoMeaning() {
        let styled = PresentationOptions(now: Fixtures.now, isTerminal: true)
        for lookup in [Fixtures.boardingDeparture, Fixtures.landedArrival, Fixtures.delayedDeparture, Fixtures.cancelledDeparture,
                       Fixtures.gateChange, Fixtures.codeshareArrival, Fixtures.gateUnassigned] {
            let coloured = FlightCard.render(lookup, options: styled)
            #expect(coloured.contains("\u{1B}["))
            #expect(stripANSI(coloured) == FlightCard.render(lookup, options: plain))
            #expect(!FlightCard.render(lookup, options: plain).contains("\u{1B}"))
        }
    }

    @Test("answer texts match their golden files", arguments: [
        ("answer-found.txt", Fixtures.foundAnswer),
        ("answer-not-found.txt", Fixtures.notFoundAnswer),
        ("answer-not-understood.txt", Fixtures.notUnderstoodAnswer),
        ("answer-no-speech.txt", Fixtures.noSpeechAnswer),
        ("answer-error.txt", Fixtures.errorAnswer),
    ])
    func answerGolden(name: String, answer: QueryAnswer) throws {
        try Golden.check(AnswerText.render(answer, options: plain), named: name)
    }

    @Test("not found lists at most three suggestions")
    func notFoundShape() {
        let text = AnswerText.render(Fixtures.notFoundAnswer, options: plain)
        #expect(text == """
            No flight LX 41 today.
            Did you mean: LX 40 (→ New York, 13:05), LX 42 (→ San Francisco, 13:15), BA 41 (← London, 11:20)?
            """)
        #expect(!text.contains("LX 1041"))
    }

    @Test("not understood gives the reason and what to say")
    func notUnderstoodShape() {
        let text = AnswerText.render(Fixtures.notUnderstoodAnswer, options: plain)
        #expect(text.contains(Fixtures.notUnderstoodAnswer.message!))
        #expect(text.hasSuffix("Try: \"L X forty\", \"Swiss forty\" or \"lima x-ray four zero\""))
    }

    @Test("the example phrases follow the configured flight")
    func examplePhrases() {
        let example = SpokenExample(flight: Fixtures.number("U21234"), airlineName: "easyJet")
        #expect(example.phrases == ["U 2 one two three four", "easyJet one two three four", "uniform two one two three four"])
        #expect(SpokenExample.swiss40.phrases == ["L X forty", "Swiss forty", "lima x-ray four zero"])
        let seven = SpokenExample(flight: Fixtures.number("BA7"), airlineName: "British")
        #expect(seven.phrases == ["B A seven", "British seven", "bravo alpha seven"])
        let teen = SpokenExample(flight: Fixtures.number("BA17"), airlineName: "British")
        #expect(teen.phrases[0] == "B A seventeen")
        let tens = SpokenExample(flight: Fixtures.number("BA47"), airlineName: "British")
        #expect(tens.phrases[0] == "B A forty seven")
    }

    @Test("times are shown in Zurich time, also in summer")
    func summerTime() {
        let summer = Fixtures.lookup(Fixtures.departure(scheduled: Fixtures.zurich(2026, 7, 1, 13, 5), estimated: Fixtures.zurich(2026, 7, 1, 13, 5)))
        let card = FlightCard.render(summer, options: PresentationOptions(now: Fixtures.zurich(2026, 7, 1, 8, 0)))
        #expect(card.hasPrefix("LX 40  Swiss  → New York JFK     departs 13:05 (on time)"))
    }
}

/// The text with ANSI SGR escape sequences removed.
func stripANSI(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for scalar in text.unicodeScalars {
        if inEscape {
            if scalar == "m" { inEscape = false }
        } else if scalar == "\u{1B}" {
            inEscape = true
        } else {
            result.unicodeScalars.append(scalar)
        }
    }
    return result
}
