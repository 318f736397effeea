import FlightCore
import Testing
@testable import NeuralFlightScoring

@Suite("Free transcript to flight")
struct FreeTranscriptReaderTests {
    static let today = ["LX40", "LH400", "BA287", "EY536", "U21234", "AF1"].map { FlightNumber(parsing: $0)! }
    static let reader = FreeTranscriptReader(airlines: SeedDay.day.airlines, todaysFlights: today)

    @Test("transcripts that name one of today's flights", arguments: [
        ("LX 40.", "LX40"), (" LX 40.", "LX40"), ("lx forty", "LX40"), ("L X 40", "LX40"), ("Lima X-ray 40.", "LX40"),
        ("What's the gate for LX 40?", "LX40"), ("Swiss 40, please.", "LX40"), ("Swiss flight 40.", "LX40"),
        ("LH 400.", "LH400"), ("Lufthansa four hundred.", "LH400"), ("Speedbird 287.", "BA287"), ("BA287", "BA287"),
        ("British Airways 287.", "BA287"), ("Etihad 536.", "EY536"), ("Echo Yankee 536.", "EY536"), ("EY 536", "EY536"),
        ("easyJet 1234.", "U21234"), ("U2 1234.", "U21234"), ("Air France 1.", "AF1"), ("L.X. 40!", "LX40"),
        ("L H 400", "LH400"), ("Lima Hotel four hundred.", "LH400"), ("I'm on Lufthansa flight 400.", "LH400"),
    ])
    func namesToday(transcript: String, flight: String) {
        let reading = Self.reader.read(transcript)
        #expect(reading.todaysFlight == FlightNumber(parsing: flight))
        #expect(reading.bestReadingFliesToday)
    }

    /// The first three are free decodes of the probe: the normalizer reads no airline in them (a reason to
    /// score candidates rather than transcribe); "LH for 100" reads as LH 100 (or 4100), not today's LH 400.
    @Test("transcripts that name no flight of today's", arguments: [
        "Alex 40", "An age 1495", "L.A.H. for 100", "LH for 100", "", "Thank you.", "Swiss 41.", "LX 4000.", "What's the gate?", "Forty.",
    ])
    func namesNone(transcript: String) {
        #expect(Self.reader.read(transcript).todaysFlight == nil)
    }

    @Test("a flight that does not fly today is read but not kept")
    func readButNotToday() {
        let reading = Self.reader.read("Swiss 41.")
        #expect(reading.bestReading == FlightNumber(parsing: "LX41"))
        #expect(reading.todaysFlight == nil && !reading.bestReadingFliesToday)
    }
}

