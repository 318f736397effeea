import FlightCore

/// One clip's decision measures as a TSV row, for choosing thresholds on a development set (`eval --features`).
///
/// The recognizer accepts, confirms or rejects on these numbers (see `RecognitionThresholds`); with the expected
/// answer beside them, a threshold can be read off as "the loosest value at which at most N% of clips got a wrong
/// flight" per noise band, without rerunning the decoder. Pure.
extension DecisionFeatures {
    /// The header row.
    public static let header = ["path", "expected", "outcome", "heard_flight", "decision", "confidence", "fit_score", "fit_without_rival",
                                "phone_loop_ratio", "open_fit_difference", "snr_db", "unexplained_speech_s",
                                "shortest_flight_word_frames_per_phone", "rival_margin", "rival_flight", "open_flight", "transcript", "open_transcript",
                                "heard_today", "grammars_agree", "open_flight_today", "all_words_ratio", "lowest_word_ratio",
                                "word_count", "flight_word_count", "speech_s", "duration_s",
                                "lowest_flight_word_ratio", "flight_open_gap_mean", "carrier_ratio", "flight_word_s", "carrier_word_s", "second_opinion_flight",
                                "cross_check_flight", "cross_check_probability",
                                "neural_flight", "neural_margin", "neural_score", "neural_grammar_rank", "neural_text", "neural_free_transcript",
                                "neural_free_flight", "neural_off_list_flight", "neural_off_list_margin",
                                "neural_tuned_flight", "neural_tuned_margin", "neural_tuned_score"]
        .joined(separator: "\t")

    /// The row of one clip; `result` is nil when the clip could not be decoded.
    public static func row(entry: EvaluationManifest.Entry, report: ClipReport, result: RecognitionResult?) -> String {
        let outcome = EvaluationOutcome(expected: entry.expected, answer: report.answer)
        func number(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "" }
        let decision: String
        switch result?.decision {
        case .accepted?: decision = "accept"
        case .confirm?: decision = "confirm"
        case .rejected?: decision = "reject"
        case .noSpeech?: decision = "no_speech"
        case nil: decision = "error"
        }
        let cells = [
            entry.path, entry.expected?.canonical ?? "", outcome.rawValue, result?.grammarFlights.first?.canonical ?? "", decision,
            number(result?.confidence), number(result?.fitScore), number(result?.fitScoreWithoutRival), number(result?.flightWordsRatio),
            number(result?.openReading?.fitDifference), number(result?.signalToNoiseRatio), number(result?.unexplainedSpeechSeconds),
            number(result?.shortestFlightWordFramesPerPhone), number(result?.rivalReading?.margin),
            result?.rivalReading?.flight?.canonical ?? "",
            result?.openReading?.flight?.canonical ?? "", result?.transcript.text ?? "", result?.openReading?.text ?? "",
        ] + measuredCells(result?.features, duration: result?.audioDuration)
            + [result?.features?.secondOpinionFlights?.first?.canonical ?? "",
               result?.features?.crossCheck.map { $0.flight?.canonical ?? "" } ?? "",
               result?.features?.crossCheck.map { String(format: "%.4f", $0.probability) } ?? ""]
            + neuralCells(result?.features?.neural)
        return cells.map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: "\t")
    }

    /// The neural model's reading (empty cells when it was not asked).
    private static func neuralCells(_ reading: NeuralReading?) -> [String] {
        guard let reading else { return Array(repeating: "", count: 12) }
        func number(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "" }
        return [reading.flight?.canonical ?? "", number(reading.margin), number(reading.score),
                reading.grammarFlightRank.map(String.init) ?? "", reading.text, reading.freeTranscript, reading.freeTranscriptFlight?.canonical ?? "",
                reading.offListFlight?.canonical ?? "", number(reading.offListMargin),
                reading.tuned.map { $0.flight?.canonical ?? "" } ?? "", number(reading.tuned?.margin), number(reading.tuned?.score)]
    }

    /// The measures beyond the fit score's parts (empty cells when nothing was heard as words).
    private static func measuredCells(_ features: DecisionFeatures?, duration: Double?) -> [String] {
        func number(_ value: Double?) -> String { value.map { String(format: "%.3f", $0) } ?? "" }
        guard let features else { return ["", "", "", "", "", "", "", "", number(duration), "", "", "", "", ""] }
        return [features.heardFlights.first?.canonical ?? "", features.agreesWithOpenGrammar ? "1" : "0", features.openFlightIsToday ? "1" : "0",
                number(features.logLikelihoodRatio), number(features.lowestWordRatio), String(features.words.count),
                String(features.flightWordIndices.count), number(Double(features.speechFrames) / FlightRecognizer.framesPerSecond), number(duration),
                number(features.lowestFlightWordRatio), number(features.flightWordsOpenGap), number(features.carrierWordsRatio),
                number(Double(features.frames(of: features.flightWordIndices)) / FlightRecognizer.framesPerSecond),
                number(Double(features.frames(of: features.carrierWordIndices)) / FlightRecognizer.framesPerSecond)]
    }
}
