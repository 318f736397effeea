import FlightCore
import Foundation

/// Whole-batch output of the `recognize` command: the closing summary and a live progress line.
public enum BatchProgress {
    /// Counts per status, throughput and real-time factor, e.g.
    /// `12 clips: 8 found, 2 not found, 1 not understood, 0 no speech, 1 error · 45.2 s of audio in 1.3 s · 9.2 clips/s · real-time factor 0.029`.
    /// `elapsedSeconds` is the batch's wall-clock time (clips may be decoded in parallel); the real-time factor is
    /// elapsed time divided by total audio duration, so below 1 means faster than real time.
    public static func summaryLine(_ reports: [ClipReport], elapsedSeconds: Double) -> String {
        let order: [(AnswerStatus, String)] = [
            (.found, "found"), (.notFound, "not found"), (.notUnderstood, "not understood"),
            (.noSpeech, "no speech"), (.error, "error"),
        ]
        let counts = order.map { status, label in
            let count = reports.filter { $0.answer.status == status }.count
            return "\(count) \(label)\(status == .error && count != 1 ? "s" : "")"
        }
        let audio = reports.reduce(0) { $0 + $1.audioDuration }
        let noun = reports.count == 1 ? "clip" : "clips"
        var parts = ["\(reports.count) \(noun): \(counts.joined(separator: ", "))"]
        parts.append("\(ClipReportOutput.decimal(audio, places: 1)) s of audio in \(ClipReportOutput.decimal(elapsedSeconds, places: 1)) s")
        if elapsedSeconds > 0 {
            parts.append("\(ClipReportOutput.decimal(Double(reports.count) / elapsedSeconds, places: 1)) clips/s")
        }
        if audio > 0 {
            parts.append("real-time factor \(ClipReportOutput.decimal(elapsedSeconds / audio, places: 3))")
        }
        return parts.joined(separator: " · ")
    }

    /// A progress line for a terminal, e.g. `[====>     ] 42/100  12.3 clips/s  ETA 0:05`.
    /// `width` is the number of cells inside the brackets; the ETA is "--:--" until a rate is known.
    public static func progressLine(done: Int, total: Int, elapsedSeconds: Double, width: Int = 10) -> String {
        let cells = max(1, width)
        let fraction = total > 0 ? min(max(Double(done) / Double(total), 0), 1) : 0
        let filled = Int((fraction * Double(cells)).rounded(.down))
        let bar = filled >= cells
            ? String(repeating: "=", count: cells)
            : String(repeating: "=", count: filled) + ">" + String(repeating: " ", count: cells - filled - 1)
        let rate = elapsedSeconds > 0 ? Double(done) / elapsedSeconds : 0
        let rateText = elapsedSeconds > 0 && done > 0 ? "\(ClipReportOutput.decimal(rate, places: 1)) clips/s" : "-- clips/s"
        let remaining = max(total - done, 0)
        let eta = rate > 0 ? duration(Double(remaining) / rate) : "--:--"
        return "[\(bar)] \(done)/\(total)  \(rateText)  ETA \(eta)"
    }

    /// "0:05", "12:34", "1:02:03": whole seconds, rounded up so the ETA never reads 0:00 early.
    static func duration(_ seconds: Double) -> String {
        let total = Int(max(0, seconds).rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
