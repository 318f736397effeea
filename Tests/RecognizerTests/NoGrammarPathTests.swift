import FlightCore
@testable import Recognizer
import Testing

/// Speech through which today's grammar finds no path at all (its search pruned every one, as it sometimes does in
/// noise): the neural check reads it as it reads speech whose path names none of today's flights.
@Suite("Speech with no path through today's grammar", .serialized)
struct NoGrammarPathTests {
    static let lx40 = FlightNumber(parsing: "LX40")!

    /// A recognizer whose grammar search keeps no path to its end: beams far narrower than any real decode's.
    static func pruned(neuralModel: String?, decisionModel: DecisionModel = .stock) throws -> FlightRecognizer {
        var configuration = RecognizerConfiguration()
        (configuration.beam, configuration.phoneBeam, configuration.wordBeam) = (1e-2, 1e-2, 1e-2)
        configuration.neuralModel = neuralModel
        configuration.decisionRule = .model(decisionModel)
        return try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
    }

    @Test("the neural check answers the flight it is sure of; without the check, or where it is not sure, speech that named nothing")
    func neuralCheckReadsWithoutAPath() throws {
        let samples = try TestFlights.samples("lx40.wav")
        let neuralModel = try #require(RecognizerConfiguration.bundledNeuralModel, "run make neural-model")

        let unread = try Self.pruned(neuralModel: nil).recognize(samples: samples)
        #expect(unread.decision == .rejected(.noHypothesis), "\(unread.decision)")
        #expect(unread.transcript.text.isEmpty)

        let read = try Self.pruned(neuralModel: neuralModel).recognize(samples: samples)
        #expect(read.transcript.text.isEmpty, "no path: no words")
        #expect(read.features?.heardFlights == [])
        #expect(read.features?.neural?.flight == Self.lx40)
        #expect(read.decision == .accepted(Self.lx40), "\(read.decision)")

        let stock = DecisionModel.stock, check = try #require(stock.neuralCheck)
        let neverSure = DecisionModel(
            inputNames: stock.inputNames, means: stock.means, scales: stock.scales, weights: stock.weights, intercept: stock.intercept,
            acceptProbability: stock.acceptProbability, confirmProbability: stock.confirmProbability,
            neuralCheck: DecisionModel.NeuralCheck(probability: check.probability, acceptProbability: 1.01, offListMargin: check.offListMargin,
                                                   prompt: check.prompt, model: check.model))
        let unsure = try Self.pruned(neuralModel: neuralModel, decisionModel: neverSure).recognize(samples: samples)
        #expect(unsure.features?.neural?.flight == Self.lx40, "read")
        #expect(unsure.decision == .rejected(.noHypothesis), "\(unsure.decision)")
    }
}
