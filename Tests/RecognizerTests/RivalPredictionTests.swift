@testable import Recognizer
import FlightCore
import Testing

/// The rival decoded alongside today's grammar for predicted flights decides exactly as the rival decoded after it.
@Suite(.serialized) struct RivalPredictionTests {
    static let clips = ["lx40.wav", "ba287.wav", "lh400.wav", "speedbird287.wav", "lima-xray-1234.wav"]

    static func expectSameResult(_ concurrent: RecognitionResult, _ sequential: RecognitionResult, _ clip: String) {
        #expect(concurrent.rivalReading == sequential.rivalReading, "\(clip)")
        #expect(concurrent.openReading == sequential.openReading, "\(clip)")
        #expect(concurrent.logLikelihoodRatio == sequential.logLikelihoodRatio, "\(clip)")
        #expect(concurrent.fitScore == sequential.fitScore, "\(clip)")
        #expect(concurrent.confidence == sequential.confidence, "\(clip)")
        #expect(concurrent.decision == sequential.decision, "\(clip)")
        #expect(concurrent.transcript == sequential.transcript, "\(clip)")
    }

    /// A recognizer that reads the rival of every clip, its live decoders ready.
    static func readyRecognizer() throws -> FlightRecognizer {
        var configuration = RecognizerConfiguration()
        configuration.alwaysReadsRival = true
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
        try recognizer.prepareStreaming()
        return recognizer
    }

    @Test func aPredictedRivalGivesTheSameResultAsTheSequentialOne() throws {
        let recognizer = try Self.readyRecognizer()
        for (index, clip) in Self.clips.enumerated() {
            let samples = try TestFlights.samples(clip)
            let sequential = try recognizer.decodeSnapshot(samples).result
            #expect(sequential.rivalReading != nil, "\(clip): the rival was read")
            #expect(!sequential.grammarFlights.isEmpty, "\(clip)")
            // Every other clip has its rival compiled ahead, as the live path does while the traveller speaks.
            if index.isMultiple(of: 2) { try recognizer.prepareRival(excluding: sequential.grammarFlights) }
            recognizer.waitForRivalPrediction()
            let concurrent = try recognizer.decodeSnapshot(samples, predictedFlights: sequential.grammarFlights)
            #expect(concurrent.cost.predictionCPUSeconds != nil, "\(clip): the predicted rival was used")
            Self.expectSameResult(concurrent.result, sequential, clip)
        }
        #expect(recognizer.predictedRivalsUsed == Self.clips.count)
    }

    @Test func aRivalStartedOnceTodaysGrammarIsDoneGivesTheSameResultAsTheSequentialOne() throws {
        let recognizer = try Self.readyRecognizer()
        for clip in Self.clips {
            let samples = try TestFlights.samples(clip)
            let sequential = try recognizer.decodeSnapshot(samples).result
            #expect(sequential.rivalReading != nil, "\(clip): the rival was read")
            recognizer.waitForRivalPrediction()
            let beside = try recognizer.decodeSnapshot(samples, rivalBesideComparisons: true)
            #expect(beside.cost.predictionCPUSeconds != nil, "\(clip): the rival started beside the comparisons was used")
            Self.expectSameResult(beside.result, sequential, clip)
        }
        #expect(recognizer.predictedRivalsUsed == Self.clips.count)
    }

    @Test func aWrongPredictionFallsBackToTheSequentialRival() throws {
        let recognizer = try Self.readyRecognizer()
        for clip in Self.clips {
            let samples = try TestFlights.samples(clip)
            let sequential = try recognizer.decodeSnapshot(samples).result
            let wrong = TestFlights.vocabulary.flights.filter { !sequential.grammarFlights.contains($0) }.prefix(1)
            #expect(!wrong.isEmpty)
            recognizer.waitForRivalPrediction()
            let concurrent = try recognizer.decodeSnapshot(samples, predictedFlights: Array(wrong))
            #expect(concurrent.cost.predictionCPUSeconds == nil, "\(clip): the mispredicted rival was not used")
            Self.expectSameResult(concurrent.result, sequential, clip)
        }
        #expect(recognizer.predictedRivalsUsed == 0)
    }
}
