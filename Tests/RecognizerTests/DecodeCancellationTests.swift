@testable import Recognizer
import FlightCore
import Testing

/// A background decode the live path no longer needs stops between passes and leaves the recognizer as it was.
@Suite(.serialized) struct DecodeCancellationTests {
    @Test(arguments: [false, true])
    func aCancelledDecodeGivesNoResultAndTheNextDecodeIsUnchanged(predictingTheRival: Bool) throws {
        var configuration = RecognizerConfiguration()
        configuration.alwaysReadsRival = true
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary, configuration: configuration)
        try recognizer.prepareStreaming()
        let samples = try TestFlights.samples("ba287.wav")
        let expected = try recognizer.decodeSnapshot(samples).result
        let predicted = predictingTheRival ? expected.grammarFlights : []
        recognizer.waitForRivalPrediction()
        let cancellation = DecodeCancellation()
        cancellation.cancel()
        #expect(throws: DecodeCancelled.self) {
            try recognizer.decodeSnapshot(samples, predictedFlights: predicted, cancellation: cancellation)
        }
        recognizer.waitForRivalPrediction()
        let again = try recognizer.decodeSnapshot(samples, predictedFlights: predicted).result
        RivalPredictionTests.expectSameResult(again, expected, "ba287.wav")
    }
}
