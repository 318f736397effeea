import Foundation

/// Where the models are, how wide the decoder searches and where the decision thresholds lie.
///
/// Every number the recognizer uses is a named, documented field here. Defaults suit Debian's `pocketsphinx-en-us`.
public struct RecognizerConfiguration: Sendable {
    /// Debian's model folder (`pocketsphinx-en-us`): the stock acoustic model in `en-us/`, the dictionary, the phone LM.
    public static let debianModelFolder = "/usr/share/pocketsphinx/model/en-us"
    /// Debian's stock acoustic model (`--model /usr/share/pocketsphinx/model/en-us`).
    public static let stockAcousticModel = debianModelFolder + "/en-us"
    /// Folder name of FlightVoice's adapted acoustic model (`models/en-us-flightvoice`, `make adapted-model`).
    public static let adaptedModelName = "en-us-flightvoice"
    /// The adapted acoustic model (`--model adapted`): `models/en-us-flightvoice` beside the executable, in
    /// `../share/flightvoice/models/` next to it (an installed binary), or in the source tree it was built from (`make
    /// run`, `make test`, `.build/release/flightvoice`); nil when none of these holds one.
    public static let adaptedAcousticModel: String? = bundledModel(named: adaptedModelName, holding: ["mdef"])

    /// Folder name of the neural acoustic model's weights (`models/whisper-tiny.en`, `make neural-model`).
    public static let neuralModelName = "whisper-tiny.en"
    /// The neural acoustic model (Whisper tiny.en in CTranslate2's format), found as `adaptedAcousticModel` is; nil when
    /// none of those places holds one (its weights are a build input: `make neural-model`).
    public static let bundledNeuralModel: String? = bundledModel(named: neuralModelName, holding: neuralModelFiles)
    /// The files the neural model's folder holds (`scripts/neural-model/fetch-whisper-model.sh` unpacks them).
    public static let neuralModelFiles = ["model.bin", "config.json", "tokenizer.json", "vocabulary.txt"]
    /// Folder name of the tuned decoder: Whisper tiny.en's decoder fine-tuned on FlightVoice's training voices, as a
    /// low-rank change to the neural model's weights (`models/whisper-tiny.en-flightvoice`, in the repository).
    public static let tunedDecoderName = "whisper-tiny.en-flightvoice"
    /// The tuned decoder's file in that folder (`scripts/neural-model/export-decoder-adaptation.py` writes it).
    public static let tunedDecoderFileName = "decoder-adaptation.bin"
    /// The tuned decoder's file, found as `adaptedAcousticModel` is; nil when none of those places holds one.
    public static let bundledTunedDecoder: String? = bundledModel(named: tunedDecoderName, holding: [tunedDecoderFileName])
        .map { $0 + "/" + tunedDecoderFileName }

    /// The folder `name` that holds every one of `files`: in `models/` beside the executable, in `../share/flightvoice/models/` next
    /// to it (an installed binary), or in the source tree it was built from (`make run`, `make test`,
    /// `.build/release/flightvoice`); nil when none of these holds one.
    public static func bundledModel(named name: String, holding files: [String]) -> String? {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let beside = executable.deletingLastPathComponent()
            folders += [beside.appendingPathComponent("models"),
                        beside.deletingLastPathComponent().appendingPathComponent("share/flightvoice/models")]
        }
        // Sources/Recognizer/RecognizerConfiguration.swift → the repository's models/.
        folders.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("models"))
        return folders.map { $0.appendingPathComponent(name).standardizedFileURL.path }
            .first { folder in files.allSatisfy { FileManager.default.fileExists(atPath: folder + "/" + $0) } }
    }

    /// The acoustic model used unless another is chosen: Debian's stock model. The adapted one hears more flights and,
    /// with the stock model's second opinion, answers more of the corpus, but not more of the people and voices held out
    /// from every choice (human check 48.4% against 50.0%, flite 65.6% against 70.2%; docs/accuracy-and-decisions.md, "Each model with its own
    /// decision"), so it is selected, not the default; telephone audio goes to it (`telephoneAcousticModel`).
    public static let defaultAcousticModel = stockAcousticModel

    /// Folder of the acoustic model (holds `mdef`, `means`, `feat.params`, …).
    public var acousticModel: String
    /// Pronunciation dictionary (CMU format, lower-case words).
    public var dictionary: String
    /// Phone language model for the free phone loop that confidence compares against.
    public var phoneLanguageModel: String

    /// HMM state beam (`-beam`) of today's grammar: wider keeps more paths alive. The library's default (1e-48) lost
    /// noisy utterances; 1e-60 is what the decision model was fitted at (0.19 s of CPU per second of audio on our
    /// development clips). `selectHandThresholds()` widens it to 1e-80 (0.40 s), where the hand thresholds were chosen
    /// (see TECH-NOTES): they refuse much at narrower beams (the bundled "L X forty" became a "did you mean").
    public var beam: Double = 1e-60
    /// Phone-exit beam (`-pbeam`) of today's grammar.
    public var phoneBeam: Double = 1e-60
    /// Word-exit beam (`-wbeam`) of today's grammar: with the library's default 7e-29 many noisy utterances never reach
    /// the grammar's end.
    public var wordBeam: Double = 1e-45

    /// Weight of the grammar's transition probabilities against acoustic scores (`-lw`). The grammar splits
    /// probability evenly among alternatives, so a heavy weight favours paths through rules with few choices.
    public var languageWeight: Double = 6.5
    /// Word insertion penalty (`-wip`).
    public var wordInsertionPenalty: Double = 0.65
    /// Probability of a pause between two words (`-silprob`), in every grammar pass; the library's default. With the
    /// language weight it costs ln(0.005) × 6.5 ≈ −34 per pause, so a decode stretches words over short gaps rather
    /// than pause. At 0.1 more flights are heard right, but the decision fitted here answers no more of them at the
    /// same share of wrong flights (`eval --silence-probability`; docs/experiments.md).
    public var silenceProbability: Double = 0.005

    /// Gaussians scored per codebook and frame (`-topn`; 4 is the library's default). More is not simply better.
    /// Measured at 16 with thresholds chosen again: our devset's clean clips went from 56% to 64% exact and its
    /// telephone-band ones from 21% to 27%, but the corpus lost 2.6 points of exact answers in noise, a no-flight
    /// sentence got a flight, and at every value from 6 to 16 the bundled "L X forty" was heard by both grammars as
    /// "l x four three" and answered LX 43. Decode time rises by about a quarter at 16.
    public var topGaussians: Int = 4

    /// Sample rate the acoustic model expects, in Hz; audio must arrive at this rate.
    public var sampleRate: Int = 16_000
    /// Samples fed to the decoder per step while streaming (64 ms at 16 kHz); callers may pass any chunk size.
    public var streamingStepSamples: Int = 1024
    /// Longest streamed utterance kept, in seconds; later audio is ignored (the kiosk endpoints long before). Whole clips
    /// given to `recognize` are decoded entirely, whatever their length.
    public var maximumUtteranceSeconds: Double = 30

    /// Beams of the second pass against `OpenFlightGrammar` (HMM, phone exit, word exit): the library's defaults.
    /// That pass only has to find a competitor, not save noisy utterances: at these beams it costs about a fifth of
    /// the first pass and separates right from wrong answers as well as with the wide beams, which cost half.
    public var openGrammarBeams: (hmm: Double, phone: Double, word: Double) = (1e-48, 1e-48, 7e-29)
    /// Beams of the streaming pass (HMM, phone exit, word exit): the library's defaults (see `streamingArguments`).
    public var streamingBeams: (hmm: Double, phone: Double, word: Double) = (1e-48, 1e-48, 7e-29)
    /// How many frames' weight the cepstral mean of the utterances the streaming pass heard before has against the
    /// utterance's own frames, whose running mean the pass normalizes with from one step to the next
    /// (`PocketSphinxDecoder.followRunningMean`; a fresh decoder starts from the utterance's own). Fed piecewise, the
    /// library keeps the mean it starts an utterance with for several seconds (it moves it once 800 frames have
    /// gathered, the old mean counting as 500), and a fresh decoder starts from the model's `-cmninit`: a query 30 dB
    /// quieter than our recordings streamed as "u" instead of "l x forty" (tested), and on 14 clean dev clips the
    /// streaming hypothesis at the candidate end named the flight the final decode heard on 3, against 7 following the
    /// running mean (at a weight of 100). The final answer does not come from this pass; what it shows and the rival
    /// it predicts (`LiveConfiguration.predictsRival`) do: that rival was right on 12 of 24 dev clips (`bench-live`),
    /// against 8 (11 at a weight of 200).
    public var streamingMeanPriorFrames = 50

    /// Beams of the free phone loop (HMM, phone exit, word exit): wide, as it was always decoded. Narrowing them saves
    /// nothing: at the library's defaults (1e-48, 1e-48, 7e-29) every corpus clip got the same features and the same
    /// answer, and the CPU did not move (callgrind, 4 corpus clips through all passes: 12.91 G instructions against
    /// 12.98 G); from 1e-30 the scores move.
    public var phoneLoopBeams: (hmm: Double, phone: Double, word: Double) = (1e-80, 1e-80, 1e-60)

    /// Beams of the rival pass (today's grammar less the flight heard): the open grammar's (0.10 s of CPU per audio second
    /// against 0.46 at today's wide beams). Narrower beams leave fewer senones active, and the library scores each frame
    /// against the best active one, so the margin reads lower (often negative); the decision model is fitted on that
    /// scale. `selectHandThresholds()` decodes it at today's grammar's wide beams, the scale the thresholds' rival share
    /// was chosen on.
    public var rivalBeams: (hmm: Double, phone: Double, word: Double) = (1e-48, 1e-48, 7e-29)

    /// Run the phone-loop and open-grammar decodes on a second thread while the main decode runs: a single
    /// utterance is answered sooner (the kiosk, the service); a batch that already keeps every core busy gains nothing.
    public var concurrentPasses: Bool = true

    /// Decode the rival (today's grammar less the flight heard), and with another acoustic model than
    /// `secondOpinionModel` its second opinion, for every utterance heard as a flight, not only where they can change the
    /// decision: for measuring (`eval --rival`). Decisions stay the same; decoding takes longer.
    public var alwaysReadsRival: Bool = false

    /// The acoustic model whose reading of today's grammar is the second opinion (`DecisionModel.agreementProbability`):
    /// Debian's stock model, trained on other speech than an adapted model's adaptation set, so the two seldom agree on the
    /// same wrong flight. Not read when it is the acoustic model itself.
    public var secondOpinionModel: String = Self.stockAcousticModel

    /// How many distinct n-best hypotheses to read; 0 skips n-best. In this library version building the grammar
    /// search's lattice is the cost: seconds per clip with these beams, and still 0.9–3.3 s for a noisy 2.5 s clip
    /// from a second pass at the library's default beams (posterior pruning only runs once the lattice is built).
    public var nbestLimit: Int = 0
    /// How many n-best entries to visit at most (the iterator repeats entries).
    public var nbestVisitLimit: Int = 60

    /// How a spoken answer is decided: by default the calibrated decision model fitted on this acoustic model's decodes.
    public var decisionRule: DecisionRule = .acousticModelsOwn

    /// The acoustic model telephone audio (`AudioBand.telephone`: recorded at 8 kHz, or nothing above 4 kHz) is decoded
    /// with, decided on with that model's own decision; nil: as any other audio. By default FlightVoice's adapted
    /// model, whose adaptation audio held 8 kHz copies: Debian's stock model was trained on wideband speech only and
    /// hears an empty band above 4 kHz as a mismatch (docs/accuracy-and-decisions.md, "Telephone audio").
    public var telephoneAcousticModel: String? = Self.adaptedAcousticModel

    /// A second acoustic model whose own decision on the same audio (all its passes, decided by its own decision model)
    /// is asked where this model's decision model has a cross-check (`DecisionModel.crossCheck`, chosen for FlightVoice's
    /// adapted model as the second); nil, or the acoustic model itself: none. None by default: the adapted model hears
    /// flights the stock model doubts, and where both hear the same one it is seldom wrong, but its whole decode on the
    /// doubtful utterances costs about a quarter more CPU, past the batch speed limit (docs/accuracy-and-decisions.md, "A second model's decision").
    public var crossCheckModel: String?

    /// Folder of the neural acoustic model (Whisper tiny.en: `model.bin`, `tokenizer.json`), asked where this model's
    /// decision model has a neural check (`DecisionModel.neuralCheck`: where the decision doubts, and wherever it answers,
    /// to dispute the answer) or when measuring (`alwaysReadsNeural`); nil: never asked. The commands set it from their
    /// `neural-check` setting, on by default: on voices held out of every choice the check answers far more queries
    /// right with no more wrong flights (corpus 54.5% → 85.5% with 4 → 1 wrong, human check 54.0% → 81.0% with 2
    /// either way; docs/accuracy-and-decisions.md, "The neural check").
    public var neuralModel: String?
    /// The tuned decoder's file (`bundledTunedDecoder`), applied to the neural model's decoder for a second reading of
    /// the same audio where the neural check's model reads it (`NeuralDecisionModel.readsTunedDecoder`) or when measuring
    /// (`alwaysReadsNeural`); nil: none.
    public var neuralDecoderAdaptation: String? = bundledTunedDecoder
    /// How the neural pass listens: its encoder window, its beam over today's candidates, its free decode.
    public var neuralPass = NeuralPassConfiguration()
    /// Runs the neural pass on every utterance heard, whatever the decision (for measuring it: `eval --neural`).
    public var alwaysReadsNeural: Bool = false

    /// This configuration for the one recognizer of a process that listens live (the kiosk, `listen`, `bench-live`):
    /// the neural pass's large matrix products may use every core and its two decoders read side by side: the traveller
    /// is waiting for it, and once the live decode's other passes are done, the second core is free.
    public var listeningAlone: RecognizerConfiguration {
        var alone = self
        alone.neuralPass.blasThreadCount = max(1, ProcessInfo.processInfo.activeProcessorCount)
        alone.neuralPass.readsDecodersConcurrently = ProcessInfo.processInfo.activeProcessorCount > 1
        return alone
    }

    /// The configuration of the cross-check: this one with `crossCheckModel`, its own decision, and none of the
    /// extras that decide nothing there (telephone routing, a cross-check of its own, a second opinion); nil when
    /// there is no cross-check model, it is the acoustic model, or the hand thresholds decide.
    public var crossCheckConfiguration: RecognizerConfiguration? {
        guard let crossCheckModel, decisionRule != .handThresholds, !Self.sameFolder(crossCheckModel, acousticModel) else { return nil }
        var other = self
        other.acousticModel = crossCheckModel
        other.decisionRule = .acousticModelsOwn
        other.telephoneAcousticModel = nil
        other.crossCheckModel = nil
        other.secondOpinionModel = crossCheckModel
        other.neuralModel = nil
        other.neuralDecoderAdaptation = nil
        return other
    }

    /// The configuration telephone audio is decoded with: this one with `telephoneAcousticModel` and that model's own
    /// decision; nil when telephone audio is decoded like any other (no telephone model, it is the acoustic model
    /// already with the same decision, or the hand thresholds decide).
    public var telephoneConfiguration: RecognizerConfiguration? {
        guard let telephoneAcousticModel, decisionRule != .handThresholds,
              !Self.sameFolder(telephoneAcousticModel, acousticModel) else { return nil }
        var telephone = self
        telephone.acousticModel = telephoneAcousticModel
        telephone.decisionRule = .acousticModelsOwn
        telephone.telephoneAcousticModel = nil
        telephone.crossCheckModel = nil
        return telephone
    }

    /// The calibrated decision model decided on (see `DecisionModel`), nil for the hand-set `thresholds`; throws
    /// `RecognizerError` when the acoustic model has none of its own (`DecisionRule.acousticModelsOwn`).
    public func decisionModel() throws -> DecisionModel? {
        switch decisionRule {
        case .acousticModelsOwn: try DecisionModel.belonging(toAcousticModel: acousticModel)
        case .model(let model): model
        case .handThresholds: nil
        }
    }

    /// Decides on the hand-set thresholds instead of the decision model, at the wide beams they were chosen at.
    public mutating func selectHandThresholds() {
        (beam, phoneBeam, wordBeam) = (1e-80, 1e-80, 1e-60)
        rivalBeams = (beam, phoneBeam, wordBeam)
        decisionRule = .handThresholds
    }

    /// Decision thresholds (and what the fit score is made of).
    public var thresholds = RecognitionThresholds()

    /// RMS level (dBFS) of the faint deterministic noise added before decoding so digital silence cannot skew
    /// cepstral normalization (see `NoiseFloor`); nil adds none.
    public var noiseFloorLevel: Double? = -70

    /// Audio more than this many dB below the loudest 100 ms of a clip counts as quiet, and long quiet stretches are not
    /// decoded in full (`quietKeptAtEdgesSeconds`, `quietKeptInPausesSeconds`). The decoder normalizes cepstra by their
    /// mean over the utterance, and seconds of near-silence pull that mean away from the speech: the same words padded
    /// with 1–3 s of quiet were heard as other words, and "L X" and "forty" 2.5 s apart as "l x triple three". Weak
    /// consonants lie within about 35 dB of a syllable's peak; room noise in a recording with any noise to speak of lies
    /// within 40 dB of it, so noisy audio is decoded whole.
    public var quietBelowLoudest: Double = 40
    /// Quiet kept before the first and after the last sounding part, in seconds: the decoder's silence model needs some,
    /// and the weakest sounds at a word's edges (an "f", an "h") must not be cut.
    public var quietKeptAtEdgesSeconds: Double = 0.5
    /// Quiet kept on each side of a pause between sounding parts, in seconds: a longer pause is shortened to twice this.
    /// Pauses up to half a second left the fit of a query unchanged; one second already cost a third of its confidence.
    public var quietKeptInPausesSeconds: Double = 0.25

    /// Audio whose loudest 100 ms is quieter than this (dBFS) is amplified to it before the noise floor is added; nil
    /// leaves the level alone. The floor is fixed, so a quietly recorded query would otherwise sit in a floor of our
    /// own making: "L X forty" recorded 35 dB down measured as noisy and became a "did you mean". No corpus clip is that
    /// quiet (the quietest peaks at -23 dBFS); of the devset's 1410, 82 are, nearly all noisy mixes (sox's mixer
    /// halves each input), by at most 7 dB.
    public var quietRecordingLevel: Double? = -25

    /// Applied to the samples before decoding (denoising, gain); identity by default. `NoiseSuppressor` makes the
    /// denoisers (`--denoise`); none is the default because each cost right answers in noise on our dev split (docs/experiments.md, "Noise suppression").
    public var preprocessor: any AudioPreprocessor = IdentityPreprocessor()

    /// Further decoder arguments, name and value ("-remove_noise", "no"), applied last; for experiments.
    public var additionalArguments: [String: String] = [:]

    /// Echo the library's log to standard error (it is silenced otherwise).
    public var verbose: Bool = false

    /// Configuration with the default acoustic model (`defaultAcousticModel`) and Debian's dictionary and phone LM.
    public init() {
        self.init(modelFolder: Self.debianModelFolder)
        acousticModel = Self.defaultAcousticModel
    }

    /// Configuration with the models under `modelFolder` (a folder with `en-us/`, the dictionary and the phone LM, as
    /// Debian's `debianModelFolder` holds the stock model).
    public init(modelFolder: String) {
        acousticModel = modelFolder + "/en-us"
        dictionary = modelFolder + "/cmudict-en-us.dict"
        phoneLanguageModel = modelFolder + "/en-us-phone.lm.bin"
    }

    /// Selects the acoustic model in `folder` (the CLI's `--model DIR`): an acoustic model folder itself, or a folder
    /// laid out as Debian's (`en-us/` beside the dictionary and the phone LM), whose dictionary and phone LM are then used
    /// too unless `keepDictionary`.
    public mutating func selectModel(folder: String, keepDictionary: Bool = false) {
        let nested = folder + "/en-us"
        guard !FileManager.default.fileExists(atPath: folder + "/mdef"), FileManager.default.fileExists(atPath: nested + "/mdef") else {
            acousticModel = folder
            return
        }
        acousticModel = nested
        if !keepDictionary, FileManager.default.fileExists(atPath: folder + "/cmudict-en-us.dict") { dictionary = folder + "/cmudict-en-us.dict" }
        if FileManager.default.fileExists(atPath: folder + "/en-us-phone.lm.bin") { phoneLanguageModel = folder + "/en-us-phone.lm.bin" }
    }

    /// Configuration with each model file given explicitly (the CLI's `--model DIR`, `--dict FILE`).
    public init(acousticModel: String, dictionary: String, phoneLanguageModel: String) {
        self.acousticModel = acousticModel
        self.dictionary = dictionary
        self.phoneLanguageModel = phoneLanguageModel
    }

    /// Throws a clear error naming the first missing model file or folder.
    public func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: acousticModel, isDirectory: &isFolder), isFolder.boolValue else {
            throw RecognizerError(operation: "load acoustic model", context: "no acoustic model folder at \(acousticModel); pass --model DIR or install pocketsphinx-en-us")
        }
        // The library exits the process on a broken model, so check what it will open first.
        for file in ["mdef", "means", "variances", "transition_matrices"] where !FileManager.default.fileExists(atPath: acousticModel + "/" + file) {
            throw RecognizerError(operation: "load acoustic model", context: "\(acousticModel) has no '\(file)': not a PocketSphinx acoustic model folder")
        }
        guard FileManager.default.fileExists(atPath: dictionary) else {
            throw RecognizerError(operation: "load dictionary", context: "no pronunciation dictionary at \(dictionary); pass --dict FILE")
        }
        guard FileManager.default.fileExists(atPath: phoneLanguageModel) else {
            throw RecognizerError(operation: "load phone language model", context: "no phone language model at \(phoneLanguageModel)")
        }
    }

    /// Decoder arguments of today's grammar (the whole-utterance and the live pass).
    var commonArguments: [(String, String)] {
        arguments(beams: (beam, phoneBeam, wordBeam))
    }

    /// Decoder arguments of the second opinion: today's grammar's, with `secondOpinionModel`.
    var secondOpinionArguments: [(String, String)] {
        commonArguments.map { $0.0 == "-hmm" ? ("-hmm", secondOpinionModel) : $0 }
    }

    /// True when the second opinion is another model than the one decoding.
    var hasSecondOpinion: Bool {
        !Self.sameFolder(secondOpinionModel, acousticModel)
    }

    /// True when two paths name the same folder.
    static func sameFolder(_ a: String, _ b: String) -> Bool {
        URL(fileURLWithPath: a).resolvingSymlinksInPath().standardizedFileURL
            == URL(fileURLWithPath: b).resolvingSymlinksInPath().standardizedFileURL
    }

    /// Decoder arguments of the phone-loop pass.
    var phoneLoopArguments: [(String, String)] {
        arguments(beams: phoneLoopBeams) + [("-allphone", phoneLanguageModel), ("-allphone_ci", "yes")]
    }

    /// Decoder arguments of the rival pass.
    var rivalArguments: [(String, String)] {
        arguments(beams: rivalBeams)
    }

    /// Decoder arguments of the streaming pass, which only shows partial words and tells the endpointer when a whole
    /// flight has been said: the library's default beams. At the final decode's wide beams a second of noise (a cough
    /// next to the microphone) took the live decoder several seconds, longer than the audio.
    var streamingArguments: [(String, String)] {
        arguments(beams: streamingBeams)
    }

    /// Decoder arguments of the open-grammar pass.
    var openGrammarArguments: [(String, String)] {
        arguments(beams: openGrammarBeams)
    }

    private func arguments(beams: (hmm: Double, phone: Double, word: Double)) -> [(String, String)] {
        [("-hmm", acousticModel), ("-dict", dictionary), ("-samprate", String(sampleRate)),
         ("-beam", "\(beams.hmm)"), ("-pbeam", "\(beams.phone)"), ("-wbeam", "\(beams.word)"),
         ("-lw", "\(languageWeight)"), ("-wip", "\(wordInsertionPenalty)"), ("-silprob", "\(silenceProbability)"),
         ("-topn", "\(topGaussians)"),
         ("-remove_silence", "no")]
            + additionalArguments.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

/// Where the recognizer accepts, asks to confirm or rejects.
///
/// The measure is the *fit score* of the words that name the flight (airline and number), per frame, in the decoder's
/// scaled log base. It adds comparisons of today's grammar path with other decodes of the same frames:
/// - against a free phone loop, averaged over the flight words (`RecognitionResult.flightWordsRatio`): does the audio
///   sound like these words at all? Noise and out-of-domain speech fit a phone loop far better than forced words.
/// - against the open grammar of any flight-number shape, for the worst flight word (`OpenGrammarReading.fitDifference`):
///   did today's flight win on the audio, or only because the grammar allowed nothing closer?
/// Both are log-likelihood differences per frame, so they are added with weight `openGrammarWeight` = 1, not fitted.
/// From that sum it subtracts what the flight words' hurried pace costs (`squeezePenalty(framesPerPhone:)`), and adds
/// the lead over the nearest of today's other flights (`rivalShare(margin:)`): a wrong flight is usually one of several
/// near misses of what was said, which the other comparisons cannot see, as their readings need not be today's flights.
/// 0 means a perfect fit; more negative is worse. The thresholds were chosen on synthetic clips made by
/// `make-devset.py`: the espeak-ng part (eleven voices and variants not used elsewhere, pink noise and babble at
/// 20/10/5 dB, out-of-domain sentences, noise alone; 730 clips) and its queries for flights that do not fly today
/// (200 clips), keeping its flite-voiced part (500 clips) apart to check them on. On the espeak-ng clips the phone loop
/// alone separated right from wrong flights with an area under the ROC curve of 0.78, the two comparisons together with
/// 0.85, with the pace term 0.88 and with the rival's lead 0.90. In each band of estimated signal-to-noise ratio the
/// accept threshold is the loosest value at which at most 5% of that band's clips got a wrong flight; the reject
/// threshold the highest below which at most one answer in ten named the right flight. Against the thresholds before
/// the rival's lead, on those clips: right answers from 348 to 351 of 730 and wrong flights from 34 to 28; for flights
/// not flying today wrong flights from 23 to 17 of 200. The lead's weight and cap (8, up to 3) come from a grid (weight
/// 4 to 24, cap 1 to 5): among the pairs that answered none of the no-flight sentences and came within 1% of the most
/// right answers on those 930 clips (535 to 540), the one whose lead can add the least (24). The less the lead can lift
/// a poor fit, the less it lifts speech that names no flight or names one that does not fly today: forced onto a short
/// flight, such speech is often far from every other one: with the pair that can add 40, the bundled sample "where is
/// the exit" (heard as "where is L X eight") and the fixture "B A two eight seven" among only LX 287 and LX 40 were
/// answered with a flight. `choose-thresholds.py` (beside `make-devset.py`) reads the thresholds off `flightvoice eval --rival --features` output. Above the reject
/// threshold, a flight is also accepted when the open grammar read exactly the same flight (on those clips: 4 more
/// right answers, no wrong one). Above the accept threshold, speech-loud audio outside the words heard still makes the
/// answer a confirmation (`unexplainedSpeechSeconds`).
public struct RecognitionThresholds: Sendable, Hashable {
    /// Weight of the open-grammar fit difference in the fit score.
    public var openGrammarWeight: Double = 1
    /// Fit score at or above which a flight is accepted without asking.
    public var acceptScore: Double = -57.5
    /// Accept threshold for clean audio (estimated SNR at or above `cleanSignal`): clean audio tolerates a looser fit,
    /// because there the grammar's forced path fits noise far worse than speech.
    public var acceptScoreClean: Double = -59
    /// Estimated SNR (dB) from which audio counts as clean.
    public var cleanSignal: Double = 30

    /// The accept threshold for audio with the estimated signal-to-noise ratio (dB); `acceptScore` when unknown.
    public func acceptScore(signalToNoise: Double?) -> Double {
        guard let signalToNoise, signalToNoise >= cleanSignal else { return acceptScore }
        return acceptScoreClean
    }

    /// Fit score, without the rival margin's share, below which the utterance is rejected; between reject and accept
    /// the traveller is asked to confirm.
    /// Below it, fewer than one development clip in ten named the right flight: asking would mostly offer a wrong one.
    public var rejectScore: Double = -89.6
    /// Score units per e-fold of the logistic confidence around the accept threshold (larger is flatter).
    public var confidenceScale: Double = 10
    /// N-best alternatives whose path score is within this much (log base, whole utterance) of the best and that read as
    /// a different flight make the answer ambiguous: confirm instead of accept (only with `nbestLimit` > 0).
    public var ambiguityMargin: Double = 3000
    /// Speech-loud audio outside the words heard, in seconds, from which a flight is confirmed rather than accepted:
    /// the decoder explained part of what was said as silence or noise, often a digit the grammar had no place for
    /// ("seven seven six" heard as "seven seven"). A syllable is about 0.15 s.
    public var unexplainedSpeechSeconds: Double = 0.15
    /// Pace, in frames (1/100 s) per phone, from which a flight word counts as unhurried. Words the decoder squeezed
    /// below it lose `squeezedWordPenalty` per frame per phone from the fit score, by the fastest flight word: a wrong
    /// flight is usually forced onto audio of other words, and the decoder fits extra or misheard words into too
    /// little time (on the development clips, wrong answers' fastest flight word had a median of 4.7 frames per phone
    /// against 7.5 for right ones). Set at slow, careful speech, so it grades nearly every utterance and rewards none
    /// for being slower still. The HMMs cannot go below 3 frames per phone.
    public var naturalFramesPerPhone: Double = 10
    /// Fit-score units lost per frame per phone below `naturalFramesPerPhone`.
    public var squeezedWordPenalty: Double = 4

    /// Fit-score units per unit of the rival margin (`RivalReading.margin`), which counts up to `rivalMarginCap`.
    public var rivalMarginWeight: Double = 8
    /// The margin beyond which a lead over today's other flights counts no more: a very distinct reading says which
    /// flight, not that one was said, and must not lift a poor fit far.
    public var rivalMarginCap: Double = 3

    /// What a rival margin adds to the fit score (negative when another of today's flights fit better); 0 without one.
    public func rivalShare(margin: Double?) -> Double {
        guard let margin else { return 0 }
        return rivalMarginWeight * min(margin, rivalMarginCap)
    }

    /// The most a rival margin can add.
    public var largestRivalShare: Double { rivalMarginWeight * rivalMarginCap }

    /// What a word at `framesPerPhone` loses from its fit score; 0 when unknown.
    public func squeezePenalty(framesPerPhone: Double?) -> Double {
        guard let framesPerPhone else { return 0 }
        return squeezedWordPenalty * max(0, naturalFramesPerPhone - framesPerPhone)
    }
    /// Frames next to each word that count as the word's own (onsets, releases and the decoder's boundary slack).
    public var wordEdgeFrames: Int = 5
    /// A frame counts as speech when within this many dB of the speech level (the 90th percentile frame)…
    public var unexplainedSpeechBelowSpeech: Double = 10
    /// …and at least this many dB over the noise level (the 10th percentile frame), so noise between words never counts.
    public var unexplainedSpeechAboveNoise: Double = 20
    /// Fewer speech frames than this (1/100 s each) is no speech.
    public var minimumSpeechFrames: Int = 20
    /// Loudest 100 ms window below this level (dBFS) is silence, whatever the decoder says.
    public var silenceLevel: Double = -50

    /// The default thresholds, chosen on synthetic development clips as described above.
    public init() {}
}

extension RecognizerConfiguration {
    /// Loads the acoustic model and dictionary once, as a recognizer will, then frees them; throws `RecognizerError`
    /// when the library refuses them. The library ends the process on some corrupt model files (a garbled `mdef`, a
    /// truncated `transition_matrices`) instead of returning an error, so run this in a child process to check a model
    /// nobody has vouched for.
    public func loadModelOnce() throws {
        try validate()
        _ = try PocketSphinxDecoder(arguments: commonArguments, verbose: verbose)
    }

    /// True when the acoustic model is the Debian package's (which dpkg keeps intact) or the adapted one shipped with
    /// FlightVoice (which its tests load), and the dictionary is the Debian package's.
    public var usesPackagedModel: Bool {
        [Self.stockAcousticModel, Self.adaptedAcousticModel].contains(acousticModel)
            && dictionary == Self.debianModelFolder + "/cmudict-en-us.dict"
    }
}

/// How a spoken answer is decided (`RecognizerConfiguration.decisionRule`).
public enum DecisionRule: Sendable, Hashable {
    /// The calibrated decision model fitted on the acoustic model's own decodes (`DecisionModel.belonging(toAcousticModel:)`):
    /// `decision-model.json` in its folder, or `DecisionModel.stock` for Debian's stock model. A model folder without
    /// one is refused: one model's coefficients do not fit another's scores (the stock coefficients on the adapted
    /// model's decodes answer 2.2% wrong flights on human dev against 0.2% with its own; docs/accuracy-and-decisions.md).
    case acousticModelsOwn
    /// This calibrated decision model, whatever the acoustic model (tests, experiments).
    case model(DecisionModel)
    /// The hand-set `RecognitionThresholds`, at the wide beams they were chosen at (`selectHandThresholds()`): on
    /// held-out people they answered 5.6% wrong flights and some clips that name none (docs/training-and-measurement.md).
    case handThresholds
}
