import FlightCore
import Foundation
@testable import Recognizer
import Testing

/// The adapted acoustic model committed in `models/en-us-flightvoice` (`make adapted-model`) must stay loadable and hear
/// flights: a fresh clone's build finds it in the source tree (`--model adapted`).
@Suite("The committed adapted acoustic model")
struct AdaptedModelTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("models/en-us-flightvoice").path

    @Test("it loads and hears the clean fixtures' flights", arguments: FlightRecognizerTests.flightFixtures)
    func hearsFlight(file: String) throws {
        let expected = try #require(try TestFlights.manifest().first { $0.file == file }?.flight)
        var configuration = RecognizerConfiguration()
        configuration.selectModel(folder: Self.folder)
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
        let result = try recognizer.recognize(samples: try TestFlights.samples(file))
        #expect(result.grammarFlights.first == expected, "heard \"\(result.transcript.text)\"")
    }
}
