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
        neuralCheck: NeuralCheck(probability: 0, acceptProbability: 0.655, disputeProbability: 0.5, offListMargin: -0.8, offerProbability: 0.5,
            prompt: "Flight number, spelled letter by letter and digit by digit.", model: NeuralDecisionModel(
            inputNames: ["score", "margin", "off_list_margin", "grammar_agrees", "grammar_logit", "grammar_other", "open_agrees", "free_agrees", "snr", "tuned_agrees", "tuned_margin", "tuned_score"],
            means: [-3.3285, 0.668916, -0.0220881, 0.385313, 0.638239, 0.565937, 0.0803125, 0.0665625, 26.838, 0.651563, 0.632433, -1.77947],
            scales: [1.37336, 0.622349, 0.482108, 0.486669, 1.5527, 0.495633, 0.271776, 0.249263, 10.8375, 0.476475, 0.700578, 1.19941],
            weights: [0.344911, 1.41699, 1.28897, 1.11794, 0.650303, 0.219958, 0.140728, 0.33334, -0.221524, 0.428555, 1.40601, 0.453691],
            intercept: 2.38719)))
}
