import FlightCore
import Foundation
import Testing
@testable import Recognizer

@Suite struct EvaluationManifestTests {
    @Test func readsPathsExpectedFlightsAndExtraColumns() throws {
        let text = "path\tflight\tcondition\nclips/a.wav\tLX40\tclean\n/abs/b.wav\t\tnoflight\n\n"
        let manifest = try EvaluationManifest(text: text, file: "m.tsv", folder: "/data")
        #expect(manifest.columns == ["path", "flight", "condition"])
        #expect(manifest.entries.map(\.resolvedPath) == ["/data/clips/a.wav", "/abs/b.wav"])
        #expect(manifest.entries.map(\.expected?.canonical) == ["LX40", nil])
        #expect(manifest.entries[1].columns["condition"] == "noflight")
    }

    @Test(arguments: [
        ("file\tflight\na\tLX40\n", "m.tsv:1: the header has no 'path' column (it has file, flight)"),
        ("path\tflight\na.wav\n", "m.tsv:2: 1 fields where the header has 2"),
        ("path\tflight\na.wav\tLX40\nb.wav\tforty\n", "m.tsv:3: 'forty' is not a flight number such as LX40"),
        ("", "m.tsv:1: the manifest is empty"),
    ])
    func refusesABadManifestWithItsLine(text: String, message: String) {
        do {
            _ = try EvaluationManifest(text: text, file: "m.tsv", folder: "/")
            Issue.record("accepted a bad manifest")
        } catch {
            #expect(String(describing: error) == message)
        }
    }
}

@Suite struct EvaluationOutcomeTests {
    static let lx40 = FlightNumber(parsing: "LX40")!
    static let lx42 = FlightNumber(parsing: "LX42")!
    static let swiss = Airline(iata: "LX", icao: "SWR", name: "Swiss", callsign: nil)

    static func answer(_ status: AnswerStatus, flight: FlightNumber? = nil, offering: [FlightNumber] = []) -> QueryAnswer {
        let suggestions = offering.map { number in
            FlightLookup(requested: number, flight: Flight(
                number: number, airline: swiss, direction: .departure, airport: Airport(iata: "JFK", city: "New York"),
                scheduled: Date(timeIntervalSince1970: 0), estimated: nil, terminal: nil, gate: nil, previousGate: nil, belt: nil,
                status: .scheduled, codeshares: []))
        }
        return QueryAnswer(status: status, heard: "", flightNumber: flight, candidates: [], lookup: nil, suggestions: suggestions, message: nil)
    }

    @Test func classifiesEveryKindOfAnswer() {
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.found, flight: Self.lx40)) == .correct)
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.found, flight: Self.lx42)) == .wrongFlight)
        #expect(EvaluationOutcome(expected: nil, answer: Self.answer(.found, flight: Self.lx42)) == .wrongFlight)
        #expect(EvaluationOutcome(expected: nil, answer: Self.answer(.noSpeech)) == .correct)
        #expect(EvaluationOutcome(expected: nil, answer: Self.answer(.notUnderstood)) == .correct)
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.notUnderstood)) == .notAnswered)
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.notFound, flight: Self.lx42)) == .notAnswered)
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.notUnderstood, offering: [Self.lx42, Self.lx40])) == .confirmIncludesExpected)
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.notUnderstood, offering: [Self.lx42])) == .confirmWithoutExpected)
        #expect(EvaluationOutcome(expected: nil, answer: Self.answer(.notUnderstood, offering: [Self.lx42])) == .confirmWithoutExpected)
        #expect(EvaluationOutcome(expected: Self.lx40, answer: Self.answer(.error)) == .error)
    }

    @Test func talliesOverallAndPerGroup() throws {
        let manifest = try EvaluationManifest(text: "path\tflight\tcondition\na\tLX40\tclean\nb\tLX40\tnoisy\nc\t\tnoisy\n", file: "m", folder: "/")
        var report = EvaluationReport(groupColumns: ["condition"])
        let answers = [Self.answer(.found, flight: Self.lx40), Self.answer(.found, flight: Self.lx42), Self.answer(.noSpeech)]
        for (entry, answer) in zip(manifest.entries, answers) {
            report.add(entry, report: ClipReport(path: entry.path, answer: answer, transcript: .empty, audioDuration: 2, processingSeconds: 0.5, error: nil))
        }
        #expect(report.overall.clips == 3)
        #expect(report.overall.count(.correct) == 2)
        #expect(report.overall.count(.wrongFlight) == 1)
        #expect(report.overall.realTimeFactor == 0.25)
        #expect(report.groups["condition"]?["clean"]?.exactAccuracy == 1)
        #expect(report.groups["condition"]?["noisy"]?.rate(.wrongFlight) == 0.5)
        #expect(report.misses.map(\.entry.path) == ["b"])
    }
}
