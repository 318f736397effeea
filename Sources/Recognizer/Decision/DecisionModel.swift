import Foundation

/// A logistic regression over an utterance's `DecisionFeatures`: the probability that the flight heard is the flight
/// said. The `Decider` answers, asks "did you mean…?" or asks again on that probability.
///
/// Fitted by `scripts/decision-model/fit-decision-model.py` on the decision measures (`flightvoice eval --rival
/// --features`) of training voices only (`scripts/training-data/make-training-set.py`, split by speaker). The
/// coefficients belong to the acoustic model whose decodes they were fitted on, as its scores are on its own scale:
/// each model folder carries its own in `decision-model.json` (`fileName`), which the script writes; Debian's stock
/// model, whose folder is not ours, has its in `DecisionModel+Fitted.swift` (`stock`). The inputs are computed here
/// and in the script the same way; each is standardized with the training set's mean and spread. Pure; `Sendable`.
public struct DecisionModel: Sendable, Hashable, Codable, LogisticCoefficients {
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
    /// Probability from which the flight is answered when a second acoustic model, reading today's grammar on the same
    /// audio (`RecognizerConfiguration.secondOpinionModel`), hears the same flight; nil: no second opinion is asked.
    /// Chosen with `acceptProbability` on the dev voices for the same few wrong answers: two models that were trained
    /// on different speech rarely agree on the same wrong flight.
    public let agreementProbability: Double?
    /// Where a second acoustic model's own decision on the same audio settles a "did you mean"
    /// (`RecognizerConfiguration.crossCheckModel`); nil: none is asked.
    public let crossCheck: CrossCheck?
    /// Where the neural acoustic model's scoring of today's flights settles a "did you mean" or a refusal, or disputes an
    /// answer (`RecognizerConfiguration.neuralModel`); nil: it is not asked.
    public private(set) var neuralCheck: NeuralCheck?

    /// When the flight is answered because a second acoustic model, decoding the same audio with all its passes and
    /// deciding with its own decision model, heard the same flight and is sure enough of it. Unlike the agreement of
    /// the second opinion (one grammar pass, the flight alone), both probabilities count: models that read the same
    /// wrong flight mostly doubt it. Chosen by the fitting script on the dev voices, under the same limits as
    /// `acceptProbability`.
    public struct CrossCheck: Sendable, Hashable, Codable {
        /// This model's probability from which the second model is asked (below `acceptProbability`).
        public let probability: Double
        /// The second model's probability from which a flight both heard is answered.
        public let otherModelProbability: Double

        public init(probability: Double, otherModelProbability: Double) {
            self.probability = probability
            self.otherModelProbability = otherModelProbability
        }
    }

    /// When the neural acoustic model's first flight is answered. It is asked wherever this model's decision does not
    /// answer and its probability is at least `probability`, or wherever today's grammar heard none of today's flights
    /// (speech the grammar's words leave unexplained included: the neural model reads it too); it answers its
    /// first flight, whatever the grammar heard, when the neural decision model (`model`: its score and leads, and
    /// whether the grammar and the open grammar heard the same flight) gives it at least `acceptProbability`. In noise
    /// it ranks the flight said first far more often than the grammar hears it, and two models that hear in unrelated
    /// ways — a GMM with today's grammar, a transformer trained on other speech — seldom agree on one wrong flight.
    /// It is read wherever the grammar's decision answers too: a flight it is that sure of, another than the one
    /// answered, turns the answer into a "did you mean" offering both.
    /// Chosen by the fitting script on the dev voices, under the same limits as `DecisionModel.acceptProbability` and
    /// adding no wrong flight to what the grammar's decision with the disputes alone answers on either dev set.
    public struct NeuralCheck: Sendable, Hashable, Codable {
        /// This model's probability from which the neural model is asked where this model's decision does not answer.
        public let probability: Double
        /// The neural decision model's probability from which the neural model's first flight is answered.
        public let acceptProbability: Double
        /// The neural decision model's probability from which the neural model's first flight disputes the grammar's
        /// answer of another: the traveller is asked which. At most `acceptProbability`: from 0.5 the grammar's flight is
        /// more likely wrong than right, and the fitting script asks from the lowest such probability that costs the dev
        /// voices no right answer.
        public let disputeProbability: Double
        /// The lead the neural model's first flight must keep over its off-list neighbours (`NeuralReading.offListMargin`,
        /// nats per token) to be answered: a traveller asking for a flight that does not fly today must not get today's
        /// nearest. Its reading enters `model` too, but too weakly to stop that on its own: the right flight is often
        /// scored a little below a neighbour.
        public let offListMargin: Double
        /// True where the check asks instead of answering when the grammar would offer another flight that the neural
        /// model ranks next (`NeuralReading.grammarFlightRank` 1): a disagreement by a hair. Chosen on the dev voices
        /// with the rest of the check: asking there lets the check answer elsewhere from a lower probability.
        public let asksOverRunnerUp: Bool
        /// The neural decision model's probability from which the neural model's first flight is answered where the
        /// grammar heard a flight at a probability below `probability` (nil: the check is not asked there). Such a
        /// grammar heard little that is today's, and the neural model may be sure of a flight on its own, as where
        /// the grammar heard none; the fitting script chooses the lowest that answers no more wrong flights on the dev voices.
        public let belowFloorProbability: Double?
        /// The neural decision model's probability from which the check answers its first flight even where it would
        /// ask over the runner-up (`asksOverRunnerUp`; nil: it always asks there): a disagreement by a hair for the
        /// grammar is none for a neural model that sure. Chosen like `belowFloorProbability`.
        public let overRunnerUpProbability: Double?
        /// The neural decision model's probability from which the check, where it may answer but is not sure enough to,
        /// offers its first flight instead ("did you mean", before the flights the grammar offers; nil: it offers none).
        /// A refusal costs the traveller a retry; from 0.5 the flight offered is more likely the one said than not.
        public let offerProbability: Double?
        /// The prompt the neural pass reads after (`NeuralPassConfiguration.prompt`; "" for none): `model` was fitted on
        /// readings made after it, so the recognizer reads after it too.
        public let prompt: String
        /// The probability that the neural model's first flight is the one said.
        public let model: NeuralDecisionModel

        public init(probability: Double, acceptProbability: Double, disputeProbability: Double? = nil,
                    belowFloorProbability: Double? = nil, offListMargin: Double = -.infinity, asksOverRunnerUp: Bool = false,
                    overRunnerUpProbability: Double? = nil, offerProbability: Double? = nil, prompt: String = "",
                    model: NeuralDecisionModel) {
            self.probability = probability
            self.acceptProbability = acceptProbability
            self.disputeProbability = disputeProbability ?? acceptProbability
            self.belowFloorProbability = belowFloorProbability
            self.offListMargin = offListMargin
            self.asksOverRunnerUp = asksOverRunnerUp
            self.overRunnerUpProbability = overRunnerUpProbability
            self.offerProbability = offerProbability
            self.prompt = prompt
            self.model = model
        }

        /// The neural decision model's probability from which the neural model's first flight changes the `grammar`'s
        /// decision: `disputeProbability` where the grammar answers a flight, `belowFloorProbability` where it heard one
        /// at a `grammarProbability` below `probability`, else `acceptProbability` (nil: it cannot change it).
        func probabilityToChange(_ grammar: RecognitionDecision, heardFlight: Bool, grammarProbability: Double) -> Double? {
            if grammar.acceptedFlight != nil { return disputeProbability }
            return heardFlight && grammarProbability < probability ? belowFloorProbability : acceptProbability
        }

        /// Reads a check whose file leaves out the off-list lead (JSON has no infinity): none asked; the prompt: none;
        /// asking over the runner-up: it does not; the dispute probability: the accept probability; the probabilities
        /// below the floor and over the runner-up, and to offer: none.
        public init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            self.init(probability: try values.decode(Double.self, forKey: .probability),
                      acceptProbability: try values.decode(Double.self, forKey: .acceptProbability),
                      disputeProbability: try values.decodeIfPresent(Double.self, forKey: .disputeProbability),
                      belowFloorProbability: try values.decodeIfPresent(Double.self, forKey: .belowFloorProbability),
                      offListMargin: try values.decodeIfPresent(Double.self, forKey: .offListMargin) ?? -.infinity,
                      asksOverRunnerUp: try values.decodeIfPresent(Bool.self, forKey: .asksOverRunnerUp) ?? false,
                      overRunnerUpProbability: try values.decodeIfPresent(Double.self, forKey: .overRunnerUpProbability),
                      offerProbability: try values.decodeIfPresent(Double.self, forKey: .offerProbability),
                      prompt: try values.decodeIfPresent(String.self, forKey: .prompt) ?? "",
                      model: try values.decode(NeuralDecisionModel.self, forKey: .model))
        }
    }

    /// A model with these coefficients.
    public init(inputNames: [String], means: [Double], scales: [Double], weights: [Double], intercept: Double,
                acceptProbability: Double, confirmProbability: Double, agreementProbability: Double? = nil, crossCheck: CrossCheck? = nil,
                neuralCheck: NeuralCheck? = nil) {
        precondition(means.count == inputNames.count && scales.count == inputNames.count && weights.count == inputNames.count)
        self.inputNames = inputNames
        self.means = means
        self.scales = scales
        self.weights = weights
        self.intercept = intercept
        self.acceptProbability = acceptProbability
        self.confirmProbability = confirmProbability
        self.agreementProbability = agreementProbability
        self.crossCheck = crossCheck
        self.neuralCheck = neuralCheck
    }

    /// This model deciding without its neural check (`--no-neural-check` while measuring the neural pass's readings).
    public var withoutNeuralCheck: DecisionModel {
        var model = self
        model.neuralCheck = nil
        return model
    }

    /// The file in an acoustic model's folder that holds the decision model fitted on that model's decodes.
    public static let fileName = "decision-model.json"

    /// The decision model fitted on `acousticModel`'s decodes: its folder's `decision-model.json`, or `stock` for
    /// Debian's stock model; throws `RecognizerError` for a folder without one (the coefficients of another model would
    /// misjudge its scores) or with a file that is not a decision model for these inputs.
    public static func belonging(toAcousticModel acousticModel: String) throws -> DecisionModel {
        let file = URL(fileURLWithPath: acousticModel).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else {
            if RecognizerConfiguration.sameFolder(acousticModel, RecognizerConfiguration.stockAcousticModel) { return .stock }
            throw RecognizerError(operation: "load decision model", context: "\(acousticModel) has no \(fileName): the calibrated decision needs coefficients fitted on this model's own decodes (scripts/decision-model/fit-decision-model.py --model-file); or measure it on the hand-set thresholds with flightvoice eval --hand-thresholds")
        }
        return try DecisionModel(contentsOf: file)
    }

    /// Reads a model written by the fitting script (`--model-file`); throws `RecognizerError` naming the file and what is
    /// wrong with it.
    public init(contentsOf file: URL) throws {
        let model: DecisionModel
        do {
            model = try JSONDecoder().decode(DecisionModel.self, from: try Data(contentsOf: file))
        } catch {
            throw RecognizerError(operation: "load decision model", context: "\(file.path) is not a decision model: \(error)")
        }
        let problem: String? =
            if let problem = model.coefficientProblem(expecting: Self.inputNames) { problem }
            else if !(0...1).contains(model.confirmProbability) || !(0...1).contains(model.acceptProbability)
                        || model.confirmProbability > model.acceptProbability { "its probabilities (accept \(model.acceptProbability), confirm \(model.confirmProbability)) are not 0 ≤ confirm ≤ accept ≤ 1" }
            else if let agreement = model.agreementProbability, !(model.confirmProbability...model.acceptProbability).contains(agreement) {
                "its agreement probability \(agreement) is not between its confirm and accept probabilities"
            }
            else if let crossCheck = model.crossCheck, !(0...model.acceptProbability).contains(crossCheck.probability)
                        || !(0...1).contains(crossCheck.otherModelProbability) {
                "its cross-check probabilities (\(crossCheck.probability), other model \(crossCheck.otherModelProbability)) are not 0 ≤ own ≤ accept and 0 ≤ other ≤ 1"
            }
            else if let neuralCheck = model.neuralCheck, !(0...model.acceptProbability).contains(neuralCheck.probability)
                        || !(0...1).contains(neuralCheck.acceptProbability) {
                "its neural check's probabilities (asked from \(neuralCheck.probability), answers from \(neuralCheck.acceptProbability)) are not 0 ≤ asked ≤ accept and 0 ≤ answers ≤ 1"
            }
            else if let neuralCheck = model.neuralCheck,
                    let outside = [neuralCheck.disputeProbability, neuralCheck.belowFloorProbability, neuralCheck.overRunnerUpProbability,
                                   neuralCheck.offerProbability]
                        .compactMap({ $0 }).first(where: { !(0...1).contains($0) }) {
                "its neural check's probability \(outside) is not between 0 and 1"
            }
            else if let neural = model.neuralCheck?.model,
                    let problem = neural.coefficientProblem(expecting: NeuralDecisionModel.expectedInputNames(for: neural.inputNames), kind: "neural ") { problem }
            else { nil }
        if let problem { throw RecognizerError(operation: "load decision model", context: "\(file.path): \(problem)") }
        self = model
    }

    /// The probability, 0...1, that the flight heard is the one said.
    public func probability(_ features: DecisionFeatures) -> Double {
        var values = Self.inputs(features)
        // The training average lies between the lead's extreme values, so the probability lies between theirs, as does
        // the decision the rival was skipped for.
        if features.rivalNotNeeded { for index in Self.rivalInputIndices { values[index] = means[index] } }
        return logisticProbability(values)
    }

    /// The raw inputs, in the order of `inputNames` (see the script for what each means). They describe the flight
    /// words and how the open grammar, free to say any flight, read the same audio; carrier words ("what's the gate
    /// for") count only through the mean fit of all words, so a query in a sentence is judged as the bare flight.
    static func inputs(_ features: DecisionFeatures) -> [Double] {
        let gap = features.openReading.fitDifference
        let margin = features.rival?.margin
        let heard = features.heardFlights.first
        let opened = features.openReading.flight
        let heardCode = heard?.canonical ?? "", openCode = opened?.canonical ?? ""
        let heardNumber = heard.map { String($0.number) } ?? "", openNumber = opened.map { String($0.number) } ?? ""
        let snr = min(max(features.signalToNoiseRatio ?? 0, 0), snrLimit)
        let lowSNR = max(0, lowSignalToNoise - snr) / lowSignalToNoise
        let distance = opened == nil ? 0 : min(edits(heardCode, openCode), distanceLimit)
        let flightFit = features.flightWordsRatio
        return [
            flightFit,
            gap ?? 0,
            gap == nil ? 1 : 0,
            max(0, naturalFramesPerPhone - (features.shortestFlightWordFramesPerPhone ?? naturalFramesPerPhone)),
            min(max(margin ?? 0, -marginLimit), marginLimit),
            margin == nil ? 1 : 0,
            features.agreesWithOpenGrammar ? 1 : 0,
            snr,
            min(features.unexplainedSpeechSeconds, unexplainedLimit),
            features.lowestWordRatio ?? 0,
            features.logLikelihoodRatio,
            opened != nil && !features.openFlightIsToday && opened != heard ? 1 : 0,
            opened != nil && openNumber.count != heardNumber.count ? 1 : 0,
            flightFit * lowSNR,
            (gap ?? 0) * lowSNR,
            Double(heardNumber.count),
            Double(distance),
            opened == nil ? 0 : Double(min(edits(heardNumber, openNumber), distanceLimit)),
            opened != nil && opened?.airline != heard?.airline ? 1 : 0,
            opened != nil && distance <= 1 ? 1 : 0,
        ]
    }

    /// Levenshtein distance between two strings, by characters ("LX40" and "UX40" are one edit apart).
    static func edits(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// Names of `inputs`, as the fitting script writes them.
    static let inputNames = ["flight_fit", "open_gap", "open_missing", "squeeze", "rival_lead", "rival_missing", "grammars_agree", "snr",
                             "unexplained", "lowest_word", "all_words", "open_offlist", "open_other_length", "fit_low_snr", "gap_low_snr",
                             "digits", "open_distance", "open_digit_distance", "open_airline_differs", "open_near"]
    /// Where `inputs` holds the rival's lead and whether it had no path.
    static let rivalInputIndices = ["rival_lead", "rival_missing"].map { inputNames.firstIndex(of: $0)! }
    /// Frames per phone from which a flight word counts as unhurried (as `RecognitionThresholds.naturalFramesPerPhone`).
    static let naturalFramesPerPhone = 10.0
    /// Rival margins beyond ±this count as this: a very distinct reading says which flight, not that one was said.
    static let marginLimit = 20.0
    /// Estimated SNRs above this (dB) count as this: all clean audio alike.
    static let snrLimit = 40.0
    /// Below this SNR (dB) the fit and the open-grammar gap count again, in proportion to how far below: noise lowers
    /// both for right and wrong flights alike.
    static let lowSignalToNoise = 20.0
    /// Edits between the flight heard and the open grammar's beyond this count as this.
    static let distanceLimit = 4
    /// Unexplained speech beyond this (seconds) counts as this.
    static let unexplainedLimit = 2.0
}
