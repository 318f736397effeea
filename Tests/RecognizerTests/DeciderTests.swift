import FlightCore
@testable import Recognizer
import Testing

/// The decision stage on its own: features made by hand, no decoder.
@Suite("Deciding on decision features")
struct DeciderTests {
    static let lx40 = FlightNumber(parsing: "LX40")!
    static let lx44 = FlightNumber(parsing: "LX44")!
    let decider = Decider(thresholds: RecognitionThresholds())
    var thresholds: RecognitionThresholds { decider.thresholds }

    /// Features of "l x forty" heard as LX 40 whose flight words fit against the phone loop by `fit` per frame, with
    /// the open grammar reading `open` (gap 0: as well as today's grammar), clean audio and an unhurried pace.
    static func features(fit: Double, open: FlightNumber? = nil, openIsToday: Bool = false, heard: [FlightNumber] = [lx40],
                         unexplained: Double = 0, rival: RivalReading? = nil) -> DecisionFeatures {
        let words = ["l", "x", "forty"].enumerated().map { index, word in
            DecisionFeatures.Word(word: word, startFrame: 30 * index, endFrame: 30 * index + 29, phoneLoopRatio: fit,
                                  openGrammarGap: 0, framesPerPhone: 12)
        }
        return DecisionFeatures(
            transcript: "l x forty", pathScore: -100_000, words: words, flightWordIndices: [0, 1, 2], grammarFlights: heard,
            candidates: [], heardFlights: heard,
            openReading: OpenGrammarReading(text: "open", flight: open, fitDifference: 0), openFlightIsToday: openIsToday,
            logLikelihoodRatio: fit, flightWordsRatio: fit, shortestFlightWordFramesPerPhone: 12, signalToNoiseRatio: 40,
            unexplainedSpeechSeconds: unexplained, speechFrames: 90, alternatives: [], rival: rival)
    }

    @Test("a good fit is answered; confidence is above one half exactly when answered")
    func goodFitIsAccepted() {
        let verdict = decider.decide(Self.features(fit: thresholds.acceptScoreClean + 1))
        #expect(verdict.decision == .accepted(Self.lx40))
        #expect(verdict.confidence > 0.5)
        #expect(verdict.wordConfidences.count == 3)
        let unsure = decider.decide(Self.features(fit: thresholds.acceptScoreClean - 1))
        #expect(unsure.decision == .confirm([Self.lx40]))
        #expect(unsure.confidence < 0.5)
    }

    @Test("below the reject threshold the traveller is asked again, whatever the rival's lead")
    func poorFitIsRejected() {
        let poor = thresholds.rejectScore - 1
        let verdict = decider.decide(Self.features(fit: poor, rival: RivalReading(text: "", flight: Self.lx44, margin: 100)))
        #expect(verdict.decision == .rejected(.lowConfidence(score: poor)))
    }

    @Test("no flight among the words heard is not a flight")
    func noFlight() {
        #expect(decider.decide(Self.features(fit: 0, heard: [])).decision == .rejected(.notAFlight))
    }

    @Test("the open grammar hearing another of today's flights makes both a question")
    func openGrammarsOtherFlightOfToday() {
        let verdict = decider.decide(Self.features(fit: 0, open: Self.lx44, openIsToday: true))
        #expect(verdict.decision == .confirm([Self.lx40, Self.lx44]))
    }

    @Test("the open grammar agreeing on the flight lowers the bar to the reject threshold")
    func agreementLowersTheBar() {
        let between = (thresholds.rejectScore + thresholds.acceptScoreClean) / 2
        #expect(decider.decide(Self.features(fit: between, open: Self.lx40, openIsToday: true)).decision == .accepted(Self.lx40))
        #expect(decider.decide(Self.features(fit: between)).decision.acceptedFlight == nil)
    }

    @Test("speech the words do not explain turns an answer into a question")
    func unexplainedSpeech() {
        let verdict = decider.decide(Self.features(fit: 0, unexplained: thresholds.unexplainedSpeechSeconds))
        #expect(verdict.decision == .confirm([Self.lx40]))
    }

    @Test("the rival is wanted only where its lead could change the decision")
    func rivalWantedWhereItCanDecide() {
        #expect(decider.wantsRival(Self.features(fit: thresholds.acceptScoreClean - 1)))
        #expect(!decider.wantsRival(Self.features(fit: thresholds.acceptScoreClean - thresholds.largestRivalShare - 1)))
        #expect(!decider.wantsRival(Self.features(fit: thresholds.acceptScoreClean - 1, open: Self.lx40)), "the grammars agree")
        let lifted = decider.decide(Self.features(fit: thresholds.acceptScoreClean - 1,
                                                  rival: RivalReading(text: "l x forty four", flight: Self.lx44, margin: 1)))
        #expect(lifted.decision == .accepted(Self.lx40))
        #expect(lifted.fitScore! - lifted.fitScoreWithoutRival! == thresholds.rivalShare(margin: 1))
    }
}
