import FlightCore
import FlightStore
import Foundation
import Recognizer
import Testing

/// Evaluates a manifest when FLIGHTVOICE_EVAL_MANIFEST is set (skipped otherwise): a measuring aid until the CLI's
/// `flightvoice eval` exists. The flights are the embedded seed day plus FLIGHTVOICE_EVAL_SCHEDULE (a CSV) if given.
/// FLIGHTVOICE_EVAL_BY (comma-separated columns) groups the totals; FLIGHTVOICE_EVAL_CLIPS=1 lists every clip.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FLIGHTVOICE_EVAL_MANIFEST"] != nil))
func evaluateManifest() throws {
    let environment = ProcessInfo.processInfo.environment
    let store = try FlightStore.inMemory()
    if let schedule = environment["FLIGHTVOICE_EVAL_SCHEDULE"] { _ = try store.importCSV(contentsOf: schedule) }
    let vocabulary = try FlightVocabulary(dataSource: store)
    var configuration = RecognizerConfiguration()
    if let value = environment["FLIGHTVOICE_EVAL_ACCEPT"].flatMap(Double.init) { configuration.thresholds.acceptRatio = value }
    if let value = environment["FLIGHTVOICE_EVAL_REJECT"].flatMap(Double.init) { configuration.thresholds.rejectRatio = value }
    let manifest = try EvaluationManifest(contentsOf: environment["FLIGHTVOICE_EVAL_MANIFEST"]!)
    let report = try Evaluator.run(manifest: manifest, vocabulary: vocabulary, configuration: configuration,
                                   jobs: Int(environment["FLIGHTVOICE_EVAL_JOBS"] ?? "2") ?? 2,
                                   groupBy: (environment["FLIGHTVOICE_EVAL_BY"] ?? "condition").split(separator: ",").map(String.init))
    print("flights: \(vocabulary.flights.count) of \(Set(vocabulary.flights.map(\.airline)).count) airlines")
    if environment["FLIGHTVOICE_EVAL_CLIPS"] != nil {
        for outcome in report.outcomes {
            let ratio = outcome.logLikelihoodRatio.map { String(format: "%.1f", $0) } ?? "-"
            let flightRatio = outcome.flightWordsRatio.map { String(format: "%.1f", $0) } ?? "-"
            print("CLIP\t\(outcome.entry.expected?.canonical ?? "")\t\(outcome.decision.map { "\($0)" } ?? "error")\t\(ratio)\t\(outcome.isCorrect)\t\(outcome.isFalseAccept)\t\(outcome.entry.columns["condition"] ?? "")\t\(outcome.entry.columns["kind"] ?? "")\t\(outcome.transcript)\t\(flightRatio)\t\(outcome.signalToNoiseRatio.map { String(format: "%.1f", $0) } ?? "-")")
        }
    }
    print(report.rendered())
}
