import FlightCore
@testable import Recognizer
import Testing

/// The live path's neural reading taken ahead, beside the grammar's comparison passes: the batch path's reading where
/// the decision wants it, stopped where it does not, and the pass free again either way.
@Suite("The neural pass read ahead of the decision", .serialized)
struct NeuralReadAheadTests {
    static func recognizer(alwaysReadsNeural: Bool, decisionModel: DecisionModel? = nil) throws -> FlightRecognizer {
        var configuration = RecognizerConfiguration()
        configuration.neuralModel = try #require(RecognizerConfiguration.bundledNeuralModel, "run make neural-model")
        configuration.alwaysReadsNeural = alwaysReadsNeural
        if let decisionModel { configuration.decisionRule = .model(decisionModel) }
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
        try recognizer.prepareStreaming()
        return recognizer
    }

    static func expectSameReading(_ ahead: DecisionFeatures.NeuralReading?, _ after: DecisionFeatures.NeuralReading?, _ clip: String) {
        #expect(ahead?.flight == after?.flight, "\(clip)")
        #expect(ahead?.score == after?.score, "\(clip)")
        #expect(ahead?.margin == after?.margin, "\(clip)")
        #expect(ahead?.grammarFlightRank == after?.grammarFlightRank, "\(clip)")
        #expect(ahead?.freeTranscript == after?.freeTranscript, "\(clip)")
        #expect(ahead?.offListMargin == after?.offListMargin, "\(clip)")
        #expect(ahead?.offListSkipped == after?.offListSkipped, "\(clip)")
        #expect(ahead?.tuned == after?.tuned, "\(clip)")
    }

    @Test("read ahead, the reading and the answer are the batch path's", arguments: ["ba287.wav"])
    func aheadIsTheBatchReading(clip: String) throws {
        let recognizer = try Self.recognizer(alwaysReadsNeural: true)
        let samples = try TestFlights.samples(clip)
        let batch = try recognizer.decodeSnapshot(samples).result
        recognizer.waitForRivalPrediction()
        let ahead = try recognizer.decodeSnapshot(samples, rivalBesideComparisons: true, neuralBesideComparisons: true)
        #expect(ahead.cost.steps.neuralAhead && !ahead.cost.steps.neuralUnused && ahead.cost.steps.neural > 0)
        #expect(batch.features?.neural != nil)
        Self.expectSameReading(ahead.result.features?.neural, batch.features?.neural, clip)
        RivalPredictionTests.expectSameResult(ahead.result, batch, clip)
    }

    @Test("a reading the decision does not want is stopped, left out of the features, and the next one is unchanged")
    func unwantedReadingIsStopped() throws {
        // Where the grammar's decision never answers and the check answers only where nothing of today's was heard, the
        // neural check can neither answer lx40.wav nor dispute an answer.
        let stock = DecisionModel.stock, check = try #require(stock.neuralCheck)
        let neverSure = DecisionModel(
            inputNames: stock.inputNames, means: stock.means, scales: stock.scales, weights: stock.weights, intercept: stock.intercept,
            acceptProbability: 1.01, confirmProbability: stock.confirmProbability,
            neuralCheck: DecisionModel.NeuralCheck(probability: 1.01, acceptProbability: check.acceptProbability,
                                                   offListMargin: check.offListMargin, model: check.model))
        let recognizer = try Self.recognizer(alwaysReadsNeural: false, decisionModel: neverSure)
        let samples = try TestFlights.samples("lx40.wav")
        let batch = try recognizer.decodeSnapshot(samples).result
        #expect(batch.decision.acceptedFlight == nil, "\(batch.decision)")
        #expect(batch.features?.neural == nil)
        recognizer.waitForRivalPrediction()
        let ahead = try recognizer.decodeSnapshot(samples, neuralBesideComparisons: true)
        #expect(ahead.cost.steps.neuralAhead && ahead.cost.steps.neuralUnused)
        #expect(ahead.result.features?.neural == nil)
        RivalPredictionTests.expectSameResult(ahead.result, batch, "lx40.wav")
        let pass = try NeuralPassTests.pass()
        let expected = try pass.read(samples, grammarFlight: batch.grammarFlights.first)
        let cancellation = DecodeCancellation()
        cancellation.cancel()
        #expect(throws: DecodeCancelled.self) { try pass.read(samples, grammarFlight: batch.grammarFlights.first, cancellation: cancellation) }
        Self.expectSameReading(try pass.read(samples, grammarFlight: batch.grammarFlights.first), expected, "lx40.wav after a stopped read")
    }
}
