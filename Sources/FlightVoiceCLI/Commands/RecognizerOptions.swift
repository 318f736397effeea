import Recognizer

/// The speech-model options of `recognize` and `eval`.
enum RecognizerOptions {
    static let model = OptionSpec.value("--model", valueName: "DIR", help: "Acoustic model folder (default: Debian's pocketsphinx-en-us).")
    static let dictionary = OptionSpec.value("--dict", valueName: "FILE", help: "Pronunciation dictionary (default: cmudict-en-us.dict beside the model).")
    static let handThresholds = OptionSpec.flag("--hand-thresholds", help: "Decide on the hand-set fit-score thresholds instead of the calibrated decision model.")
    static let verbose = OptionSpec.flag("--verbose", "-v", help: "Show the speech library's own log on standard error.")

    /// The configuration these options describe; a missing or unloadable model is exit 69 with its path.
    static func configuration(_ arguments: ParsedArguments) throws -> RecognizerConfiguration {
        var configuration = RecognizerConfiguration()
        if let model = arguments.value("model") { configuration.acousticModel = model }
        if let dictionary = arguments.value("dict") { configuration.dictionary = dictionary }
        configuration.verbose = arguments.has("verbose")
        if arguments.has("hand-thresholds") { configuration.decisionModel = nil }
        do {
            try configuration.validate()
        } catch {
            throw CommandFailure(message: String(describing: error), exitCode: .unavailable)
        }
        try ModelProbe.check(configuration)
        return configuration
    }
}
