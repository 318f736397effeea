import FlightCore
import Testing
@testable import NeuralFlightScoring

@Suite("Off-list neighbours")
struct OffListNeighboursTests {
    static func flight(_ text: String) -> FlightNumber { FlightNumber(parsing: text)! }
    static let airlines = AirlineDirectory([
        Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss"),
        Airline(iata: "LH", icao: "DLH", name: "Lufthansa", callsign: "Lufthansa"),
        Airline(iata: "LO", icao: "LOT", name: "LOT Polish Airlines", callsign: "Pollot"),
        Airline(iata: "AX", icao: nil, name: "Ax Air", callsign: nil),
        Airline(iata: "BA", icao: "BAW", name: "British Airways", callsign: "Speedbird"),
    ])

    @Test("numbers one digit changed, dropped, added or swapped, never with a leading zero or a fifth digit")
    func neighbouringNumbers() {
        let of341 = OffListNeighbours.neighbouringNumbers(of: 341)
        for number in [3041, 3411, 1341, 41, 31, 34, 441, 301, 349, 431, 314, 9341, 3419] { #expect(of341.contains(number), "\(number)") }
        for number in [341, 0, 3, 1, 53410, 143] { #expect(!of341.contains(number), "\(number)") }
        #expect(of341 == of341.sorted() && Set(of341).count == of341.count)
        #expect(of341.allSatisfy { (1...9999).contains($0) })
        // 3 positions × 9 changes (less "041"), 3 drops, 2 swaps, 4 places × 10 added digits (less "0341"; "3341", "3441"
        // and "3411" each arise twice).
        #expect(of341.count == 26 + 3 + 2 + 39 - 3)
        #expect(OffListNeighbours.neighbouringNumbers(of: 7468).allSatisfy { $0 < 10_000 })
        #expect(OffListNeighbours.neighbouringNumbers(of: 7468).contains(7458))
        #expect(OffListNeighbours.neighbouringNumbers(of: 1).sorted() == Array(2...19) + [21, 31, 41, 51, 61, 71, 81, 91])
    }

    @Test("the best candidate's own words, each neighbour number written every standard way, today's flights left out")
    func candidatesInTheSameWords() {
        let neighbours = OffListNeighbours(todaysFlights: [Self.flight("JU341"), Self.flight("JU3041"), Self.flight("LH3411")], airlines: Self.airlines)
        let best = WrittenFlightCandidate(flight: Self.flight("JU341"), form: .natoCode, text: " Juliet Uniform 341.")
        let candidates = neighbours.candidates(around: best)
        let texts = Set(candidates.map(\.text))
        #expect(texts.contains(" Juliet Uniform 3411."))
        #expect(texts.contains(" Juliet Uniform 3 4 1 1."))
        #expect(texts.contains(" Juliet Uniform 41."))
        #expect(!texts.contains(" Juliet Uniform 3041."), "JU 3041 flies today: it is a competitor of the main ranking, not off the list")
        #expect(!texts.contains(" Juliet Uniform 341."))
        #expect(candidates.allSatisfy { $0.form == .natoCode && $0.flight.airline == "JU" && $0.flight != Self.flight("JU3041") })
        #expect(Set(candidates.map(\.flight)).count == OffListNeighbours.neighbouringNumbers(of: 341).count - 1)
    }

    @Test("a question keeps its ending and a number written apart is found as such")
    func questionAndSeparateDigits() {
        let neighbours = OffListNeighbours(todaysFlights: [Self.flight("EW9559")], airlines: Self.airlines)
        let best = WrittenFlightCandidate(flight: Self.flight("EW9559"), form: .spelledCode, text: " E W 9 5 5 9?")
        let texts = neighbours.candidates(around: best).map(\.text)
        #expect(texts.contains(" E W 9558?") && texts.contains(" E W 9 5 5 8?"))
        #expect(texts.allSatisfy { $0.hasPrefix(" E W ") && $0.hasSuffix("?") })
        #expect(neighbours.candidates(around: WrittenFlightCandidate(flight: Self.flight("EW9559"), form: .code, text: " EW nine.")).isEmpty)
    }

    @Test("a code form gains the same number with each airline one letter away that does not fly it today, in the same form")
    func airlinesOneLetterAway() {
        let neighbours = OffListNeighbours(todaysFlights: [Self.flight("LX400"), Self.flight("LO400")], airlines: Self.airlines)
        func airlineTexts(_ text: String, _ form: WrittenAirlineForm) -> Set<String> {
            Set(neighbours.candidates(around: WrittenFlightCandidate(flight: Self.flight("LX400"), form: form, text: text))
                .filter { $0.flight.number == 400 }.map(\.text))
        }
        let numbers = ["400", "4 0 0", "0400", "0 4 0 0", "four hundred", "4 double 0", "four double zero", "0 4 double 0", "zero four double zero"]
        #expect(airlineTexts(" Lima X-ray 400.", .natoCode) == Set(["Lima Hotel", "Alpha X-ray"].flatMap { airline in numbers.map { " \(airline) \($0)." } }))
        #expect(airlineTexts(" LX 400?", .code).contains(" LH 400?"))
        #expect(airlineTexts(" LX 400.", .code) == Set(["LH", "AX"].flatMap { airline in numbers.map { " \(airline) \($0)." } }))
        #expect(airlineTexts(" LX Flight 400.", .code) == Set(["LH", "AX"].flatMap { airline in numbers.map { " \(airline) Flight \($0)." } }),
                "with \"Flight\" where the candidate says it, and only there")
        #expect(!airlineTexts(" L X 400.", .spelledCode).contains(" L O 400."), "LO 400 flies today")
        #expect(airlineTexts(" Swiss 400.", .name).isEmpty, "an airline's name sounds like no other code's")
    }
}

@Suite("Today's flights with the best one's number")
struct SameNumberRivalsTests {
    static func flight(_ text: String) -> FlightNumber { FlightNumber(parsing: text)! }
    static let rivals = SameNumberRivals(todaysFlights: ["LX400", "LH400", "LO401", "LX400"].map(flight), airlines: OffListNeighboursTests.airlines)

    @Test("each other airline flying the number today, in every way it is named, with the best candidate's number and ending")
    func rivalsInTheBestOnesWords() {
        let texts = Self.rivals.candidates(around: WrittenFlightCandidate(flight: Self.flight("LX400"), form: .natoCode, text: " Lima X-ray four hundred."))
        #expect(texts.map(\.text) == [" LH four hundred.", " L H four hundred.", " Lima Hotel four hundred.", " DLH four hundred.", " Lufthansa four hundred."])
        #expect(texts.map(\.form) == [.code, .spelledCode, .natoCode, .icaoCode, .name])
        #expect(texts.allSatisfy { $0.flight == Self.flight("LH400") })
    }

    @Test("\"Flight\" before the number where the best candidate says it, and its ending")
    func flightWordAndEnding() {
        let texts = Self.rivals.candidates(around: WrittenFlightCandidate(flight: Self.flight("LH400"), form: .name, text: " Lufthansa Flight 4 0 0?")).map(\.text)
        #expect(texts == [" LX Flight 4 0 0?", " L X Flight 4 0 0?", " Lima X-ray Flight 4 0 0?", " SWR Flight 4 0 0?", " Swiss Flight 4 0 0?"])
    }

    @Test("none where no other flight has the number today, or the text does not end in the number")
    func none() {
        #expect(Self.rivals.candidates(around: WrittenFlightCandidate(flight: Self.flight("LO401"), form: .code, text: " LO 401.")).isEmpty)
        #expect(Self.rivals.candidates(around: WrittenFlightCandidate(flight: Self.flight("LX400"), form: .code, text: " LX forty.")).isEmpty)
    }
}
