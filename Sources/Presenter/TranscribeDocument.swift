import FlightCore
import Foundation

/// The JSON Amazon Transcribe writes for a finished job, so existing Transcribe clients read our results unchanged:
/// `jobName`, `accountId`, `status`, `results.transcripts[].transcript` and `results.items[]` with `start_time`,
/// `end_time` (strings, seconds), `alternatives[].confidence` (string) / `content` and `type`.
/// FlightVoice's own fields live only under the extra top-level key `flightvoice`, which Transcribe clients ignore.
public enum TranscribeDocument {
    /// The account id written when none is configured.
    public static let defaultAccountID = "flightvoice-local"

    /// The document for one clip as one line of JSON with sorted keys.
    public static func render(_ report: ClipReport, accountID: String = defaultAccountID, pretty: Bool = false) -> String {
        object(for: report, accountID: accountID).serialized(pretty: pretty)
    }

    /// The document for one clip: status "COMPLETED", or "FAILED" with `failureReason` for error clips.
    public static func object(for report: ClipReport, accountID: String = defaultAccountID) -> JSONValue {
        let failed = report.answer.status == .error
        var document: [String: JSONValue] = [
            "jobName": .string(jobName(forPath: report.path)),
            "accountId": .string(accountID),
            "status": .string(failed ? "FAILED" : "COMPLETED"),
            "results": .object([
                "transcripts": .array([.object(["transcript": .string(failed ? "" : report.transcript.text)])]),
                "items": .array(failed ? [] : report.transcript.words.filter(isSpokenWord).map(item)),
            ]),
            "flightvoice": .object([
                "status": .string(report.answer.status.rawValue),
                "flight": .string(report.answer.flightNumber?.canonical),
                "flight_info": report.answer.lookup.map(AnswerJSON.flightObject) ?? .null,
                "suggestions": .array(report.answer.suggestions.map(AnswerJSON.flightObject)),
                "confidence": .rounded(report.transcript.confidence),
                "message": .string(report.answer.message),
            ]),
        ]
        if failed {
            document["failureReason"] = .string(report.error ?? report.answer.message ?? "the clip could not be processed")
        }
        return .object(document)
    }

    /// A Transcribe job name from a clip path: the file name without extension, limited to `[0-9A-Za-z._-]`
    /// (other characters become "-") and 200 characters; "stdin" for standard input.
    public static func jobName(forPath path: String) -> String {
        let fileName = path.split(separator: "/").last.map(String.init) ?? ""
        let stem = fileName.contains(".") && !fileName.hasPrefix(".")
            ? String(fileName[..<(fileName.lastIndex(of: ".") ?? fileName.endIndex)])
            : fileName
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        let cleaned = String(stem.map { allowed.contains($0) ? $0 : "-" }.prefix(200))
        return cleaned.isEmpty || cleaned == "-" ? "stdin" : cleaned
    }

    /// A pronunciation item for one recognized word.
    static func item(_ word: RecognizedWord) -> JSONValue {
        .object([
            "start_time": .string(ClipReportOutput.decimal(word.start, places: 3)),
            "end_time": .string(ClipReportOutput.decimal(word.end, places: 3)),
            "alternatives": .array([.object([
                "confidence": .string(confidenceText(word.confidence)),
                "content": .string(word.word),
            ])]),
            "type": .string("pronunciation"),
        ])
    }

    /// False for recognizer markers such as `<sil>`, `<s>` or `[NOISE]`, which Transcribe never emits.
    static func isSpokenWord(_ word: RecognizedWord) -> Bool {
        guard let first = word.word.first else { return false }
        return first != "<" && first != "["
    }

    /// Confidence as Transcribe writes it: up to four decimals, at least one ("0.93", "1.0", "0.9961").
    static func confidenceText(_ value: Double) -> String {
        var text = ClipReportOutput.decimal(min(max(value, 0), 1), places: 4)
        while text.hasSuffix("0") && !text.hasSuffix(".0") { text.removeLast() }
        return text
    }
}
