@testable import Recognizer
import Testing

/// The rival decoded alongside today's grammar for predicted flights decides exactly as the rival decoded after it.
@Suite(.serialized) struct RivalPredictionTests {
    @Test func aPredictedRivalGivesTheSameResultAsTheSequentialOne() throws {
        var configuration = RecognizerConfiguration()
        configuration.alwaysReadsRival = true
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
        recognizer.awaitsRivalPrediction = true
        let clips = ["lx40.wav", "ba287.wav", "lh400.wav", "speedbird287.wav", "lima-xray-1234.wav"]
        for clip in clips {
            let samples = try TestFlights.samples(clip)
            let sequential = try recognizer.decodeSnapshot(samples).result
            recognizer.waitForRivalPrediction()
            let concurrent = try recognizer.decodeSnapshot(samples, predictsRival: true)
            #expect(sequential.rivalReading != nil, "\(clip): the rival was read")
            #expect(concurrent.result.rivalReading == sequential.rivalReading, "\(clip)")
            #expect(concurrent.result.fitScore == sequential.fitScore, "\(clip)")
            #expect(concurrent.result.decision == sequential.decision, "\(clip)")
            #expect(concurrent.result.transcript == sequential.transcript, "\(clip)")
        }
        recognizer.waitForRivalPrediction()
        // Otherwise the test would compare the sequential rival with itself.
        #expect(recognizer.predictedRivalsUsed >= clips.count - 1, "the quick reading predicted the flights heard")
    }
}
