import FlightCore
import Foundation

/// A logistic regression over the neural acoustic model's reading of an utterance (`DecisionFeatures.NeuralReading`) and
/// what the grammar's passes heard: the probability that the neural model's first flight is the flight said.
///
/// Fitted by `scripts/decision-model/fit-decision-model.py` on the neural model's readings of training voices only, every
/// clip it read a flight on (clips naming no flight and queries for flights that do not fly today count as wrong); where
/// it answers is chosen on the dev voices (`DecisionModel.NeuralCheck`). The inputs are computed here and in the script
/// the same way; each is standardized with the training set's mean and spread. Pure; `Sendable`.
public struct NeuralDecisionModel: Sendable, Hashable, Codable, LogisticCoefficients {
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

    public init(inputNames: [String], means: [Double], scales: [Double], weights: [Double], intercept: Double) {
        precondition(means.count == inputNames.count && scales.count == inputNames.count && weights.count == inputNames.count)
        self.inputNames = inputNames
        self.means = means
        self.scales = scales
        self.weights = weights
        self.intercept = intercept
    }

    /// The probability, 0...1, that `reading`'s first flight is the one said, given what the grammar's passes heard
    /// (`features`) and the grammar's decision model's probability for its own flight; nil when it read no flight.
    public func probability(of reading: DecisionFeatures.NeuralReading, features: DecisionFeatures, grammarProbability: Double) -> Double? {
        inputs(reading, features: features, grammarProbability: grammarProbability).map(logisticProbability)
    }

    /// The highest `probability(of:features:grammarProbability:)` that `reading`'s first flight can reach, whatever its
    /// lead over its off-list neighbours turns out to be; nil when it read no flight. Below the check's accept
    /// probability, scoring the neighbours cannot make the check answer.
    public func highestProbability(of reading: DecisionFeatures.NeuralReading, features: DecisionFeatures, grammarProbability: Double) -> Double? {
        guard var values = inputs(reading, features: features, grammarProbability: grammarProbability) else { return nil }
        // The probability is monotone in each input, so its highest is at one end of the clipped range.
        return [-Self.offListLimit, Self.offListLimit].map { lead in
            values[Self.offListInput] = lead
            return logisticProbability(values)
        }.max()
    }

    /// True when the inputs include the tuned decoder's reading (`tunedInputNames`): the neural pass must then read it.
    public var readsTunedDecoder: Bool { inputNames.count > Self.inputNames.count }

    /// The input names a model of `names.count` inputs must have: `inputNames`, then `tunedInputNames` where it has more.
    static func expectedInputNames(for names: [String]) -> [String] {
        names.count > inputNames.count ? inputNames + tunedInputNames : inputNames
    }

    /// The raw inputs, in the order of `inputNames`: how sure the neural model is of its first flight (its score, its lead
    /// over today's next flight and over the flight's off-list neighbours), and whether today's grammar (with its
    /// decision model's probability), the open grammar and the neural model's own free transcript heard the same flight;
    /// where the model reads it (`readsTunedDecoder`), whether the tuned decoder put the same flight first, its lead
    /// there and its score.
    func inputs(_ reading: DecisionFeatures.NeuralReading, features: DecisionFeatures, grammarProbability: Double) -> [Double]? {
        guard let values = Self.inputs(reading, features: features, grammarProbability: grammarProbability) else { return nil }
        return readsTunedDecoder ? values + Self.tunedInputs(reading.tuned, firstFlight: reading.flight) : values
    }

    /// The tuned decoder's inputs: whether its first flight is `firstFlight`, its lead where it is (else 0), its score
    /// (the floor where it read none).
    static func tunedInputs(_ tuned: DecisionFeatures.TunedReading?, firstFlight: FlightNumber?) -> [Double] {
        guard let tuned, tuned.flight != nil else { return [0, 0, scoreFloor] }
        let agrees = tuned.flight == firstFlight
        return [agrees ? 1 : 0, agrees ? min(tuned.margin ?? marginLimit, marginLimit) : 0, max(tuned.score, scoreFloor)]
    }

    static func inputs(_ reading: DecisionFeatures.NeuralReading, features: DecisionFeatures, grammarProbability: Double) -> [Double]? {
        guard let flight = reading.flight else { return nil }
        let heard = features.heardFlights.first
        let agrees = heard == flight
        let logit = grammarProbability <= 0 ? -logitLimit : grammarProbability >= 1 ? logitLimit : log(grammarProbability / (1 - grammarProbability))
        return [
            max(reading.score, scoreFloor),
            min(reading.margin ?? marginLimit, marginLimit),
            min(max(reading.offListMargin ?? offListLimit, -offListLimit), offListLimit),
            agrees ? 1 : 0,
            agrees ? min(max(logit, -logitLimit), logitLimit) : 0,
            heard != nil && !agrees ? 1 : 0,
            features.openReading.flight == flight ? 1 : 0,
            reading.freeTranscriptFlight == flight ? 1 : 0,
            min(max(features.signalToNoiseRatio ?? 0, 0), DecisionModel.snrLimit),
        ]
    }

    /// Names of the inputs of the stock decoder's reading, as the fitting script writes them.
    static let inputNames = ["score", "margin", "off_list_margin", "grammar_agrees", "grammar_logit", "grammar_other", "open_agrees",
                             "free_agrees", "snr"]
    /// Names of the tuned decoder's inputs, after `inputNames` (`tunedInputs`).
    static let tunedInputNames = ["tuned_agrees", "tuned_margin", "tuned_score"]
    /// The place of the off-list lead among `inputs`.
    static let offListInput = inputNames.firstIndex(of: "off_list_margin")!
    /// Scores (nats per token) below this count as this: any such reading is a poor one.
    static let scoreFloor = -10.0
    /// Leads over today's next flight beyond this (nats per token) count as this, as does having no other candidate.
    static let marginLimit = 3.0
    /// Leads over the off-list neighbours beyond ±this count as this, as does having none scored.
    static let offListLimit = 1.0
    /// The grammar's log-odds beyond ±this count as this.
    static let logitLimit = 6.0
}
