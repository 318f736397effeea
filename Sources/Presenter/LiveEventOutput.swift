import FlightCore

/// JSON Lines for `flightvoice listen --format jsonl`: one object per event, told apart by `event`.
public enum LiveEventOutput {
    /// `{"event":"speech_started","at":1.23}`: seconds since listening began.
    public static func speechStarted(at seconds: Double) -> String {
        JSONValue.object(["event": .string("speech_started"), "at": .rounded(seconds)]).serialized()
    }

    /// `{"event":"partial","text":"l x"}`.
    public static func partial(_ text: String) -> String {
        JSONValue.object(["event": .string("partial"), "text": .string(text)]).serialized()
    }

    /// The fields of `recognize --format jsonl` for this utterance, plus `"event":"final"`.
    public static func final(_ report: ClipReport) -> String {
        guard case .object(var fields) = ClipReportOutput.jsonObject(report) else { return ClipReportOutput.jsonLine(report) }
        fields["event"] = .string("final")
        return JSONValue.object(fields).serialized()
    }
}
