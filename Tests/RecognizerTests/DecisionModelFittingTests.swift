import Foundation
import ProcessTestSupport
@testable import Recognizer
import Testing

/// The committed decision models are the fitting script's output on the committed decodes (docs/accuracy-and-decisions.md, "Each model with its
/// own decision"), and the benchmark summary refits the stock one as `make benchmarks` does: a change to either
/// script, or to a committed model file, that breaks that shows here rather than when someone next regenerates them.
@Suite("The committed decision models rebuild from the committed decodes")
struct DecisionModelFittingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let scripts = root.appendingPathComponent("scripts/decision-model")

    /// Runs `arguments` with python3 in `folder`; (exit status, standard output and error).
    static func python(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        try runToEnd("/usr/bin/python3", arguments, in: folder)
    }

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("fv-\(UUID().uuidString)-\(name)")
    }

    @Test("the stock model's coefficients, probabilities, cross-check and neural check, the tuned decoder's inputs included (DecisionModel+Fitted.swift)")
    func stockModelRebuilds() throws {
        let out = Self.temporaryFile("fitted.swift")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try Self.python([
            "fit-decision-model.py", "training-features.tsv",
            "--dev", "human=dev-human-features.tsv,adapted-dev-human-manifest.tsv",
            "--dev", "synthetic=dev-synthetic-features.tsv,adapted-dev-synthetic-manifest.tsv",
            "--cross-check-model", "../../models/en-us-flightvoice/decision-model.json",
            "--cross-check", "human=adapted-dev-human-features.tsv", "--cross-check", "synthetic=adapted-dev-synthetic-features.tsv",
            "--neural", "training=neural-training-features.tsv",
            "--neural", "human=neural-dev-human-features.tsv", "--neural", "synthetic=neural-dev-synthetic-features.tsv",
            "--neural-tuned", "training=neural-tuned-training-features.tsv",
            "--neural-tuned", "human=neural-tuned-dev-human-features.tsv", "--neural-tuned", "synthetic=neural-tuned-dev-synthetic-features.tsv",
            "--neural-prompt", "Flight number, spelled letter by letter and digit by digit.",
            "--swift", out.path,
        ], in: Self.scripts)
        #expect(run.status == 0, "\(run.output)")
        let committed = try String(contentsOf: Self.root.appendingPathComponent("Sources/Recognizer/Decision/DecisionModel+Fitted.swift"), encoding: .utf8)
        #expect(try String(contentsOf: out, encoding: .utf8) == committed)
    }

    @Test("the adapted model's decision-model.json, its neural check included")
    func adaptedModelRebuilds() throws {
        let out = Self.temporaryFile("decision-model.json")
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try Self.python([
            "fit-decision-model.py", "adapted-training-features.tsv,adapted-training-manifest.tsv",
            "--dev", "human=adapted-dev-human-features.tsv,adapted-dev-human-manifest.tsv",
            "--dev", "synthetic=adapted-dev-synthetic-features.tsv,adapted-dev-synthetic-manifest.tsv",
            "--neural", "training=neural-adapted-training-features.tsv",
            "--neural", "human=neural-adapted-dev-human-features.tsv", "--neural", "synthetic=neural-adapted-dev-synthetic-features.tsv",
            "--model-file", out.path,
        ], in: Self.scripts)
        #expect(run.status == 0, "\(run.output)")
        let committed = try Data(contentsOf: Self.root.appendingPathComponent("models/en-us-flightvoice/decision-model.json"))
        #expect(try Data(contentsOf: out) == committed)
    }

    @Test("the benchmark summary refits the stock decision as committed, cross-check included")
    func benchmarkSummaryRefitsTheStockDecision() throws {
        let stock = DecisionModel.stock
        let crossCheck = try #require(stock.crossCheck)
        let refit = try Self.python(["-c", """
            import sys; sys.path.insert(0, "../benchmarks"); import summarize
            stock = summarize.refit("training-features.tsv")
            print(stock.accept, stock.confirm, *stock.cross)
            """], in: Self.scripts)
        #expect(refit.status == 0, "\(refit.output)")
        let chosen = refit.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        #expect(chosen == [stock.acceptProbability, stock.confirmProbability, crossCheck.probability, crossCheck.otherModelProbability],
                "\(refit.output)")

        let summary = try Self.python([
            "../benchmarks/summarize.py", "--model-from", "training-features.tsv",
            "--set", "human dev=dev-human-features.tsv:adapted-dev-human-manifest.tsv",
        ], in: Self.scripts)
        #expect(summary.status == 0, "\(summary.output)")
        #expect(summary.output.contains("### human dev (604 clips)"), "\(summary.output.prefix(300))")
    }

    @Test("the benchmark summary counts the neural check's answers as the fitting script does, its own flight included")
    func benchmarkSummaryCountsNeuralAnswers() throws {
        let counted = try Self.python(["-c", """
            import sys; sys.path.insert(0, "../benchmarks"); import summarize; fit = summarize.fit
            stock = summarize.refit("training-features.tsv")
            rows = fit.load("neural-dev-human-features.tsv")
            decide = stock.decision()
            own = sum(fit.decide(r, fit.probability(stock.model, r), stock.accept, stock.confirm, stock.agreement, None,
                                 stock.neural) == "accept_neural" for r in rows)
            for kind in ["right", "wrong"]:
                print(kind, sum(summarize.outcome(r, decide(r)) == kind for r in rows),
                      fit.outcomes(rows, stock.model, stock.accept, stock.confirm, stock.agreement, None, stock.neural)[kind])
            print("own", own)
            """], in: Self.scripts)
        #expect(counted.status == 0, "\(counted.output)")
        let lines = counted.output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        for line in lines where line.first != "own" {
            #expect(line.count == 3 && line[1] == line[2], "summary against fitting script: \(line.joined(separator: " "))")
        }
        let own = try #require(lines.first { $0.first == "own" }.flatMap { Int($0[1]) })
        #expect(own > 0, "the dev set should hold answers of the neural model's own flight, or this test pins nothing")
    }
}
