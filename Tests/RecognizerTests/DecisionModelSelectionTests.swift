import Foundation
@testable import Recognizer
import Testing

/// Each acoustic model is decided on with the coefficients fitted on its own decodes: its scores are on its own scale.
@Suite("Each acoustic model decides with its own decision model")
struct DecisionModelSelectionTests {
    static let stockFolder = RecognizerConfiguration.stockAcousticModel

    /// A model folder of links to the stock model's files, plus `decisionFile` when given; removed by the caller.
    static func foreignModel(decisionFile: String? = nil) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fv-foreign-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: stockFolder) {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path, withDestinationPath: stockFolder + "/" + name)
        }
        if let decisionFile {
            try decisionFile.write(to: folder.appendingPathComponent(DecisionModel.fileName), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test("the default is Debian's stock model with the stock coefficients; the committed adapted model decides with the coefficients in its folder")
    func defaultIsStockAndAdaptedHasItsOwn() throws {
        let configuration = RecognizerConfiguration()
        #expect(configuration.acousticModel == Self.stockFolder)
        #expect(try configuration.decisionModel() == .stock)
        #expect(configuration.usesPackagedModel)

        let adapted = try #require(RecognizerConfiguration.adaptedAcousticModel)
        #expect(adapted.hasSuffix("/models/en-us-flightvoice"))
        var selected = RecognizerConfiguration()
        selected.selectModel(folder: adapted)
        let model = try #require(try selected.decisionModel())
        #expect(model == (try DecisionModel(contentsOf: URL(fileURLWithPath: adapted).appendingPathComponent(DecisionModel.fileName))))
        #expect(model != .stock)
        #expect(selected.usesPackagedModel)
    }

    @Test("Debian's stock model, selected by its package folder or its acoustic model folder, decides with the stock coefficients")
    func stockKeepsItsCoefficients() throws {
        for folder in [RecognizerConfiguration.debianModelFolder, Self.stockFolder] {
            var configuration = RecognizerConfiguration()
            configuration.selectModel(folder: folder)
            #expect(configuration.acousticModel == Self.stockFolder)
            #expect(try configuration.decisionModel() == .stock)
        }
    }

    @Test("a model folder without coefficients of its own is refused, naming the file; the hand thresholds still decide on it")
    func foreignModelWithoutCoefficients() throws {
        let folder = try Self.foreignModel()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = RecognizerConfiguration()
        configuration.selectModel(folder: folder.path)
        #expect(!configuration.usesPackagedModel)
        #expect {
            _ = try configuration.decisionModel()
        } throws: { error in
            "\(error)".contains(folder.path) && "\(error)".contains(DecisionModel.fileName) && "\(error)".contains("--hand-thresholds")
        }
        configuration.selectHandThresholds()
        #expect(try configuration.decisionModel() == nil)
    }

    @Test("a model folder's own coefficients are read from its file, its neural check with them")
    func foreignModelWithCoefficients() throws {
        var expected = DecisionModel.stock
        let check = try #require(expected.neuralCheck)
        let asking = DecisionModel.NeuralCheck(probability: check.probability, acceptProbability: check.acceptProbability, disputeProbability: 0.6,
                                               belowFloorProbability: 0.97, offListMargin: check.offListMargin, asksOverRunnerUp: true,
                                               overRunnerUpProbability: 0.93, prompt: check.prompt, model: check.model)
        expected = DecisionModel(inputNames: expected.inputNames, means: expected.means, scales: expected.scales,
                                 weights: expected.weights.map { $0 / 2 }, intercept: 0.25, acceptProbability: 0.9, confirmProbability: 0.4,
                                 neuralCheck: asking)
        let folder = try Self.foreignModel(decisionFile: String(decoding: try JSONEncoder().encode(expected), as: UTF8.self))
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = RecognizerConfiguration()
        configuration.selectModel(folder: folder.path)
        #expect(try configuration.decisionModel() == expected)
    }

    @Test("a neural check whose probability below the floor is not a probability is refused")
    func badNeuralCheckProbability() throws {
        let stock = DecisionModel.stock, check = try #require(stock.neuralCheck)
        let outside = DecisionModel.NeuralCheck(probability: check.probability, acceptProbability: check.acceptProbability,
                                                belowFloorProbability: 1.5, offListMargin: check.offListMargin, model: check.model)
        let model = DecisionModel(inputNames: stock.inputNames, means: stock.means, scales: stock.scales, weights: stock.weights,
                                  intercept: stock.intercept, acceptProbability: stock.acceptProbability,
                                  confirmProbability: stock.confirmProbability, neuralCheck: outside)
        let folder = try Self.foreignModel(decisionFile: String(decoding: try JSONEncoder().encode(model), as: UTF8.self))
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try DecisionModel.belonging(toAcousticModel: folder.path)
        } throws: { error in
            "\(error)".contains("1.5") && "\(error)".contains("not between 0 and 1")
        }
    }

    @Test("a coefficients file that is not a model for these inputs is refused with what is wrong",
          arguments: [("not json", "is not a decision model"),
                      (#"{"inputNames": ["flight_fit"], "means": [0], "scales": [1], "weights": [1], "intercept": 0, "acceptProbability": 0.9, "confirmProbability": 0.5}"#,
                       "not this recognizer's")])
    func badCoefficients(content: String, problem: String) throws {
        let folder = try Self.foreignModel(decisionFile: content)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            _ = try DecisionModel.belonging(toAcousticModel: folder.path)
        } throws: { error in
            "\(error)".contains(DecisionModel.fileName) && "\(error)".contains(problem)
        }
    }
}
