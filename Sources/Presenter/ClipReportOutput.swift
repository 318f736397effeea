import FlightCore
import Foundation

/// Per-clip output of the `recognize` command: a human line and a JSON line.
public enum ClipReportOutput {
    /// One line for people, e.g.
    /// `Samples/lx40.wav  "l x forty"  → LX 40 Swiss → New York JFK · Gate E34 · Boarding   (confidence 0.93)`.
    public static func textLine(_ report: ClipReport, options: PresentationOptions) -> String {
        let style = TerminalStyle(enabled: options.isTerminal)
        let answer = report.answer
        let heard = "\"\(report.transcript.text)\""
        let confidence = "   (confidence \(decimal(report.transcript.confidence, places: 2)))"
        switch answer.status {
        case .found:
            guard let lookup = answer.lookup else { return "\(report.path)  \(heard)  → \(answer.flightNumber?.display ?? "?")\(confidence)" }
            let flight = lookup.flight
            var parts = ["\(style.bold(flight.number.display)) \(flight.airline.name) \(FlightCard.route(flight))"]
            switch flight.direction {
            case .departure:
                if flight.status != .cancelled { parts.append(FlightCard.gateText(flight, style: style)) }
            case .arrival:
                if let belt = flight.belt { parts.append("Belt \(belt)") }
            }
            parts.append(style.status(flight.status.displayText, tone: flight.status.tone))
            let sold = lookup.isCodeshare ? " (sold as \(lookup.requested.display))" : ""
            return "\(report.path)  \(heard)  → \(parts.joined(separator: " · "))\(sold)\(confidence)"
        case .notFound:
            let asked = answer.flightNumber?.display ?? "?"
            let suggestions = answer.suggestions.prefix(max(0, options.maximumSuggestions)).map(\.requested.display)
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: ", "))?)"
            return "\(report.path)  \(heard)  → \(asked): \(style.warning("not found today"))\(hint)\(confidence)"
        case .notUnderstood:
            let reason = answer.message.map { ": \($0)" } ?? ""
            return "\(report.path)  \(heard)  \(style.warning("not understood"))\(reason)\(confidence)"
        case .noSpeech:
            return "\(report.path)  \(style.dim("no speech"))"
        case .error:
            return "\(report.path)  \(style.bad("error")): \(report.error ?? answer.message ?? "unknown error")"
        }
    }

    /// One compact JSON object on one line (JSON Lines), documented in docs/json-output.md.
    public static func jsonLine(_ report: ClipReport) -> String {
        jsonObject(report).serialized()
    }

    /// The object written by `jsonLine`.
    public static func jsonObject(_ report: ClipReport) -> JSONValue {
        let answer = report.answer
        return .object([
            "path": .string(report.path),
            "status": .string(answer.status.rawValue),
            "transcript": .string(report.transcript.text),
            "flight": .string(answer.flightNumber?.canonical),
            "confidence": .rounded(report.transcript.confidence),
            "alternatives": .array(report.transcript.alternatives.map(JSONValue.string)),
            "words": .array(report.transcript.words.map { word in
                .object([
                    "word": .string(word.word),
                    "start": .rounded(word.start),
                    "end": .rounded(word.end),
                    "confidence": .rounded(word.confidence),
                ])
            }),
            "flight_info": answer.lookup.map(AnswerJSON.flightObject) ?? .null,
            "suggestions": .array(answer.suggestions.map(AnswerJSON.flightObject)),
            "message": .string(answer.message),
            "error": .string(report.error ?? (answer.status == .error ? answer.message : nil)),
            "duration": .rounded(report.audioDuration),
            "processing_seconds": .rounded(report.processingSeconds),
        ])
    }

    /// `value` with exactly `places` decimals, e.g. 0.93 → "0.93"; locale-independent.
    static func decimal(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "nan" }
        let scale = Int(pow(10, Double(places)))
        let scaled = Int((abs(value) * Double(scale)).rounded())
        let whole = scaled / scale
        let fraction = String(scaled % scale)
        let padded = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return places == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(padded)"
    }
}
