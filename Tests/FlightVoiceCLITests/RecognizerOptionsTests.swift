import Recognizer
import Testing
@testable import FlightVoiceCLI

/// The neural check follows its setting: asked by default, not with `--no-neural-check` or `neural-check = off`.
@Suite struct RecognizerOptionsTests {
    static func configuration(_ arguments: [String], file text: String = "") throws -> RecognizerConfiguration {
        let parsed = try ParsedArguments.parse(arguments, options: RecognizeCommand.options)
        let file = ConfigurationFile(path: "/etc/fv.conf", origin: .flag, exists: true,
                                     entries: try ConfigurationFile.parse(text, path: "/etc/fv.conf"))
        let settings = try EffectiveSettings.resolve(arguments: parsed, file: file, environment: ["XDG_DATA_HOME": "/data"])
        return try RecognizerOptions.configuration(parsed, settings: settings)
    }

    @Test func theNeuralCheckIsAskedByDefault() throws {
        let on = try Self.configuration([])
        #expect(on.neuralModel != nil && on.neuralModel == RecognizerConfiguration.bundledNeuralModel)
        #expect(try on.decisionModel()?.neuralCheck != nil)
    }

    @Test(arguments: [(["--no-neural-check"], ""), ([], "neural-check = off")])
    func theNeuralCheckCanBeTurnedOff(arguments: [String], file: String) throws {
        let off = try Self.configuration(arguments, file: file)
        #expect(off.neuralModel == nil)
        #expect(try off.decisionModel()?.neuralCheck == nil, "the decision must not wait for a reading it will not get")
        #expect(try off.decisionModel()?.acceptProbability == DecisionModel.stock.acceptProbability)
    }
}
