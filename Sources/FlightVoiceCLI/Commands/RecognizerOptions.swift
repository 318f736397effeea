import Recognizer

/// The speech-model options of `recognize`, `eval`, `listen`, `kiosk`, `serve` and `bench-live`.
enum RecognizerOptions {
    static let model = OptionSpec.value("--model", valueName: "DIR", help: "Acoustic model (setting `model`): `stock` (Debian's, the default), `adapted` (FlightVoice's models/en-us-flightvoice), or a model folder decided on with its own decision-model.json.")
    static let telephoneModel = OptionSpec.value("--telephone-model", valueName: "DIR", help: "Measurement: the acoustic model for telephone audio (recorded at 8 kHz, or nothing above 4 kHz), decided on with its own decision-model.json (default: `adapted`, which answers more 8 kHz clips right on every split; `none`: decode it with --model like any other audio).")
    static let crossCheck = OptionSpec.flag("--cross-check", help: "Where the stock model's decision doubts a flight (p 0.6–0.81), ask FlightVoice's adapted model's own decision on the same audio and answer a flight both hear (adapted p ≥ 0.7): more answers right, no more wrong on held-out voices, about a quarter more CPU (docs/accuracy-and-decisions.md, \"A second model's decision\").")
    static let noNeuralCheck = OptionSpec.flag("--no-neural-check", help: "Do not ask the neural model (Whisper tiny.en, shipped in models/whisper-tiny.en) where the decision doubts, nor check its answers with it (setting `neural-check = off`): the check answers far more queries right in noise and on the telephone (corpus 54.5% → 85.5% right, wrong flights 4 → 1), for about 0.2–0.4 s more CPU per query and a slower live answer (docs/accuracy-and-decisions.md, \"The neural check\").")
    static let dictionary = OptionSpec.value("--dict", valueName: "FILE", help: "Pronunciation dictionary (default: cmudict-en-us.dict beside the model).")
    static let handThresholds = OptionSpec.flag("--hand-thresholds", help: "Measurement: decide on the old hand-set thresholds (at their wide, slower beams) instead of the calibrated decision model's probability (more wrong flights: 5.6% against 0.7% on held-out voices); also decides on a model that has no decision-model.json.")
    static let denoise = OptionSpec.value("--denoise", valueName: "none|speex|spectral|webrtc", help: "Measurement: noise suppression before decoding (each suppressor cost right answers on the dev split and the corpus): none (default), SpeexDSP's preprocessor, our spectral Wiener filter, or WebRTC's suppressor; NAME:KEY=VALUE,... changes a setting (speex: suppress, frame, prime; spectral: floor, smoothing, quiet, overestimate, frame; webrtc: level, prime).")
    /// Options kept for measuring alternatives that lost (figures in docs/experiments.md and docs/accuracy-and-decisions.md): on `eval` only, not on the commands a
    /// user runs.
    static let measurement: [OptionSpec] = [telephoneModel, denoise, handThresholds]
    /// What to tell someone who gives a measurement option, or a removed one, to another command.
    static let movedOptions: [String: String] = [
        "--hand-thresholds": "--hand-thresholds is for measurement now: flightvoice eval --hand-thresholds MANIFEST.tsv",
        "--telephone-model": "--telephone-model is for measurement now: flightvoice eval --telephone-model DIR|none MANIFEST.tsv (telephone audio goes to the adapted model)",
        "--denoise": "--denoise is for measurement now: flightvoice eval --denoise NAME MANIFEST.tsv (every suppressor cost right answers)",
        "--calibrated-decision": "--calibrated-decision is gone: the calibrated decision is the default; leave the option out",
        "--neural-check": "--neural-check is the default now (setting `neural-check = on`); leave the option out, or turn the check off with --no-neural-check",
    ]
    static let verbose = OptionSpec.flag("--verbose", "-v", help: "Show the speech library's own log on standard error.")

    /// The configuration these options describe; a missing or unloadable model is exit 69 with its path.
    static func configuration(_ arguments: ParsedArguments, settings: EffectiveSettings) throws -> RecognizerConfiguration {
        var configuration = RecognizerConfiguration()
        switch settings[.model].value {
        case "stock": break
        case "adapted": configuration.selectModel(folder: try adaptedModel())
        case let folder: configuration.selectModel(folder: folder, keepDictionary: arguments.value("dict") != nil)
        }
        if let dictionary = arguments.value("dict") { configuration.dictionary = dictionary }
        switch arguments.value("telephone-model") {
        case nil: break
        case "none": configuration.telephoneAcousticModel = nil
        case "adapted": configuration.telephoneAcousticModel = try adaptedModel()
        case let folder?: configuration.telephoneAcousticModel = folder
        }
        if arguments.has("cross-check") { configuration.crossCheckModel = try adaptedModel() }
        if settings.asksNeuralCheck || arguments.has("neural") { configuration.neuralModel = try neuralModel() }
        configuration.verbose = arguments.has("verbose")
        if arguments.has("hand-thresholds") { configuration.selectHandThresholds() }
        if let denoise = arguments.value("denoise") {
            let suppressor: NoiseSuppressor
            do {
                suppressor = try NoiseSuppressor(parsing: denoise)
            } catch {
                throw UsageError(message: error.message)
            }
            do {
                configuration.preprocessor = try suppressor.makePreprocessor()
            } catch {
                throw CommandFailure(message: "--denoise \(denoise): \(error)", exitCode: .usage)
            }
        }
        let telephone = configuration.telephoneConfiguration, crossCheck = configuration.crossCheckConfiguration
        for checked in [configuration] + [telephone, crossCheck].compactMap({ $0 }) {
            do {
                try checked.validate()
            } catch {
                throw CommandFailure(message: String(describing: error), exitCode: .unavailable)
            }
            try ModelProbe.check(checked)
        }
        do {
            // Read once here: every recognizer the command builds (one per worker) then decides with this model.
            if let model = try configuration.decisionModel() {
                configuration.decisionRule = .model(settings.asksNeuralCheck ? model : model.withoutNeuralCheck)
            }
            _ = try telephone?.decisionModel()
            _ = try crossCheck?.decisionModel()
        } catch {
            throw CommandFailure(message: String(describing: error), exitCode: .unavailable)
        }
        if case .model(let model) = configuration.decisionRule, model.neuralCheck?.model.readsTunedDecoder == true,
           configuration.neuralDecoderAdaptation == nil {
            throw CommandFailure(message: "the neural check's tuned decoder (models/\(RecognizerConfiguration.tunedDecoderName)/\(RecognizerConfiguration.tunedDecoderFileName)) is neither beside this program, in ../share/flightvoice/models, nor in its source tree; reinstall the package, or turn the neural check off (--no-neural-check, or neural-check = off in the settings file)", exitCode: .unavailable)
        }
        return configuration
    }

    /// FlightVoice's adapted acoustic model; exit 69 when this installation has none.
    private static func adaptedModel() throws -> String {
        guard let adapted = RecognizerConfiguration.adaptedAcousticModel else {
            throw CommandFailure(message: "FlightVoice's adapted acoustic model (models/\(RecognizerConfiguration.adaptedModelName)) is neither beside this program nor in its source tree; pass its folder to --model or --telephone-model, or leave out --cross-check", exitCode: .unavailable)
        }
        return adapted
    }

    private static func neuralModel() throws -> String {
        guard let folder = RecognizerConfiguration.bundledNeuralModel else {
            throw CommandFailure(message: "the neural model (models/\(RecognizerConfiguration.neuralModelName)) is neither beside this program, in ../share/flightvoice/models, nor in its source tree; run make neural-model, or turn the neural check off (--no-neural-check, or neural-check = off in the settings file)", exitCode: .unavailable)
        }
        return folder
    }
}
