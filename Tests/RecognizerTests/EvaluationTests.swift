import FlightCore
import Foundation
@testable import Recognizer
import Testing

@Suite("Evaluation")
struct EvaluationTests {
    @Test("a manifest needs path and flight columns and keeps the rest for grouping")
    func parsing() throws {
        let manifest = try EvaluationManifest(text: "path\tflight\tcondition\na.wav\tLX40\tclean\n/abs/b.wav\t\tnoise\n", folder: "/clips")
        #expect(manifest.entries.count == 2)
        #expect(manifest.entries[0].path == "/clips/a.wav")
        #expect(manifest.entries[0].expected == FlightNumber(parsing: "LX40"))
        #expect(manifest.entries[1].path == "/abs/b.wav")
        #expect(manifest.entries[1].expected == nil)
        #expect(manifest.entries[1].columns["condition"] == "noise")
        #expect(throws: EvaluationManifest.FormatError.self) { try EvaluationManifest(text: "file\tanswer\n", folder: "/") }
        #expect(throws: EvaluationManifest.FormatError.self) { try EvaluationManifest(text: "path\tflight\nx.wav\tnot a flight\n", folder: "/") }
    }

    @Test("evaluating the fixtures with two workers counts answers and wrong flights")
    func runsFixtures() throws {
        let manifest = try EvaluationManifest(contentsOf: TestFlights.fixtures + "/fixtures.tsv")
        let report = try Evaluator.run(manifest: manifest, vocabulary: TestFlights.vocabulary, jobs: 2, groupBy: ["flight"])
        #expect(report.outcomes.count == manifest.entries.count)
        #expect(report.outcomes.map(\.entry) == manifest.entries)
        #expect(report.overall.clips == manifest.entries.count)
        #expect(report.overall.errors == 0)
        #expect(report.overall.falseAccepts == 0)
        #expect(report.overall.accuracy > 0.7)
        #expect(report.overall.realTimeFactor > 0)
        #expect(report.rendered().contains("overall"))
        #expect(report.groups.first?.column == "flight")
    }

    @Test("a clip that cannot be read is an error outcome, not a crash")
    func unreadableClip() throws {
        let manifest = try EvaluationManifest(text: "path\tflight\nmissing.wav\tLX40\n", folder: "/nonexistent")
        let report = try Evaluator.run(manifest: manifest, vocabulary: TestFlights.vocabulary, jobs: 1)
        #expect(report.overall.errors == 1)
        #expect(report.outcomes.first?.error?.contains("missing.wav") == true)
    }
}
