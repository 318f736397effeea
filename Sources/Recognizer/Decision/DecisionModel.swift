import Foundation

/// A logistic regression over an utterance's `DecisionFeatures`: the probability that the flight heard is the flight
/// said. The `Decider` answers, asks "did you mean…?" or asks again on that probability.
///
/// Fitted by `scripts/decision-model/fit-decision-model.py` on the decision measures (`flightvoice eval --rival
/// --features`) of training voices only (`scripts/training-data/make-training-set.py`, split by speaker); its
/// coefficients are committed in `DecisionModel+Fitted.swift`, which the script writes. The inputs are computed here
/// and in the script the same way; each is standardized with the training set's mean and spread. Pure; `Sendable`.
public struct DecisionModel: Sendable, Hashable {
    /// The inputs' names, in order (as the script names them).
    public let inputNames: [String]
    /// Training mean of each input.
    public let means: [Double]
    /// Training standard deviation of each input (1 where it was 0).
    public let scales: [Double]
    /// Weight of each standardized input.
    public let weights: [Double]
    /// The intercept.
    public let intercept: Double
    /// Probability from which the flight is answered without asking (chosen on the training voices for few wrong answers).
    public let acceptProbability: Double
    /// Probability below which the traveller is asked to say it again rather than offered the flight.
    public let confirmProbability: Double

    /// A model with these coefficients.
    public init(inputNames: [String], means: [Double], scales: [Double], weights: [Double], intercept: Double,
                acceptProbability: Double, confirmProbability: Double) {
        precondition(means.count == inputNames.count && scales.count == inputNames.count && weights.count == inputNames.count)
        self.inputNames = inputNames
        self.means = means
        self.scales = scales
        self.weights = weights
        self.intercept = intercept
        self.acceptProbability = acceptProbability
        self.confirmProbability = confirmProbability
    }

    /// The probability, 0...1, that the flight heard is the one said.
    public func probability(_ features: DecisionFeatures) -> Double {
        let values = Self.inputs(features)
        var sum = intercept
        for index in weights.indices { sum += weights[index] * (values[index] - means[index]) / scales[index] }
        return 1 / (1 + exp(-sum))
    }

    /// The raw inputs, in the order of `inputNames` (see the script for what each means).
    static func inputs(_ features: DecisionFeatures) -> [Double] {
        let gap = features.openReading.fitDifference
        let margin = features.rival?.margin
        let heard = features.heardFlights.first
        let openOther = features.openFlightIsToday && features.openReading.flight != nil && features.openReading.flight != heard
        return [
            features.flightWordsRatio,
            gap ?? 0,
            gap == nil ? 1 : 0,
            max(0, naturalFramesPerPhone - (features.shortestFlightWordFramesPerPhone ?? naturalFramesPerPhone)),
            min(max(margin ?? 0, -marginLimit), marginLimit),
            margin == nil ? 1 : 0,
            features.agreesWithOpenGrammar ? 1 : 0,
            openOther ? 1 : 0,
            min(max(features.signalToNoiseRatio ?? 0, 0), snrLimit),
            min(features.unexplainedSpeechSeconds, unexplainedLimit),
            features.lowestWordRatio ?? 0,
            features.logLikelihoodRatio,
            Double(features.words.count - features.flightWordIndices.count),
        ]
    }

    /// Names of `inputs`, as the fitting script writes them.
    static let inputNames = ["flight_fit", "open_gap", "open_missing", "squeeze", "rival_lead", "rival_missing", "grammars_agree",
                             "open_other_today", "snr", "unexplained", "lowest_word", "all_words", "carrier_words"]
    /// Frames per phone from which a flight word counts as unhurried (as `RecognitionThresholds.naturalFramesPerPhone`).
    static let naturalFramesPerPhone = 10.0
    /// Rival margins beyond ±this count as this: a very distinct reading says which flight, not that one was said.
    static let marginLimit = 20.0
    /// Estimated SNRs above this (dB) count as this: all clean audio alike.
    static let snrLimit = 40.0
    /// Unexplained speech beyond this (seconds) counts as this.
    static let unexplainedLimit = 2.0
}
