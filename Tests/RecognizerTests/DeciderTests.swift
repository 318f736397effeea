import Foundation
import FlightCore
@testable import Recognizer
import Testing

/// The decision stage on its own: features made by hand, no decoder.
@Suite("Deciding on decision features")
struct DeciderTests {
    static let lx40 = FlightNumber(parsing: "LX40")!
    static let lx44 = FlightNumber(parsing: "LX44")!
    let decider = Decider(thresholds: RecognitionThresholds(), model: nil)
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

@Suite("Deciding on the calibrated probability")
struct CalibratedDeciderTests {
    /// A model that reads only the flight words' fit: probability one half at fit -50, rising by e per unit.
    static let fitOnly: DecisionModel = {
        let count = DecisionModel.inputNames.count
        var weights = [Double](repeating: 0, count: count)
        weights[0] = 1
        return DecisionModel(inputNames: DecisionModel.inputNames, means: [-50] + [Double](repeating: 0, count: count - 1),
                             scales: [Double](repeating: 1, count: count), weights: weights, intercept: 0,
                             acceptProbability: 0.9, confirmProbability: 0.3)
    }()
    let decider = Decider(thresholds: RecognitionThresholds(), model: fitOnly)

    /// A decider on `fitOnly` with a second opinion, a cross-check or a neural check added.
    static func fitOnlyDecider(agreementProbability: Double? = nil, crossCheck: DecisionModel.CrossCheck? = nil,
                               neuralCheck: DecisionModel.NeuralCheck? = nil) -> Decider {
        let model = fitOnly
        return Decider(thresholds: RecognitionThresholds(), model: DecisionModel(
            inputNames: model.inputNames, means: model.means, scales: model.scales, weights: model.weights, intercept: model.intercept,
            acceptProbability: model.acceptProbability, confirmProbability: model.confirmProbability,
            agreementProbability: agreementProbability, crossCheck: crossCheck, neuralCheck: neuralCheck))
    }

    /// The committed decision models: the stock model's (Swift source) and the default adapted model's (its folder's file).
    static func committedModels() throws -> [DecisionModel] {
        [.stock, try DecisionModel.belonging(toAcousticModel: try #require(RecognizerConfiguration.adaptedAcousticModel))]
    }

    @Test("each committed model reads the inputs the fitting script writes, in the same order")
    func committedModelMatchesInputs() throws {
        for model in try Self.committedModels() {
            #expect(model.inputNames == DecisionModel.inputNames)
            #expect(DecisionModel.inputs(DeciderTests.features(fit: -50)).count == model.inputNames.count)
            #expect(model.confirmProbability <= model.acceptProbability)
            if let agreement = model.agreementProbability { #expect((model.confirmProbability...model.acceptProbability).contains(agreement)) }
            if let crossCheck = model.crossCheck { #expect(crossCheck.probability < model.acceptProbability) }
        }
    }

    @Test("answer from the accept probability, ask between, ask again below; confidence is the probability")
    func decidesOnProbability() {
        let sure = decider.decide(DeciderTests.features(fit: -47))
        #expect(sure.decision == .accepted(DeciderTests.lx40))
        #expect(abs(sure.confidence - 1 / (1 + exp(-3))) < 1e-12)
        #expect(sure.wordConfidences.allSatisfy { $0 == sure.confidence })
        #expect(decider.decide(DeciderTests.features(fit: -50)).decision == .confirm([DeciderTests.lx40]))
        #expect(decider.decide(DeciderTests.features(fit: -53)).decision.acceptedFlight == nil)
        if case .rejected(.lowConfidence(let probability)) = decider.decide(DeciderTests.features(fit: -53)).decision {
            #expect(probability < 0.3)
        } else {
            Issue.record("a probability below the confirm probability asks again")
        }
    }

    @Test("doubt still asks: another of today's flights heard by the open grammar, or unexplained speech")
    func doubtAsks() {
        #expect(decider.decide(DeciderTests.features(fit: -40, open: DeciderTests.lx44, openIsToday: true)).decision
                == .confirm([DeciderTests.lx40, DeciderTests.lx44]))
        #expect(decider.decide(DeciderTests.features(fit: -40, unexplained: 1)).decision == .confirm([DeciderTests.lx40]))
    }

    @Test("edits between the flight heard and the open grammar's count characters: one for \"u x forty\" against LX 40")
    func editDistance() {
        #expect(DecisionModel.edits("LX40", "UX40") == 1)
        #expect(DecisionModel.edits("LX40", "LX340") == 1)
        #expect(DecisionModel.edits("EK85", "TP53") == 4)
        #expect(DecisionModel.edits("", "LX8") == 3)
        #expect(DecisionModel.edits("BA287", "BA287") == 0)
    }

    @Test("each committed model trusts a flight the open grammar nearly agrees with more than one it reads as far off")
    func openGrammarsDistanceCounts() throws {
        for model in try Self.committedModels() {
            let near = model.probability(DeciderTests.features(fit: -30, open: FlightNumber(parsing: "UX40")!))
            let far = model.probability(DeciderTests.features(fit: -30, open: FlightNumber(parsing: "TP5388")!))
            #expect(near > far, "near \(near), far \(far)")
        }
        let names = DecisionModel.inputNames
        let inputs = DecisionModel.inputs(DeciderTests.features(fit: -30, open: FlightNumber(parsing: "UX40")!))
        #expect(inputs[try #require(names.firstIndex(of: "open_distance"))] == 1)
        #expect(inputs[try #require(names.firstIndex(of: "open_airline_differs"))] == 1)
        #expect(!names.contains("carrier_words"), "the words around the flight must not count against it")
    }

    @Test("with an agreement probability, a flight the second acoustic model also heard is answered from it; another, or none, is asked")
    func secondOpinionAnswers() {
        let agreeing = Self.fitOnlyDecider(agreementProbability: 0.6)
        func heard(fit: Double, secondOpinion: [FlightNumber]?, open: FlightNumber? = nil) -> DecisionFeatures {
            var features = DeciderTests.features(fit: fit, open: open, openIsToday: open != nil)
            features.secondOpinionFlights = secondOpinion
            return features
        }
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        #expect(agreeing.wantsSecondOpinion(heard(fit: -49, secondOpinion: nil)), "p 0.73: between agreement and accept")
        #expect(agreeing.decide(heard(fit: -49, secondOpinion: [lx40])).decision == .accepted(lx40))
        #expect(agreeing.decide(heard(fit: -49, secondOpinion: [lx44])).decision == .confirm([lx40]))
        #expect(agreeing.decide(heard(fit: -49, secondOpinion: [])).decision == .confirm([lx40]))
        #expect(agreeing.decide(heard(fit: -49, secondOpinion: nil)).decision == .confirm([lx40]))
        #expect(decider.decide(heard(fit: -49, secondOpinion: [lx40])).decision == .confirm([lx40]), "no agreement probability: no second opinion")
        #expect(!decider.wantsSecondOpinion(heard(fit: -49, secondOpinion: nil)))

        #expect(!agreeing.wantsSecondOpinion(heard(fit: -49.8, secondOpinion: nil)), "p 0.55: below the agreement probability")
        #expect(agreeing.decide(heard(fit: -49.8, secondOpinion: [lx40])).decision == .confirm([lx40]))
        #expect(!agreeing.wantsSecondOpinion(heard(fit: -47, secondOpinion: nil)), "answered without it")
        #expect(!agreeing.wantsSecondOpinion(heard(fit: -49, secondOpinion: nil, open: lx44)), "doubt asks whatever it hears")
        #expect(agreeing.decide(heard(fit: -49, secondOpinion: [lx40], open: lx44)).decision == .confirm([lx40, lx44]))
    }

    @Test("with a cross-check, a flight a second model's own decision heard at its probability is answered from the lower one; else asked as before")
    func crossCheckAnswers() {
        let checking = Self.fitOnlyDecider(crossCheck: DecisionModel.CrossCheck(probability: 0.25, otherModelProbability: 0.7))
        func heard(fit: Double, other: FlightNumber?, probability: Double = 0.9, open: FlightNumber? = nil, unexplained: Double = 0) -> DecisionFeatures {
            var features = DeciderTests.features(fit: fit, open: open, openIsToday: open != nil, unexplained: unexplained)
            features.crossCheck = DecisionFeatures.CrossCheckReading(flight: other, probability: probability)
            return features
        }
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        #expect(checking.wantsCrossCheck(heard(fit: -49, other: nil)), "p 0.73: between the cross-check's and accept")
        #expect(checking.decide(heard(fit: -49, other: lx40)).decision == .accepted(lx40))
        #expect(checking.decide(heard(fit: -49, other: lx40, probability: 0.69)).decision == .confirm([lx40]), "the other model unsure")
        #expect(checking.decide(heard(fit: -49, other: lx44)).decision == .confirm([lx40]), "another flight")
        #expect(checking.decide(heard(fit: -49, other: nil)).decision == .confirm([lx40]), "no flight")
        #expect(checking.decide(DeciderTests.features(fit: -49)).decision == .confirm([lx40]), "not decoded")
        #expect(checking.decide(heard(fit: -51, other: lx40)).decision == .accepted(lx40), "p 0.27: under the confirm probability, over the cross-check's")
        #expect(checking.decide(heard(fit: -51, other: lx44)).decision.isRejected)
        #expect(!checking.wantsCrossCheck(heard(fit: -52, other: nil)), "p 0.12: below the cross-check's probability")
        #expect(checking.decide(heard(fit: -52, other: lx40)).decision.isRejected)
        #expect(!checking.wantsCrossCheck(heard(fit: -47, other: nil)), "answered without it")
        #expect(!checking.wantsCrossCheck(heard(fit: -49, other: nil, open: lx44)), "doubt asks whatever it hears")
        #expect(checking.decide(heard(fit: -49, other: lx40, open: lx44)).decision == .confirm([lx40, lx44]))
        #expect(checking.decide(heard(fit: -51, other: lx40, open: lx44)).decision.isRejected, "read where not asked, it decides nothing")
        #expect(!checking.wantsCrossCheck(heard(fit: -49, other: nil, unexplained: 1)))
        #expect(decider.decide(heard(fit: -49, other: lx40)).decision == .confirm([lx40]), "no cross-check in the model")
        #expect(!decider.wantsCrossCheck(heard(fit: -49, other: nil)))
    }

    /// A neural decision model that looks only at `input` (standardized as is): p = σ(weight · value + intercept).
    static func neuralModel(_ input: String, weight: Double, intercept: Double) -> NeuralDecisionModel {
        let count = NeuralDecisionModel.inputNames.count
        var weights = [Double](repeating: 0, count: count)
        weights[NeuralDecisionModel.inputNames.firstIndex(of: input)!] = weight
        return NeuralDecisionModel(inputNames: NeuralDecisionModel.inputNames, means: [Double](repeating: 0, count: count),
                                   scales: [Double](repeating: 1, count: count), weights: weights, intercept: intercept)
    }

    /// A neural check asked from p 0.25 that answers from 0.8 of p = σ(4 · margin − 2): sure from a lead of 0.85 nats per token.
    static func marginCheck(offListMargin: Double = -.infinity, asksOverRunnerUp: Bool = false, disputeProbability: Double? = nil,
                            belowFloorProbability: Double? = nil, overRunnerUpProbability: Double? = nil,
                            offerProbability: Double? = nil) -> DecisionModel.NeuralCheck {
        DecisionModel.NeuralCheck(probability: 0.25, acceptProbability: 0.8, disputeProbability: disputeProbability,
                                  belowFloorProbability: belowFloorProbability, offListMargin: offListMargin, asksOverRunnerUp: asksOverRunnerUp,
                                  overRunnerUpProbability: overRunnerUpProbability, offerProbability: offerProbability,
                                  model: neuralModel("margin", weight: 4, intercept: -2))
    }

    /// `features(fit:…)` with the neural model's reading: `neural` first, leading today's next flight by `margin`.
    static func withNeural(fit: Double, grammar: [FlightNumber] = [DeciderTests.lx40], neural: FlightNumber?, margin: Double? = 1, score: Double = -2,
                           grammarRank: Int? = nil, free: FlightNumber? = nil, offList: Double? = nil, open: FlightNumber? = nil,
                           unexplained: Double = 0, tuned: FlightNumber? = nil) -> DecisionFeatures {
        var features = DeciderTests.features(fit: fit, open: open, openIsToday: open != nil, heard: grammar, unexplained: unexplained)
        features.neural = DecisionFeatures.NeuralReading(flight: neural, text: "L X 40.", score: score, margin: margin, grammarFlightRank: grammarRank,
                                                         freeTranscript: "", freeTranscriptFlight: free,
                                                         offListFlight: offList == nil ? nil : FlightNumber(parsing: "LX440"), offListMargin: offList,
                                                         tuned: tuned.map { DecisionFeatures.TunedReading(flight: $0, score: -0.5, margin: 1) })
        return features
    }

    @Test("where its model judges the tuned decoder too, a grammar's answer of a flight neither decoder puts first is asked, the tuned one's first")
    func tunedDecoderDisputes() {
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        let margin = Self.marginCheck()
        let names = NeuralDecisionModel.inputNames + NeuralDecisionModel.tunedInputNames
        let tunedModel = NeuralDecisionModel(inputNames: names, means: margin.model.means + [0, 0, 0], scales: margin.model.scales + [1, 1, 1],
                                             weights: margin.model.weights + [0, 0, 0], intercept: margin.model.intercept)
        let judgingTuned = Self.fitOnlyDecider(neuralCheck: DecisionModel.NeuralCheck(probability: 0.25, acceptProbability: 0.8, model: tunedModel))
        // σ(4 · 0 − 2) = 0.12: the stock decoder's own reading disputes nothing.
        #expect(judgingTuned.decide(Self.withNeural(fit: -47, neural: lx44, margin: 0, tuned: lx44)).decision == .confirm([lx44, lx40]))
        #expect(judgingTuned.decide(Self.withNeural(fit: -47, neural: lx40, tuned: lx44)).decision == .accepted(lx40),
                "the stock decoder puts the grammar's answer first: one reading against two (\"Swiss forty\", not \"LX 43 or LX 40?\")")
        #expect(judgingTuned.decide(Self.withNeural(fit: -47, neural: lx44, margin: 0, tuned: lx40)).decision == .accepted(lx40))
        #expect(judgingTuned.decide(Self.withNeural(fit: -47, neural: lx44, margin: 0)).decision == .accepted(lx40), "no tuned reading, nothing to dispute")
        #expect(judgingTuned.decide(Self.withNeural(fit: -49, neural: lx44, margin: 0, tuned: lx44)).decision == .confirm([lx40]),
                "the grammar asks already: as it asks")
        #expect(Self.fitOnlyDecider(neuralCheck: margin).decide(Self.withNeural(fit: -47, neural: lx44, margin: 0, tuned: lx44)).decision == .accepted(lx40),
                "a check whose model does not judge the tuned decoder ignores it")
    }

    @Test("with a neural check, the neural model's first flight is answered where the grammar's decision does not answer and its decision model is sure of it, whatever the grammar heard")
    func neuralCheckAnswers() throws {
        let checking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck())
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        #expect(checking.wantsNeuralCheck(DeciderTests.features(fit: -49)), "p 0.73: between the neural check's and accept")
        let sure = checking.decide(Self.withNeural(fit: -49, neural: lx40))
        #expect(sure.decision == .accepted(lx40))
        #expect(abs(sure.confidence - 1 / (1 + exp(-2.0))) < 1e-9, "the neural decision model's probability is the answer's confidence")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44)).decision == .accepted(lx44), "sure of another flight than the grammar's")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx40, margin: nil)).decision == .accepted(lx40), "the only flight of the day")
        let unsure = checking.decide(Self.withNeural(fit: -49, neural: lx44, margin: 0.4))
        #expect(unsure.decision == .confirm([lx40]), "not sure: the grammar's decision")
        #expect(abs(unsure.confidence - 1 / (1 + exp(-1.0))) < 1e-9, "the grammar's probability")
        #expect(checking.decide(DeciderTests.features(fit: -49)).decision == .confirm([lx40]), "not read")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: nil)).decision == .confirm([lx40]), "read no flight")
        #expect(checking.decide(Self.withNeural(fit: -51, neural: lx44)).decision == .accepted(lx44), "p 0.27: under the confirm probability, over the check's")
        #expect(!checking.wantsNeuralCheck(DeciderTests.features(fit: -52)), "p 0.12: below the neural check's probability")
        #expect(checking.decide(Self.withNeural(fit: -52, neural: lx40)).decision.isRejected, "read where not asked, it decides nothing")
        #expect(checking.wantsNeuralCheck(DeciderTests.features(fit: -52, heard: [])), "nothing of today's heard")
        #expect(checking.decide(Self.withNeural(fit: -52, grammar: [], neural: lx44)).decision == .accepted(lx44))
        #expect(checking.wantsNeuralCheck(DeciderTests.features(fit: -49, unexplained: 1)), "speech the words do not explain: the neural model reads it too")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, unexplained: 1)).decision == .accepted(lx44))
        #expect(checking.decide(Self.withNeural(fit: -47, neural: lx44, unexplained: 1)).decision == .accepted(lx44),
                "p 0.95: over the accept probability, but the grammar asks")
        #expect(decider.decide(Self.withNeural(fit: -49, neural: lx44)).decision == .confirm([lx40]), "no neural check in the model")
    }

    @Test("where the grammar answers one flight and the neural check is sure of another, it asks which, the neural model's first")
    func neuralCheckDisputesAnswers() throws {
        let checking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck())
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        let grammarAlone = Self.fitOnlyDecider().decide(DeciderTests.features(fit: -47))
        #expect(grammarAlone.decision == .accepted(lx40), "the grammar answers LX 40 at fit −47")
        #expect(checking.wantsNeuralCheck(DeciderTests.features(fit: -47)), "read where the grammar answers, to dispute it")
        let disputed = checking.decide(Self.withNeural(fit: -47, neural: lx44))
        #expect(disputed.decision == .confirm([lx44, lx40]))
        #expect(abs(disputed.confidence - (1 - 1 / (1 + exp(-2.0)))) < 1e-9, "what the neural decision model leaves the grammar's flight")
        let agreeing = checking.decide(Self.withNeural(fit: -47, neural: lx40))
        #expect(agreeing.decision == .accepted(lx40) && agreeing.confidence == grammarAlone.confidence, "the same flight: the grammar's answer, as sure")
        #expect(checking.decide(Self.withNeural(fit: -47, neural: lx44, margin: 0.4)).decision == .accepted(lx40), "not sure of its own: the grammar's answer")
        #expect(checking.decide(Self.withNeural(fit: -47, neural: nil)).decision == .accepted(lx40), "read no flight")
        let doubted = DeciderTests.features(fit: -47, open: lx44, openIsToday: true)
        #expect(checking.decide(doubted).decision == .confirm([lx40, lx44]), "the open grammar doubts: the grammar's decision asks")
        #expect(checking.wantsNeuralCheck(doubted), "where the grammar asks, however sure of its flight, the check may answer")
        #expect(checking.decide(Self.withNeural(fit: -47, neural: lx44, open: lx44)).decision == .accepted(lx44))
        let guarded = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(offListMargin: -0.3))
        #expect(guarded.decide(Self.withNeural(fit: -47, neural: lx44, offList: -0.4)).decision == .accepted(lx40), "LX 440 fits better: no dispute")
        let same = Self.withNeural(fit: -47, neural: lx40), other = Self.withNeural(fit: -47, neural: lx44)
        #expect(!guarded.neuralCheckMayDecide(same, reading: same.neural!), "the grammar's own flight: its neighbours change nothing")
        #expect(guarded.neuralCheckMayDecide(other, reading: other.neural!), "another flight: they may stop the dispute")
    }

    @Test("from its dispute probability, below the one it answers from, the neural check asks which where the grammar answers another flight")
    func neuralCheckDisputesFromItsOwnProbability() throws {
        let checking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(disputeProbability: 0.5))
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        let likely = Self.withNeural(fit: -47, neural: lx44, margin: 0.6)
        let disputed = checking.decide(likely)
        #expect(disputed.decision == .confirm([lx44, lx40]), "p 0.60 of LX 44: the grammar's LX 40 more likely wrong than right")
        #expect(abs(disputed.confidence - (1 - 1 / (1 + exp(-0.4)))) < 1e-9)
        #expect(checking.neuralCheckMayDecide(likely, reading: likely.neural!))
        #expect(Self.fitOnlyDecider(neuralCheck: Self.marginCheck()).decide(likely).decision == .accepted(lx40), "by default it disputes from 0.8")
        #expect(checking.decide(Self.withNeural(fit: -47, neural: lx44, margin: 0.4)).decision == .accepted(lx40), "p 0.40: the grammar's answer")
        let unanswered = Self.withNeural(fit: -49, neural: lx44, margin: 0.6)
        #expect(checking.decide(unanswered).decision == .confirm([lx40]), "where the grammar asks, it answers only from 0.8")
        #expect(!checking.neuralCheckMayDecide(unanswered, reading: unanswered.neural!))
    }

    @Test("asking over the runner-up, where the grammar would offer a flight the neural model ranks next, it asks which instead of answering its own")
    func neuralCheckAsksOverRunnerUp() throws {
        let asking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(asksOverRunnerUp: true))
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        let hair = asking.decide(Self.withNeural(fit: -49, neural: lx44, grammarRank: 1))
        #expect(hair.decision == .confirm([lx44, lx40]), "p 0.73: the grammar offers LX 40, the neural model's next")
        #expect(abs(hair.confidence - (1 - 1 / (1 + exp(-2.0)))) < 1e-9, "what the neural decision model leaves the grammar's flight")
        #expect(asking.decide(Self.withNeural(fit: -49, neural: lx44, grammarRank: 2)).decision == .accepted(lx44), "ranked further down")
        #expect(asking.decide(Self.withNeural(fit: -49, neural: lx44)).decision == .accepted(lx44), "pruned from the neural model's ranking")
        #expect(asking.decide(Self.withNeural(fit: -51, neural: lx44, grammarRank: 1)).decision == .accepted(lx44),
                "p 0.27: below the confirm probability the grammar offers nothing")
        #expect(asking.decide(Self.withNeural(fit: -52, grammar: [], neural: lx44)).decision == .accepted(lx44), "nothing of today's heard")
        #expect(asking.decide(Self.withNeural(fit: -49, neural: lx40, grammarRank: 0)).decision == .accepted(lx40), "the same flight")
        let answering = Self.fitOnlyDecider(neuralCheck: Self.marginCheck())
        #expect(answering.decide(Self.withNeural(fit: -49, neural: lx44, grammarRank: 1)).decision == .accepted(lx44), "a check that does not ask there")
    }

    @Test("with a probability of its own below the grammar's floor, the neural check answers there only a flight it is that sure of")
    func neuralCheckBelowTheFloor() throws {
        let checking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(belowFloorProbability: 0.95))
        let lx44 = DeciderTests.lx44
        #expect(checking.wantsNeuralCheck(DeciderTests.features(fit: -52)), "p 0.12: below the check's probability, asked all the same")
        let likely = Self.withNeural(fit: -52, neural: lx44)
        #expect(checking.decide(likely).decision.isRejected, "σ(2) = 0.88 of LX 44: enough above the floor, not below it")
        #expect(!checking.neuralCheckMayDecide(likely, reading: likely.neural!))
        let sure = checking.decide(Self.withNeural(fit: -52, neural: lx44, margin: 1.5))
        #expect(sure.decision == .accepted(lx44), "σ(4) = 0.98")
        #expect(abs(sure.confidence - 1 / (1 + exp(-4.0))) < 1e-9)
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44)).decision == .accepted(lx44), "p 0.73: from the check's own 0.8")
        #expect(checking.decide(Self.withNeural(fit: -52, grammar: [], neural: lx44)).decision == .accepted(lx44), "nothing of today's heard: from 0.8")
        #expect(Self.fitOnlyDecider(neuralCheck: Self.marginCheck()).decide(Self.withNeural(fit: -52, neural: lx44, margin: 1.5)).decision.isRejected,
                "a check with no probability below its floor is not asked there")
    }

    @Test("from its probability over the runner-up, the neural check answers its flight where it would otherwise ask which")
    func neuralCheckAnswersOverRunnerUp() throws {
        let checking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(asksOverRunnerUp: true, overRunnerUpProbability: 0.95))
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, grammarRank: 1)).decision == .confirm([lx44, lx40]), "σ(2) = 0.88: asks")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, margin: 1.5, grammarRank: 1)).decision == .accepted(lx44), "σ(4) = 0.98: answers")
        #expect(checking.decide(Self.withNeural(fit: -47, neural: lx44, margin: 1.5)).decision == .confirm([lx44, lx40]),
                "where the grammar answers another flight, the two disagree: it still asks")
    }

    @Test("where it may answer but is less sure, from its offer probability the neural check offers its flight, before those the grammar offers, instead of asking again")
    func neuralCheckOffers() throws {
        let offering = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(offListMargin: -0.3, offerProbability: 0.5))
        let answeringOnly = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(offListMargin: -0.3))
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        let likely = Self.withNeural(fit: -51, neural: lx44, margin: 0.6)
        #expect(answeringOnly.decide(likely).decision.isRejected, "p 0.27, σ(0.4) = 0.60 of LX 44: refused by a check that offers nothing")
        let offered = offering.decide(likely)
        #expect(offered.decision == .confirm([lx44]), "the grammar offers nothing: the neural model's flight alone")
        #expect(abs(offered.confidence - 1 / (1 + exp(-0.4))) < 1e-9, "the neural decision model's probability is the question's confidence")
        #expect(offering.decide(Self.withNeural(fit: -49, neural: lx44, margin: 0.6)).decision == .confirm([lx44, lx40]),
                "p 0.73: before the flight the grammar offers")
        #expect(offering.decide(Self.withNeural(fit: -49, neural: lx44, margin: 0.6, open: lx44)).decision == .confirm([lx44, lx40]),
                "a flight the grammar offers second comes first")
        let same = Self.withNeural(fit: -49, neural: lx40, margin: 0.6)
        let asked = offering.decide(same)
        #expect(asked.decision == .confirm([lx40]) && asked.confidence == answeringOnly.decide(same).confidence,
                "the grammar offers the same flight first: its question, as sure")
        #expect(offering.decide(Self.withNeural(fit: -51, neural: lx44, margin: 0.4)).decision.isRejected, "σ(−0.4) = 0.40: below the offer probability")
        #expect(offering.decide(Self.withNeural(fit: -47, neural: lx44, margin: 0.6)).decision == .accepted(lx40),
                "where the grammar answers, the check only disputes, from 0.8")
        #expect(offering.decide(Self.withNeural(fit: -52, neural: lx44, margin: 0.6)).decision.isRejected, "p 0.12: not asked")
        #expect(offering.decide(Self.withNeural(fit: -51, neural: lx44, margin: 0.6, offList: -0.4)).decision.isRejected,
                "LX 440 fits better by more than the check's lead: nothing offered")
        #expect(offering.decide(Self.withNeural(fit: -52, grammar: [], neural: lx44, margin: 0.6)).decision == .confirm([lx44]), "nothing of today's heard")
        #expect(offering.neuralCheckMayDecide(likely, reading: likely.neural!), "its neighbours may stop the offer: worth scoring")
        #expect(!answeringOnly.neuralCheckMayDecide(likely, reading: likely.neural!), "σ(0.4) at any lead: below 0.8")
    }

    @Test("the neural decision model reads the neural model's leads and whether the grammar, the open grammar and the free transcript heard its flight")
    func neuralDecisionInputs() throws {
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        func inputs(_ features: DecisionFeatures, grammarProbability: Double = 0.73) throws -> [String: Double] {
            let reading = try #require(features.neural)
            let values = try #require(NeuralDecisionModel.inputs(reading, features: features, grammarProbability: grammarProbability))
            return Dictionary(uniqueKeysWithValues: zip(NeuralDecisionModel.inputNames, values))
        }
        let agreeing = try inputs(Self.withNeural(fit: -49, neural: lx40, margin: 5, score: -12, free: lx40, offList: -3, open: lx40))
        #expect(agreeing == ["score": -10, "margin": 3, "off_list_margin": -1, "grammar_agrees": 1, "grammar_logit": log(0.73 / (1 - 0.73)),
                             "grammar_other": 0, "open_agrees": 1, "free_agrees": 1, "snr": 40], "clipped where the script clips")
        let other = try inputs(Self.withNeural(fit: -49, neural: lx44, margin: nil, score: -1.5, offList: nil, open: lx40))
        #expect(other == ["score": -1.5, "margin": 3, "off_list_margin": 1, "grammar_agrees": 0, "grammar_logit": 0,
                          "grammar_other": 1, "open_agrees": 0, "free_agrees": 0, "snr": 40])
        let alone = try inputs(Self.withNeural(fit: -49, grammar: [], neural: lx44, offList: 0.25), grammarProbability: 0)
        #expect(alone["grammar_other"] == 0 && alone["grammar_agrees"] == 0 && alone["off_list_margin"] == 0.25)
        #expect(try inputs(Self.withNeural(fit: -49, neural: lx40), grammarProbability: 1)["grammar_logit"] == NeuralDecisionModel.logitLimit)
        let unread = Self.withNeural(fit: -49, neural: nil)
        #expect(NeuralDecisionModel.inputs(try #require(unread.neural), features: unread, grammarProbability: 0.5) == nil, "no flight read, nothing to judge")
    }

    @Test("the tuned decoder's inputs: whether its first flight is the stock decoder's, its lead there, its score; the floor where it read none")
    func tunedDecoderInputs() throws {
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        #expect(NeuralDecisionModel.tunedInputs(.init(flight: lx40, score: -0.2, margin: 5), firstFlight: lx40) == [1, 3, -0.2], "its lead clipped at 3")
        #expect(NeuralDecisionModel.tunedInputs(.init(flight: lx44, score: -12, margin: 1), firstFlight: lx40) == [0, 0, -10],
                "another flight: no lead counts; its score floored")
        #expect(NeuralDecisionModel.tunedInputs(.init(flight: lx40, score: -1, margin: nil), firstFlight: lx40) == [1, 3, -1], "its only candidate")
        #expect(NeuralDecisionModel.tunedInputs(nil, firstFlight: lx40) == [0, 0, NeuralDecisionModel.scoreFloor])

        let names = NeuralDecisionModel.inputNames + NeuralDecisionModel.tunedInputNames
        let zero = [Double](repeating: 0, count: names.count)
        let model = NeuralDecisionModel(inputNames: names, means: zero, scales: zero.map { _ in 1 }, weights: zero, intercept: 0)
        #expect(model.readsTunedDecoder && !Self.marginCheck().model.readsTunedDecoder)
        let features = Self.withNeural(fit: -49, neural: lx40, margin: 1)
        var reading = try #require(features.neural)
        reading = DecisionFeatures.NeuralReading(flight: reading.flight, text: reading.text, score: reading.score, margin: reading.margin,
                                                 grammarFlightRank: reading.grammarFlightRank, freeTranscript: reading.freeTranscript,
                                                 freeTranscriptFlight: reading.freeTranscriptFlight,
                                                 tuned: .init(flight: lx40, score: -0.5, margin: 2))
        let values = try #require(model.inputs(reading, features: features, grammarProbability: 0.7))
        #expect(values.count == names.count && Array(values.suffix(3)) == [1, 2, -0.5])
        #expect(NeuralDecisionModel.expectedInputNames(for: names) == names)
        #expect(NeuralDecisionModel.expectedInputNames(for: NeuralDecisionModel.inputNames) == NeuralDecisionModel.inputNames)
    }

    @Test("a flight that does not fly today, scored above the neural model's first flight by more than the check's lead, keeps it from answering")
    func neuralOffListGuard() {
        let checking = Self.fitOnlyDecider(neuralCheck: Self.marginCheck(offListMargin: -0.3))
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, offList: 0.5)).decision == .accepted(lx44), "today's flight above its neighbours")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, offList: nil)).decision == .accepted(lx44), "no neighbour scored")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, offList: -0.2)).decision == .accepted(lx44), "within the check's lead")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx44, offList: -0.4)).decision == .confirm([lx40]), "LX 440 fits better by more")
        #expect(checking.decide(Self.withNeural(fit: -49, neural: lx40, offList: -0.4)).decision == .confirm([lx40]), "even where the grammar heard the same")
        #expect(Self.fitOnlyDecider(neuralCheck: Self.marginCheck())
            .decide(Self.withNeural(fit: -49, neural: lx44, offList: -1)).decision == .accepted(lx44), "a check without an off-list lead does not look")
    }

    @Test("the off-list neighbours are scored only where the check could answer at some lead over them; a reading without them answers nothing")
    func offListScoredWhereItCanDecide() {
        let lx40 = DeciderTests.lx40, lx44 = DeciderTests.lx44
        func decider(intercept: Double) -> Decider {
            // p = σ(4 · off-list lead + intercept), the lead clipped to ±1.
            Self.fitOnlyDecider(neuralCheck: DecisionModel.NeuralCheck(probability: 0.25, acceptProbability: 0.8,
                                                                       model: Self.neuralModel("off_list_margin", weight: 4, intercept: intercept)))
        }
        func reading(_ features: DecisionFeatures) -> DecisionFeatures.NeuralReading { features.neural! }
        let mayAnswer = decider(intercept: 0), cannot = decider(intercept: -4)
        let behind = Self.withNeural(fit: -49, neural: lx44, offList: -1)
        #expect(mayAnswer.neuralCheckMayDecide(behind, reading: reading(behind)), "σ(4) at a lead of 1: worth scoring, whatever this reading's lead")
        #expect(mayAnswer.decide(behind).decision == .confirm([lx40]), "σ(−4) at its own lead")
        #expect(!cannot.neuralCheckMayDecide(behind, reading: reading(behind)), "σ(0) at best: below 0.8 at any lead")
        #expect(!mayAnswer.neuralCheckMayDecide(Self.withNeural(fit: -52, neural: lx44), reading: reading(Self.withNeural(fit: -52, neural: lx44))),
                "p 0.12: not asked")
        #expect(!mayAnswer.neuralCheckMayDecide(Self.withNeural(fit: -49, neural: nil), reading: reading(Self.withNeural(fit: -49, neural: nil))),
                "no flight read")
        var skipped = Self.withNeural(fit: -49, neural: lx44)
        let ahead = mayAnswer.decide(skipped).decision
        #expect(ahead == .accepted(lx44), "no neighbour scored: σ(4)")
        let read = reading(skipped)
        skipped.neural = DecisionFeatures.NeuralReading(flight: read.flight, text: read.text, score: read.score, margin: read.margin,
                                                       grammarFlightRank: nil, freeTranscript: "", freeTranscriptFlight: nil, offListSkipped: true)
        #expect(mayAnswer.decide(skipped).decision == .confirm([lx40]), "neighbours skipped: the check answers nothing")
    }

    @Test("the model reads the rival only where its lead could change the decision, and decides the same without it")
    func rivalWantedWhereItCanDecide() {
        let stock = Decider(thresholds: RecognitionThresholds(), model: .stock)
        var skipped: [RecognitionDecision] = []
        var wanted = 0
        for fit in stride(from: -120.0, through: 0, by: 0.5) {
            var features = DeciderTests.features(fit: fit)
            guard !stock.wantsRival(features) else { wanted += 1; continue }
            features.rivalNotNeeded = true
            let without = stock.decide(features)
            skipped.append(without.decision)
            for margin in [-100, -20, -3, 0, 3, 20, 100, nil] as [Double?] {
                var read = DeciderTests.features(fit: fit)
                read.rival = RivalReading(text: "l x forty four", flight: DeciderTests.lx44, margin: margin)
                let with = stock.decide(read)
                #expect(with.decision == .accepted(DeciderTests.lx40) ? without.decision == with.decision : with.decision.isRejected && without.decision.isRejected,
                        "fit \(fit), margin \(String(describing: margin))")
            }
        }
        #expect(wanted > 0, "a lead can lift a doubtful fit")
        #expect(skipped.contains(.accepted(DeciderTests.lx40)), "a clear fit is answered whatever the rival")
        #expect(skipped.contains { $0.isRejected }, "a poor fit is asked again whatever the rival")
        #expect(!stock.wantsRival(DeciderTests.features(fit: -40, heard: [])))
    }

    @Test("a rival left undecoded counts as the training average: the probability lies between those of its extreme leads")
    func rivalNotNeededIsAverage() {
        var features = DeciderTests.features(fit: -35)
        features.rivalNotNeeded = true
        let average = DecisionModel.stock.probability(features)
        let leads = [-20.0, 20, nil].map { margin in
            var read = DeciderTests.features(fit: -35)
            read.rival = RivalReading(text: "", flight: nil, margin: margin)
            return DecisionModel.stock.probability(read)
        }
        #expect(leads.min()! < average && average < leads.max()!, "\(average) against \(leads)")
    }
}
