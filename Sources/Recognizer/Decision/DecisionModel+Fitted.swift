// Written by scripts/decision-model/fit-decision-model.py from training-features.tsv; do not edit by hand.

extension DecisionModel {
    /// The model fitted on the training voices (see `DecisionModel`).
    public static let fitted = DecisionModel(
        inputNames: ["flight_fit", "open_gap", "open_missing", "squeeze", "rival_lead", "rival_missing", "grammars_agree", "open_other_today", "snr", "unexplained", "lowest_word", "all_words", "carrier_words"],
        means: [-41.214, -30.1886, 0.0169133, 4.59613, -2.98867, 0.20296, 0.0887949, 0, 27.1382, 0.0363636, -79.7856, -40.4267, 2.08245],
        scales: [11.1875, 24.6608, 0.128947, 1.82795, 5.15299, 0.402203, 0.284448, 1, 10.9247, 0.111091, 25.4538, 10.0354, 1.74469],
        weights: [-0.073613, 0.64051, -0.505098, -0.963731, 0.691872, -0.519353, 0.489424, 0, 0.490985, -0.589146, -0.13622, 0.373631, -0.355997],
        intercept: -0.981838,
        acceptProbability: 0.92,
        confirmProbability: 0.31)
}
