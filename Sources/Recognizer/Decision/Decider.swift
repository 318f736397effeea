import FlightCore
import Foundation

/// Maps an utterance's `DecisionFeatures` to what to do: answer, "did you mean…?", or not understood.
///
/// With a `DecisionModel` (the default), the decision is taken on the model's probability that the flight heard is the
/// one said, and that probability is the confidence. Without one, it is taken on the hand-set *fit score* (see
/// `RecognitionThresholds`): the flight words' fit against the phone loop and the open grammar, less what their
/// hurried pace costs, plus the lead over today's nearest other flight; the fit score is reported either way.
/// Either way, doubt asks: another of today's flights heard by the open grammar, or speech the words do not explain,
/// makes an answer a question. A model with an agreement probability also answers below its accept probability when
/// a second acoustic model heard the same flight (`wantsSecondOpinion`), one with a cross-check when a second
/// acoustic model's own decision heard the same flight and is sure enough of it (`wantsCrossCheck`), and one with a
/// neural check answers the neural model's first flight when its own decision model is sure of it, or asks where the
/// grammar answered another (`wantsNeuralCheck`).
/// Pure; `Sendable`.
struct Decider: Sendable {
    /// Where the hand-set decision accepts, confirms and rejects; also what the fit score is made of.
    let thresholds: RecognitionThresholds
    /// The calibrated model decided on; nil decides on `thresholds`.
    let model: DecisionModel?

    /// The decision and the numbers it was taken on.
    struct Verdict: Sendable {
        /// What to do.
        var decision: RecognitionDecision
        /// Utterance confidence, 0...1: 0.5 exactly at the accept threshold.
        let confidence: Double
        /// The fit score with the rival's share; nil when the open grammar found no path.
        let fitScore: Double?
        /// The fit score without the rival's share: what the reject threshold is compared with.
        let fitScoreWithoutRival: Double?
        /// Confidence of each word of `DecisionFeatures.words`, 0...1.
        let wordConfidences: [Double]
    }

    /// The fit score before the rival's lead counts; nil when the open grammar found no path (no second opinion).
    func fitScoreWithoutRival(_ features: DecisionFeatures) -> Double? {
        features.openReading.fitDifference.map {
            features.flightWordsRatio + thresholds.openGrammarWeight * $0
                - thresholds.squeezePenalty(framesPerPhone: features.shortestFlightWordFramesPerPhone)
        }
    }

    /// The fit score from which this utterance is answered: two grammars agreeing on the exact flight, one of them free
    /// to say any, is evidence the score cannot see, so then anything above the reject threshold is accepted.
    func acceptThreshold(_ features: DecisionFeatures) -> Double {
        features.agreesWithOpenGrammar ? thresholds.rejectScore : thresholds.acceptScore(signalToNoise: features.signalToNoiseRatio)
    }

    /// True when the lead over today's other flights can change the decision, so the rival pass is worth its time: the
    /// open grammar did not read the same flight, and the lead's largest share could lift the score to the accept
    /// threshold without the score being below the reject threshold already.
    /// With the decision model, the lead enters clipped to ±`DecisionModel.marginLimit`, and "no rival path" is its only
    /// other state: the decisions at those three readings bound the decision at any other, so the rival is wanted
    /// unless they all ask again, or all answer the same flight.
    func wantsRival(_ features: DecisionFeatures) -> Bool {
        if let model {
            guard !features.grammarFlights.isEmpty else { return false }
            let bounds = [DecisionModel.marginLimit, -DecisionModel.marginLimit, nil].map { margin in
                var extreme = features
                extreme.rival = RivalReading(text: "", flight: nil, margin: margin)
                extreme.rivalNotNeeded = false
                return decision(extreme, probability: model.probability(extreme), model: model).decision
            }
            let allAnswerOne = bounds[0].acceptedFlight != nil && bounds.allSatisfy { $0 == bounds[0] }
            return !(bounds.allSatisfy(\.isRejected) || allAnswerOne)
        }
        guard !features.agreesWithOpenGrammar, let score = fitScoreWithoutRival(features) else { return false }
        return score >= thresholds.rejectScore && score + thresholds.largestRivalShare >= acceptThreshold(features)
    }

    /// True when a second acoustic model's reading of today's grammar can turn this utterance's "did you mean" into an
    /// answer (`DecisionModel.agreementProbability`): only then is it worth its decode.
    func wantsSecondOpinion(_ features: DecisionFeatures) -> Bool {
        couldBeAnswered(features, from: model?.agreementProbability)
    }

    /// True when a second acoustic model's own decision can turn this utterance's "did you mean" or refusal into an
    /// answer (`DecisionModel.crossCheck`): only then is its whole decode worth its time.
    func wantsCrossCheck(_ features: DecisionFeatures) -> Bool {
        couldBeAnswered(features, from: model?.crossCheck?.probability)
    }

    /// True when the neural acoustic model's reading can change this utterance's decision (`DecisionModel.neuralCheck`):
    /// where its first flight can turn a "did you mean" or refusal into an answer (`neuralCheckAnswers`), and wherever
    /// the grammar's decision answers a flight, which a flight the check is sure of disputes.
    func wantsNeuralCheck(_ features: DecisionFeatures) -> Bool {
        guard let model else { return false }
        let probability = model.probability(features)
        return wantsNeuralCheck(features, probability: probability, grammar: grammarDecision(features, probability: probability, model: model))
    }

    /// `wantsNeuralCheck` at the model's `probability` and the `grammar`'s decision, already computed.
    private func wantsNeuralCheck(_ features: DecisionFeatures, probability: Double, grammar: RecognitionDecision) -> Bool {
        neuralCheckAnswers(features, probability: probability, grammar: grammar) || (model?.neuralCheck != nil && grammar.acceptedFlight != nil)
    }

    /// True where the neural check answers the flight it is sure of: where the `grammar`'s decision does not answer, from
    /// the check's probability (at any, where it answers below it too: `belowFloorProbability`), or wherever nothing of
    /// today's was heard, since the neural model may be sure of a flight on its own. Speech the grammar's words leave
    /// unexplained is no reason not to: the neural model reads it too.
    private func neuralCheckAnswers(_ features: DecisionFeatures, probability: Double, grammar: RecognitionDecision) -> Bool {
        guard let check = model?.neuralCheck, grammar.acceptedFlight == nil else { return false }
        return features.heardFlights.isEmpty || probability >= check.probability || check.belowFloorProbability != nil
    }

    /// The neural decision model's probability from which the neural model's first flight changes the `grammar`'s decision
    /// (`NeuralCheck.probabilityToChange`), nil where none can.
    private func neuralProbabilityToChange(_ check: DecisionModel.NeuralCheck, features: DecisionFeatures, probability: Double,
                                           grammar: RecognitionDecision) -> Double? {
        check.probabilityToChange(grammar, heardFlight: !features.heardFlights.isEmpty, grammarProbability: probability)
    }

    /// The neural decision model's probability from which the neural model's first flight is offered where the check
    /// may answer (`NeuralCheck.offerProbability`), nil where it offers none.
    private func neuralProbabilityToOffer(_ check: DecisionModel.NeuralCheck, features: DecisionFeatures, probability: Double,
                                          grammar: RecognitionDecision) -> Double? {
        neuralCheckAnswers(features, probability: probability, grammar: grammar) ? check.offerProbability : nil
    }

    /// False when `reading` cannot change the decision whatever its first flight's lead over its off-list neighbours
    /// (`NeuralDecisionModel.highestProbability`): then scoring them is not worth its time (`NeuralPass.read`).
    func neuralCheckMayDecide(_ features: DecisionFeatures, reading: DecisionFeatures.NeuralReading) -> Bool {
        guard let model, let check = model.neuralCheck else { return false }
        let probability = model.probability(features)
        let grammar = grammarDecision(features, probability: probability, model: model)
        guard wantsNeuralCheck(features, probability: probability, grammar: grammar) else { return false }
        // Asked only to dispute the grammar's answer, a reading of the same flight changes nothing.
        if let answered = grammar.acceptedFlight, reading.flight == answered { return false }
        let bars = [neuralProbabilityToChange(check, features: features, probability: probability, grammar: grammar),
                    neuralProbabilityToOffer(check, features: features, probability: probability, grammar: grammar)].compactMap { $0 }
        guard let highest = check.model.highestProbability(of: reading, features: features, grammarProbability: probability),
              let bar = bars.min() else { return false }
        return highest >= bar
    }

    /// The neural decision model's probability for the neural model's first flight, where it was asked and the flight
    /// keeps the check's lead over its off-list neighbours.
    private func neuralProbability(_ features: DecisionFeatures, probability: Double, grammar: RecognitionDecision,
                                   check: DecisionModel.NeuralCheck) -> Double? {
        guard let reading = features.neural, !reading.offListSkipped, wantsNeuralCheck(features, probability: probability, grammar: grammar),
              (reading.offListMargin ?? .infinity) >= check.offListMargin else { return nil }
        return check.model.probability(of: reading, features: features, grammarProbability: probability)
    }

    /// True when the model's probability lies from `lower` up to its accept probability and nothing else doubts the
    /// flight: where more evidence could answer it.
    private func couldBeAnswered(_ features: DecisionFeatures, from lower: Double?) -> Bool {
        guard let model, let lower, let best = features.heardFlights.first else { return false }
        let probability = model.probability(features)
        return probability >= lower && probability < model.acceptProbability && doubtingFlights(features, best: best).isEmpty
            && features.unexplainedSpeechSeconds < thresholds.unexplainedSpeechSeconds
    }

    /// Decides on `features` (with the rival reading, the second opinion and the cross-check, when they were decoded).
    func decide(_ features: DecisionFeatures) -> Verdict {
        let acceptAt = acceptThreshold(features)
        let withoutRival = fitScoreWithoutRival(features)
        let rivalShare = features.agreesWithOpenGrammar ? 0 : thresholds.rivalShare(margin: features.rival?.margin)
        let fitScore = withoutRival.map { $0 + rivalShare }
        if let model {
            let (decision, confidence) = decision(features, probability: model.probability(features), model: model)
            return Verdict(decision: decision, confidence: confidence, fitScore: fitScore, fitScoreWithoutRival: withoutRival,
                           wordConfidences: features.words.map { _ in confidence })
        }
        let wordConfidences = features.words.map { word in
            confidence(word.phoneLoopRatio + thresholds.openGrammarWeight * (word.openGrammarGap ?? 0)
                       - thresholds.squeezePenalty(framesPerPhone: word.framesPerPhone) + rivalShare, acceptAt: acceptAt)
        }
        return Verdict(decision: decision(features, score: fitScore, scoreWithoutRival: withoutRival, acceptAt: acceptAt),
                       confidence: confidence(fitScore ?? features.flightWordsRatio, acceptAt: acceptAt),
                       fitScore: fitScore, fitScoreWithoutRival: withoutRival, wordConfidences: wordConfidences)
    }

    /// The calibrated decision and its confidence: on today's grammar (`grammarDecision`), unless the neural check
    /// reads another flight. Where the grammar answers another flight and the neural decision model thinks its own likely
    /// enough (`disputeProbability`), the two disagree and it asks which (the neural model's flight first: on our dev and
    /// check voices, the one said each time). Where it may answer (`neuralCheckAnswers`) and is sure of its flight
    /// (`acceptProbability`, or `belowFloorProbability` where the grammar heard a flight below the check's probability),
    /// it answers that flight, unless the grammar would offer another that the neural model ranks next and the check asks
    /// then (`asksOverRunnerUp`, below `overRunnerUpProbability`). Where it may answer but is less sure, from
    /// `offerProbability`, it offers its flight before the ones the grammar offers. Where its model judges the tuned
    /// decoder's reading too, a grammar's answer of a flight neither decoder puts first is asked too.
    private func decision(_ features: DecisionFeatures, probability: Double, model: DecisionModel) -> (decision: RecognitionDecision, confidence: Double) {
        let grammar = grammarDecision(features, probability: probability, model: model)
        // Both neural readings of the audio putting another flight first: ask which (fit-decision-model.py, `disputed_by_tuned`).
        if let check = model.neuralCheck, check.model.readsTunedDecoder, let answered = grammar.acceptedFlight,
           let reading = features.neural, let stock = reading.flight, stock != answered, let tuned = reading.tuned?.flight, tuned != answered {
            return (.confirm([tuned, answered]), probability)
        }
        guard let check = model.neuralCheck, let reading = features.neural, let flight = reading.flight,
              let likely = neuralProbability(features, probability: probability, grammar: grammar, check: check) else {
            return (grammar, probability)
        }
        guard let bar = neuralProbabilityToChange(check, features: features, probability: probability, grammar: grammar),
              likely >= bar else {
            return offering(flight, at: likely, check: check, features: features, probability: probability, grammar: grammar)
        }
        if let answered = grammar.acceptedFlight, answered != flight { return (.confirm([flight, answered]), 1 - likely) }
        guard neuralCheckAnswers(features, probability: probability, grammar: grammar) else { return (grammar, probability) }
        if check.asksOverRunnerUp, case .confirm = grammar, let offered = features.heardFlights.first, offered != flight,
           reading.grammarFlightRank == 1, likely < check.overRunnerUpProbability ?? .infinity {
            return (.confirm([flight, offered]), 1 - likely)
        }
        return (.accepted(flight), likely)
    }

    /// The `grammar`'s decision, or "did you mean" the neural model's first `flight` (then the flights the grammar
    /// offers) where the check may answer and the neural decision model gives the flight `likely` from its offer
    /// probability; the grammar offering the same flight first asks as it is.
    private func offering(_ flight: FlightNumber, at likely: Double, check: DecisionModel.NeuralCheck, features: DecisionFeatures,
                          probability: Double, grammar: RecognitionDecision) -> (decision: RecognitionDecision, confidence: Double) {
        guard let offer = neuralProbabilityToOffer(check, features: features, probability: probability, grammar: grammar),
              likely >= offer else { return (grammar, probability) }
        switch grammar {
        case .confirm(let offered) where offered.first == flight: return (grammar, probability)
        case .confirm(let offered): return (.confirm([flight] + offered.filter { $0 != flight }.prefix(2)), likely)
        default: return (.confirm([flight]), likely)
        }
    }

    /// The calibrated decision on today's grammar alone (and the second models that confirm its flight).
    private func grammarDecision(_ features: DecisionFeatures, probability: Double, model: DecisionModel) -> RecognitionDecision {
        guard let best = features.heardFlights.first else { return .rejected(.notAFlight) }
        let agreed = model.agreementProbability.map { probability >= $0 && features.secondOpinionFlights?.first == best } ?? false
        // Only where the cross-check is asked for, so that reading it everywhere (`eval --rival`) decides the same.
        var crossChecked = false
        if let check = model.crossCheck, let reading = features.crossCheck, wantsCrossCheck(features) {
            crossChecked = reading.flight == best && reading.probability >= check.otherModelProbability
        }
        if probability < model.confirmProbability && !crossChecked { return .rejected(.lowConfidence(score: probability)) }
        return answerOrAsk(features, best: best, sure: probability >= model.acceptProbability || agreed || crossChecked)
    }

    private func decision(_ features: DecisionFeatures, score: Double?, scoreWithoutRival: Double?, acceptAt: Double) -> RecognitionDecision {
        let heard = features.heardFlights
        guard let best = heard.first else { return .rejected(.notAFlight) }
        // The lead over today's other flights says which flight, not whether one was said: it cannot save a poor fit.
        if let scoreWithoutRival, scoreWithoutRival < thresholds.rejectScore { return .rejected(.lowConfidence(score: scoreWithoutRival)) }
        return answerOrAsk(features, best: best, sure: score.map { $0 >= acceptAt } ?? false)
    }

    /// Answers `best` when `sure` and nothing doubts it; else offers it, with the other flights it may have been (or
    /// the nearest rival).
    private func answerOrAsk(_ features: DecisionFeatures, best: FlightNumber, sure: Bool) -> RecognitionDecision {
        let others = doubtingFlights(features, best: best)
        if !others.isEmpty { return .confirm([best] + others.prefix(2)) }
        guard sure, features.unexplainedSpeechSeconds < thresholds.unexplainedSpeechSeconds else {
            return .confirm([best] + [features.rival?.flight].compactMap { $0 }.filter { $0 != best })
        }
        return .accepted(best)
    }

    /// Other flights of today the utterance may have named, besides `best`: more flights in the words heard, the open
    /// grammar's flight when it is another of today's (unforced, the audio named it: both are plausible), and n-best
    /// readings close to the best path.
    private func doubtingFlights(_ features: DecisionFeatures, best: FlightNumber) -> [FlightNumber] {
        let heard = features.heardFlights
        var rivals: [FlightNumber] = []
        // Unforced, the audio named another of today's flights: both are plausible.
        if let openFlight = features.openReading.flight, openFlight != best, features.openFlightIsToday { rivals.append(openFlight) }
        for alternative in features.alternatives where Double(features.pathScore) - Double(alternative.pathScore) <= thresholds.ambiguityMargin {
            for flight in alternative.flights where flight != best && !rivals.contains(flight) { rivals.append(flight) }
        }
        return Array(heard.dropFirst()) + rivals.filter { !heard.contains($0) }
    }

    /// Confidence 0...1 of a fit score: 0.5 exactly at the accept threshold for this clip (its noise level, or the
    /// reject threshold when the open grammar agrees), so a flight is answered without asking only at 0.5 or above.
    private func confidence(_ score: Double, acceptAt: Double) -> Double {
        1 / (1 + exp(-(score - acceptAt) / thresholds.confidenceScale))
    }
}
