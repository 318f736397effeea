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

    @Test("its decision asks Debian's stock model for a second opinion, which reads today's grammar as the stock model does",
          arguments: ["lx40.wav", "ba287.wav", "where-exit.wav"])
    func secondOpinionIsTheStockModelsReading(file: String) throws {
        var adapted = RecognizerConfiguration()
        adapted.selectModel(folder: Self.folder)
        #expect(try adapted.decisionModel()?.agreementProbability != nil)
        adapted.alwaysReadsRival = true
        let samples = try TestFlights.samples(file)
        let result = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: adapted).recognize(samples: samples)
        let stock = try FlightRecognizer(vocabulary: TestFlights.vocabulary).recognize(samples: samples)
        if result.grammarFlights.isEmpty {
            #expect(result.features?.secondOpinionFlights == nil, "nothing heard: nothing to agree with")
        } else {
            #expect(result.features?.secondOpinionFlights == stock.grammarFlights)
        }

        var measuringStock = RecognizerConfiguration()
        measuringStock.alwaysReadsRival = true
        let itself = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: measuringStock).recognize(samples: samples)
        #expect(itself.features?.secondOpinionFlights == nil, "the stock model is not its own second opinion")
    }
}
