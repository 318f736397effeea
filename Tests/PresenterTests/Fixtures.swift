import FlightCore
import Foundation

/// Fixed flights, answers and clip reports on a fixed day (2026-11-30, Zurich), independent of the machine's zone.
enum Fixtures {
    /// An instant given as a Zurich wall-clock time.
    static func zurich(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
        Hub.calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }

    /// 30 November 2026 at the given Zurich time.
    static func today(_ hour: Int, _ minute: Int) -> Date { zurich(2026, 11, 30, hour, minute) }

    /// "Now" for every rendering in the tests: 10:00 in Zurich.
    static let now = today(10, 0)

    static func number(_ text: String) -> FlightNumber { FlightNumber(parsing: text)! }

    static let swiss = Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: "Swiss", spokenNames: ["swiss air"])
    static let britishAirways = Airline(iata: "BA", icao: "BAW", name: "British Airways", callsign: "Speedbird")

    static func departure(
        _ number: String = "LX40", airline: Airline = swiss, to airport: Airport = Airport(iata: "JFK", city: "New York"),
        scheduled: Date = today(13, 5), estimated: Date? = today(13, 5), terminal: String? = "E", gate: String? = "E34",
        previousGate: String? = nil, status: FlightStatus = .boarding, codeshares: [FlightNumber] = []
    ) -> Flight {
        Flight(number: Fixtures.number(number), airline: airline, direction: .departure, airport: airport,
               scheduled: scheduled, estimated: estimated, terminal: terminal, gate: gate, previousGate: previousGate,
               belt: nil, status: status, codeshares: codeshares)
    }

    static func arrival(
        _ number: String = "BA287", airline: Airline = britishAirways, from airport: Airport = Airport(iata: "LHR", city: "London"),
        scheduled: Date = today(9, 40), estimated: Date? = today(9, 52), terminal: String? = "1", belt: String? = "21",
        status: FlightStatus = .landed, codeshares: [FlightNumber] = [number("LX3287")]
    ) -> Flight {
        Flight(number: Fixtures.number(number), airline: airline, direction: .arrival, airport: airport,
               scheduled: scheduled, estimated: estimated, terminal: terminal, gate: nil, previousGate: nil,
               belt: belt, status: status, codeshares: codeshares)
    }

    static func lookup(_ flight: Flight, asked: String? = nil) -> FlightLookup {
        FlightLookup(requested: asked.map(number) ?? flight.number, flight: flight)
    }

    // MARK: Cards

    static let boardingDeparture = lookup(departure())
    static let landedArrival = lookup(arrival())
    static let delayedDeparture = lookup(departure(estimated: today(13, 45), status: .delayed))
    static let earlyArrival = lookup(arrival(estimated: today(9, 30), status: .expected))
    static let cancelledDeparture = lookup(departure(estimated: nil, status: .cancelled))
    static let gateChange = lookup(departure(gate: "E34", previousGate: "E12", status: .boarding))
    static let codeshareArrival = lookup(arrival(), asked: "LX3287")
    static let gateUnassigned = lookup(departure(estimated: nil, gate: nil, status: .scheduled))
    static let tomorrowDeparture = lookup(departure(scheduled: zurich(2026, 12, 1, 7, 10), estimated: zurich(2026, 12, 1, 7, 10), status: .onTime))

    // MARK: Answers

    static let fortyReadings = [
        TokenReading(token: "l", readAs: "L", role: .airlineLetter),
        TokenReading(token: "x", readAs: "X", role: .airlineLetter),
        TokenReading(token: "forty", readAs: "40", role: .number),
    ]

    static let foundAnswer = QueryAnswer(
        status: .found, heard: "l x forty", flightNumber: number("LX40"),
        candidates: [
            FlightCandidate(flight: number("LX40"), score: 1, readings: fortyReadings),
            FlightCandidate(flight: number("LX14"), score: 0.2, readings: [fortyReadings[0], fortyReadings[1],
                                                                          TokenReading(token: "forty", readAs: "14", role: .number)]),
        ],
        lookup: boardingDeparture, suggestions: [], message: nil)

    static let suggestions = [
        boardingDeparture,
        lookup(departure("LX42", to: Airport(iata: "SFO", city: "San Francisco"), scheduled: today(13, 15), estimated: nil, gate: "E38", status: .scheduled)),
        lookup(arrival("BA41", from: Airport(iata: "LCY", city: "London"), scheduled: today(11, 20), estimated: today(11, 20), belt: nil, status: .expected, codeshares: [])),
        lookup(departure("LX1041", to: Airport(iata: "MAD", city: "Madrid"), scheduled: today(18, 0), estimated: nil, status: .scheduled)),
    ]

    static let notFoundAnswer = QueryAnswer(
        status: .notFound, heard: "l x forty one", flightNumber: number("LX41"),
        candidates: [FlightCandidate(flight: number("LX41"), score: 0.9, readings: [
            fortyReadings[0], fortyReadings[1],
            TokenReading(token: "forty", readAs: "4", role: .number), TokenReading(token: "one", readAs: "1", role: .number),
        ])],
        lookup: nil, suggestions: suggestions, message: "no flight LX41 today")

    static let notUnderstoodAnswer = QueryAnswer(
        status: .notUnderstood, heard: "what time is it", flightNumber: nil, candidates: [], lookup: nil, suggestions: [],
        message: NormalizationFailure.unrecognizedWords(["what", "time", "is", "it"]).message)

    static let noSpeechAnswer = QueryAnswer(status: .noSpeech, heard: "", flightNumber: nil, candidates: [], lookup: nil, suggestions: [], message: "no speech in the audio")

    static let errorAnswer = QueryAnswer(status: .error, heard: "", flightNumber: nil, candidates: [], lookup: nil, suggestions: [],
                                         message: "unsupported format: the file is a PNG image")

    // MARK: Clips

    static let fortyTranscript = Transcript(
        text: "l x forty",
        words: [
            RecognizedWord(word: "l", start: 0.12, end: 0.45, confidence: 0.95),
            RecognizedWord(word: "x", start: 0.45, end: 0.8, confidence: 0.91),
            RecognizedWord(word: "forty", start: 0.85, end: 1.4, confidence: 0.93),
        ],
        confidence: 0.93, alternatives: ["l x fourteen"])

    static let foundClip = ClipReport(path: "Samples/lx40.wav", answer: foundAnswer, transcript: fortyTranscript,
                                      audioDuration: 1.8, processingSeconds: 0.061, error: nil)

    static let codeshareClip = ClipReport(
        path: "Samples/lx3287.flac",
        answer: QueryAnswer(status: .found, heard: "swiss three two eight seven", flightNumber: number("LX3287"),
                            candidates: [FlightCandidate(flight: number("LX3287"), score: 0.97, readings: [
                                TokenReading(token: "swiss", readAs: "LX", role: .airlineName),
                                TokenReading(token: "three two eight seven", readAs: "3287", role: .number),
                            ])],
                            lookup: codeshareArrival, suggestions: [], message: nil),
        transcript: Transcript(text: "swiss three two eight seven", words: [
            RecognizedWord(word: "swiss", start: 0.2, end: 0.61, confidence: 0.99),
            RecognizedWord(word: "three", start: 0.7, end: 0.98, confidence: 0.97),
            RecognizedWord(word: "two", start: 0.98, end: 1.2, confidence: 0.96),
            RecognizedWord(word: "eight", start: 1.2, end: 1.45, confidence: 0.9),
            RecognizedWord(word: "seven", start: 1.45, end: 1.9, confidence: 0.98),
        ], confidence: 0.88, alternatives: []),
        audioDuration: 2.4, processingSeconds: 0.07, error: nil)

    static let notFoundClip = ClipReport(
        path: "Samples/lx41.m4a", answer: notFoundAnswer,
        transcript: Transcript(text: "l x forty one", words: [
            RecognizedWord(word: "l", start: 0.1, end: 0.4, confidence: 0.9),
            RecognizedWord(word: "x", start: 0.4, end: 0.75, confidence: 0.88),
            RecognizedWord(word: "forty", start: 0.8, end: 1.3, confidence: 0.8),
            RecognizedWord(word: "one", start: 1.3, end: 1.6, confidence: 0.77),
        ], confidence: 0.8, alternatives: ["l x forty"]),
        audioDuration: 2.0, processingSeconds: 0.055, error: nil)

    static let notUnderstoodClip = ClipReport(
        path: "Samples/noise/what time.wav", answer: notUnderstoodAnswer,
        transcript: Transcript(text: "what time is it", words: [
            RecognizedWord(word: "what", start: 0.3, end: 0.5, confidence: 0.4),
            RecognizedWord(word: "time", start: 0.5, end: 0.8, confidence: 0.35),
            RecognizedWord(word: "is", start: 0.8, end: 0.9, confidence: 0.3),
            RecognizedWord(word: "it", start: 0.9, end: 1.05, confidence: 0.31),
        ], confidence: 0.2, alternatives: []),
        audioDuration: 1.5, processingSeconds: 0.04, error: nil)

    static let noSpeechClip = ClipReport(path: "Samples/silence.wav", answer: noSpeechAnswer, transcript: .empty,
                                         audioDuration: 3.0, processingSeconds: 0.03, error: nil)

    static let errorClip = ClipReport(path: "x.wav", answer: errorAnswer, transcript: .empty, audioDuration: 0,
                                      processingSeconds: 0.001, error: "unsupported format: the file is a PNG image")

    static let allClips = [foundClip, codeshareClip, notFoundClip, notUnderstoodClip, noSpeechClip, errorClip]
}
