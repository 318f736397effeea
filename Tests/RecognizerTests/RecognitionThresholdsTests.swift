@testable import Recognizer
import Testing

@Suite("Decision thresholds")
struct RecognitionThresholdsTests {
    let thresholds = RecognitionThresholds()

    @Test("clean audio has its own accept threshold; unknown noise gets the noisy one")
    func acceptThresholdByNoise() {
        #expect(thresholds.acceptScore(signalToNoise: thresholds.cleanSignal) == thresholds.acceptScoreClean)
        #expect(thresholds.acceptScore(signalToNoise: thresholds.cleanSignal - 0.1) == thresholds.acceptScore)
        #expect(thresholds.acceptScore(signalToNoise: nil) == thresholds.acceptScore)
    }

    @Test("a word spoken at an unhurried pace costs nothing; faster costs in proportion; an unknown pace costs nothing")
    func squeezePenalty() {
        let natural = thresholds.naturalFramesPerPhone
        #expect(thresholds.squeezePenalty(framesPerPhone: natural) == 0)
        #expect(thresholds.squeezePenalty(framesPerPhone: natural + 5) == 0)
        #expect(thresholds.squeezePenalty(framesPerPhone: natural - 2) == 2 * thresholds.squeezedWordPenalty)
        #expect(thresholds.squeezePenalty(framesPerPhone: 3) > thresholds.squeezePenalty(framesPerPhone: 5))
        #expect(thresholds.squeezePenalty(framesPerPhone: nil) == 0)
    }
}
