// Written by scripts/decision-model/fit-decision-model.py from training-features.tsv (thresholds chosen on human, synthetic); do not edit by hand.

extension DecisionModel {
    /// The model fitted on Debian's stock acoustic model's decodes of the training voices (see `DecisionModel`).
    public static let stock = DecisionModel(
        inputNames: ["flight_fit", "open_gap", "open_missing", "squeeze", "rival_lead", "rival_missing", "grammars_agree", "snr", "unexplained", "lowest_word", "all_words", "open_offlist", "open_other_length", "fit_low_snr", "gap_low_snr", "digits", "open_distance", "open_digit_distance", "open_airline_differs", "open_near"],
        means: [-35.217, -27.3716, 0.0200382, 4.25136, -2.22935, 0.178435, 0.096374, 26.3946, 0.0265744, -71.7329, -35.1436, 0.418893, 0.188931, -3.16687, -2.56589, 3.43607, 1.22615, 0.825382, 0.321565, 0.171756],
        scales: [11.9795, 25.1735, 0.140131, 2.09108, 5.07724, 0.382879, 0.295104, 10.3699, 0.101438, 26.9978, 10.9796, 0.493378, 0.391454, 6.00045, 6.49392, 0.687759, 1.62266, 1.23601, 0.467077, 0.377168],
        weights: [0.100523, 0.554133, -0.20581, -0.574529, 0.447953, -0.289945, 0.347919, 0.24202, -0.580985, -0.0795091, 0.586704, 0.524887, -0.206106, 0.496687, -0.101982, 0.352804, -1.05664, 0.088508, 0.507189, 0.324536],
        intercept: -0.222804,
        acceptProbability: 0.81,
        confirmProbability: 0.49,
        crossCheck: CrossCheck(probability: 0.6, otherModelProbability: 0.7),
        neuralCheck: NeuralCheck(probability: 0.05, acceptProbability: 0.815, disputeProbability: 0.5, belowFloorProbability: 0.985, offListMargin: -0.6, asksOverRunnerUp: true, overRunnerUpProbability: 0.885,
            prompt: "Flight number, spelled letter by letter and digit by digit.", model: NeuralDecisionModel(
            inputNames: ["score", "margin", "off_list_margin", "grammar_agrees", "grammar_logit", "grammar_other", "open_agrees", "free_agrees", "snr"],
            means: [-3.27517, 0.690244, -0.046818, 0.408182, 0.730196, 0.549091, 0.0845455, 0.0863636, 26.4983],
            scales: [1.39488, 0.639876, 0.486313, 0.491497, 1.6077, 0.497584, 0.278204, 0.2809, 10.4146],
            weights: [1.00773, 2.1004, 0.512361, 1.05535, 0.56267, -0.224426, 0.25111, 0.351929, -0.107191],
            intercept: 1.93851)))
}
