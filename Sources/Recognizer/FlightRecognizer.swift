import AudioInput
import FlightCore
import Foundation

/// Recognizes one spoken flight query at a time against today's flights: a synchronous, deterministic core.
///
/// Feed audio with `process(_:)` in chunks of any size (16 kHz mono 16-bit samples) and call `finish()` for the
/// result, or call `recognize(samples:)` for a whole clip. The final result always comes from decoding the whole
/// buffered utterance at once (splitting at pauses destroys accuracy), so chunked and whole-clip decoding agree
/// exactly; while audio streams in, a live pass reports speech start and partial hypotheses.
///
/// The stages: a `PreparedUtterance` → decoding passes (today's grammar, phone loop, open grammar, rival; each a
/// `DecodingPass`) → one `DecisionFeatures` value → a `Decider` → the `RecognitionResult`.
///
/// Thread rule: not `Sendable`; it owns its passes and their PocketSphinx decoders. Use one per thread, or behind
/// `RecognitionService`.
public final class FlightRecognizer {
    /// The configuration it was built with.
    public let configuration: RecognizerConfiguration
    /// The grammar in use (today's flights).
    public private(set) var grammar: FlightGrammar
    /// The vocabulary the grammar was built from.
    public private(set) var vocabulary: FlightVocabulary
    /// Words that were missing from the dictionary and got derived pronunciations, word → phones.
    public private(set) var addedPronunciations: [String: String] = [:]
    /// `addedPronunciations` as they were when today's grammar was installed: every word a rival grammar can hold, read
    /// by the rival predictor while a decode on another thread may add to `addedPronunciations`.
    private var grammarPronunciations: [String: String] = [:]

    /// Decodes each whole utterance with today's grammar.
    private let todaysGrammar: GrammarPass
    /// Decodes audio as it streams in, for events only; created on first use. Kept apart from `todaysGrammar` because
    /// feeding an utterance piecewise switches the library's cepstral normalization to a running estimate that
    /// would carry over into later whole-utterance decodes.
    private var livePass: GrammarPass?
    private let phoneLoop: PhoneLoopPass
    /// Decodes the same utterance against `OpenFlightGrammar` for a second opinion.
    private let openGrammar: OpenGrammarPass
    /// Decodes the same utterance against today's grammar less the flight heard, for its nearest rival; created on
    /// first use, or by `prepareStreaming`.
    private var rivalPass: RivalPass?
    /// For decodes that predict their rival (`decodeSnapshot(_:predictedFlights:)`): the rival decoded for the
    /// predicted flights alongside; created on first use.
    private var rivalPredictor: RivalPredictor?
    /// The last prediction started; it may still run after its decode returned, and its passes wait for it.
    private var runningPrediction: RivalPrediction?
    /// Decodes the same utterance against today's grammar with `RecognizerConfiguration.secondOpinionModel`, where the
    /// decision model asks for a second opinion; created on first use.
    private var secondOpinion: GrammarPass?
    /// True when the second-opinion model is another than the one decoding (else it is never read).
    private let secondOpinionIsAnotherModel: Bool
    /// Decodes telephone audio with `RecognizerConfiguration.telephoneConfiguration`; created on the first such clip.
    private var telephoneRecognizer: FlightRecognizer?
    /// Decodes the same utterance with `RecognizerConfiguration.crossCheckConfiguration` where the decision model asks
    /// for a cross-check; created on first use (or by `prepareStreaming`).
    private var crossCheckRecognizer: FlightRecognizer?
    /// Scores today's flights with the neural model where the decision model asks for a neural check (or when
    /// measuring it everywhere); created on first use.
    private(set) var neuralPass: NeuralPass?
    /// Rivals taken from a prediction so far (for tests).
    private(set) var predictedRivalsUsed = 0
    private let decider: Decider
    private var normalizer: SpokenFlightNormalizer
    private var todaysFlights: Set<FlightNumber>

    // The utterance in progress.
    private var buffered: [Int16] = []
    private var liveFed = 0
    private var liveInSpeech = false
    private var lastPartial = ""
    private var liveFailure: (any Error)?

    /// Loads the models and a grammar of `vocabulary`; throws `RecognizerError` naming a missing model file.
    public init(vocabulary: FlightVocabulary, configuration: RecognizerConfiguration = RecognizerConfiguration()) throws {
        try configuration.validate()
        self.configuration = configuration
        self.vocabulary = vocabulary
        grammar = FlightGrammar(vocabulary: vocabulary)
        normalizer = SpokenFlightNormalizer(airlines: vocabulary.airlines)
        todaysFlights = Set(vocabulary.flights)
        decider = Decider(thresholds: configuration.thresholds, model: try configuration.decisionModel())
        secondOpinionIsAnotherModel = configuration.hasSecondOpinion
        todaysGrammar = GrammarPass(decoder: try PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: configuration.verbose),
                                    nbestLimit: configuration.nbestLimit, nbestVisitLimit: configuration.nbestVisitLimit)
        phoneLoop = PhoneLoopPass(decoder: try PocketSphinxDecoder(arguments: configuration.phoneLoopArguments, verbose: configuration.verbose))
        openGrammar = OpenGrammarPass(decoder: try PocketSphinxDecoder(arguments: configuration.openGrammarArguments, verbose: configuration.verbose))
        try installGrammar()
    }

    /// Loads the models and a grammar of the flights `dataSource` has near `now`.
    public convenience init(dataSource: some FlightsDataSource, near now: Date = Date(),
                            configuration: RecognizerConfiguration = RecognizerConfiguration()) throws {
        try self.init(vocabulary: FlightVocabulary(dataSource: dataSource, near: now), configuration: configuration)
    }

    /// Switches to a new day's flights (a fresh search; the old one is dropped). Discards an utterance in progress.
    public func load(_ vocabulary: FlightVocabulary) throws {
        reset()
        runningPrediction?.wait()
        runningPrediction = nil
        rivalPredictor?.waitUntilIdle()
        self.vocabulary = vocabulary
        grammar = FlightGrammar(vocabulary: vocabulary)
        normalizer = SpokenFlightNormalizer(airlines: vocabulary.airlines)
        todaysFlights = Set(vocabulary.flights)
        try installGrammar()
        try telephoneRecognizer?.load(vocabulary)
        try crossCheckRecognizer?.load(vocabulary)
        // The telephone recognizer has just loaded the pass they share.
        if neuralPass !== telephoneRecognizer?.neuralPass { neuralPass?.load(vocabulary, grammar: grammar) }
    }

    private func installGrammar() throws {
        try todaysGrammar.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &addedPronunciations)
        try livePass?.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &addedPronunciations)
        try secondOpinion?.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &addedPronunciations)
        let open = OpenFlightGrammar(airlines: vocabulary.airlines)
        // The open grammar keeps the library's own automaton: minimized, its search read other words on 44% of human dev
        // clips (today's grammar on 30%), and three spelled names that name no flight rose to be answered (with the
        // decision refitted); as built, the decision's dev figures stayed where they were.
        try openGrammar.utterance.install(open.jsgf, words: open.words, pronunciations: &addedPronunciations, minimized: false)
        grammarPronunciations = addedPronunciations
    }

    /// A new pass over today's grammar as it is now, decoding with `arguments`.
    private func todaysGrammarPass(arguments: [(String, String)]) throws -> GrammarPass {
        let created = GrammarPass(decoder: try PocketSphinxDecoder(arguments: arguments, verbose: configuration.verbose))
        try created.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &addedPronunciations)
        return created
    }

    /// The second-opinion pass, created with the current grammar on first use.
    private func secondOpinionPass() throws -> GrammarPass {
        if let secondOpinion { return secondOpinion }
        let created = try todaysGrammarPass(arguments: configuration.secondOpinionArguments)
        secondOpinion = created
        return created
    }

    /// The cross-check's recognizer, created with the current flights on first use; nil when none is configured.
    private func crossChecker() throws -> FlightRecognizer? {
        if let crossCheckRecognizer { return crossCheckRecognizer }
        guard decider.model?.crossCheck != nil || configuration.alwaysReadsRival,
              let other = configuration.crossCheckConfiguration else { return nil }
        let created = try FlightRecognizer(vocabulary: vocabulary, configuration: other)
        crossCheckRecognizer = created
        return created
    }

    /// The neural pass, created with today's flights on first use; nil when no neural model is configured or nothing
    /// asks for it.
    private func neuralChecker() throws -> NeuralPass? {
        if let neuralPass { return neuralPass }
        guard asksNeuralPass else { return nil }
        return try sharedNeuralPass()
    }

    /// What this recognizer's neural readings are made after: the configured prompt, else its neural check's.
    private var neuralPrompt: String { configuration.neuralPass.prompt ?? decider.model?.neuralCheck?.prompt ?? "" }

    /// True when this recognizer's neural check judges the tuned decoder's reading too, or it reads everything.
    private var readsTunedDecoder: Bool { configuration.alwaysReadsNeural || decider.model?.neuralCheck?.model.readsTunedDecoder == true }

    /// True when this recognizer's decision asks the neural pass, or it reads it on every clip.
    private var asksNeuralPass: Bool { decider.model?.neuralCheck != nil || configuration.alwaysReadsNeural }

    /// This recognizer's neural pass, or the telephone recognizer's, or a new one for both: it reads the audio against
    /// today's flights whichever acoustic model decodes it, so a worker holds Whisper's weights once.
    private func sharedNeuralPass() throws -> NeuralPass? {
        if let shared = neuralPass ?? telephoneRecognizer?.neuralPass {
            neuralPass = shared
            return shared
        }
        guard let folder = configuration.neuralModel else { return nil }
        let created = try NeuralPass(folder: folder, decoderAdaptation: configuration.neuralDecoderAdaptation, vocabulary: vocabulary,
                                     grammar: grammar, configuration: configuration.neuralPass)
        neuralPass = created
        return created
    }

    /// True when some utterance may be decoded by the second-opinion model.
    private var mayAskSecondOpinion: Bool {
        secondOpinionIsAnotherModel && (decider.model?.agreementProbability != nil || configuration.alwaysReadsRival)
    }

    /// The streaming pass, created with the current grammar on first use.
    private func streamingPass() throws -> GrammarPass {
        if let livePass { return livePass }
        let created = try todaysGrammarPass(arguments: configuration.streamingArguments)
        livePass = created
        return created
    }

    /// The streaming pass's decoder, once it exists (for tests).
    var streamingDecoder: PocketSphinxDecoder? { livePass?.utterance.decoder }

    /// Drops the streaming pass, so that the next audio is streamed by a new one, as in a kiosk just switched on,
    /// instead of by one that has heard other audio: for measurements in which each clip must be heard the same whatever
    /// was decoded before it (`eval --live` hands clips to workers as they come free). Restoring the old pass's running
    /// cepstral mean was not enough: after another clip, a dev clip in 10 dB noise still streamed other partial words
    /// and ended on a complete flight 0.6 s earlier; what else its decoder carries over is not known.
    public func restartStreaming() {
        livePass?.utterance.abandon()
        livePass = nil
    }

    // MARK: Streaming

    /// Takes the next chunk of the utterance and reports speech start and changed partial hypotheses.
    public func process(_ samples: ArraySlice<Int16>) -> [RecognitionEvent] {
        let room = maximumSamples - buffered.count
        buffered.append(contentsOf: samples.prefix(max(0, room)))
        guard liveFailure == nil else { return [] }
        var events: [RecognitionEvent] = []
        let step = max(1, configuration.streamingStepSamples)
        do {
            while buffered.count - liveFed >= step {
                let live = try streamingPass()
                if !live.utterance.isInUtterance {
                    try live.begin(feeding: .incremental)
                    live.utterance.decoder.followRunningMean(priorFrames: configuration.streamingMeanPriorFrames)
                }
                try live.feed(buffered[liveFed..<liveFed + step])
                live.utterance.decoder.followRunningMean()
                liveFed += step
                if !liveInSpeech, live.inSpeech {
                    liveInSpeech = true
                    events.append(.speechStarted(at: Double(liveFed - step) / Double(configuration.sampleRate)))
                }
                if let text = live.partialText, !text.isEmpty, text != lastPartial {
                    lastPartial = text
                    events.append(.partial(text))
                }
            }
        } catch {
            liveFailure = error
        }
        return events
    }

    /// Ends the utterance: decodes everything received as one utterance and decides. Ready for the next one after.
    public func finish() throws -> RecognitionResult {
        defer { reset() }
        livePass?.utterance.abandon()
        return try decodeWhole(buffered)
    }

    /// Forgets the utterance in progress.
    public func reset() {
        livePass?.utterance.abandon()
        buffered = []
        liveFed = 0
        liveInSpeech = false
        lastPartial = ""
        liveFailure = nil
    }

    /// Decodes a whole clip (16 kHz mono) as one utterance, however long: recorded clips have no length cap. Telephone
    /// audio (nothing above 4 kHz) goes to the telephone recognizer.
    public func recognize(samples: [Int16]) throws -> RecognitionResult {
        try recognize(samples, band: AudioBand(of: samples, sampleRate: configuration.sampleRate))
    }

    /// Decodes a whole decoded clip as one utterance; a clip recorded at 8 kHz or with nothing above 4 kHz goes to the
    /// telephone recognizer.
    public func recognize(_ clip: AudioClip) throws -> RecognitionResult {
        try recognize(clip.samples, band: AudioBand(of: clip))
    }

    private func recognize(_ samples: [Int16], band: AudioBand) throws -> RecognitionResult {
        let chosen = try recognizer(for: band)
        guard chosen === self else { return try chosen.recognize(samples, band: band) }
        reset()
        return try decodeWhole(samples)
    }

    /// The recognizer that decodes audio of `band`: this one, or for telephone audio the one with the telephone
    /// configuration (created on first use; it follows `load`). The live path listens with one of them throughout.
    public func recognizer(for band: AudioBand) throws -> FlightRecognizer {
        guard band == .telephone else { return self }
        if let telephoneRecognizer { return telephoneRecognizer }
        guard let telephone = configuration.telephoneConfiguration else { return self }
        let created = try FlightRecognizer(vocabulary: vocabulary, configuration: telephone)
        if created.asksNeuralPass { created.neuralPass = try sharedNeuralPass() }
        telephoneRecognizer = created
        return created
    }

    // MARK: Live listening (used by `LiveRecognizer`)

    /// Creates the streaming decoder, the rival predictor's and the second opinion's now, so that `process` and
    /// `prepareRival` never install a grammar or create a decoder while `decodeSnapshot` runs; and readies both rival
    /// decoders for today's grammar (`RivalPass.prepare(for:)`), so that the first query's rival is not slowed by that.
    func prepareStreaming() throws {
        _ = try streamingPass()
        try predictor().prepare(for: grammar, pronunciations: grammarPronunciations)
        try rival().prepare(for: grammar, pronunciations: &addedPronunciations)
        if mayAskSecondOpinion { _ = try secondOpinionPass() }
        _ = try crossChecker()
        _ = try neuralChecker()
    }

    /// Decodes `samples` as one whole utterance without touching the utterance being streamed.
    ///
    /// Thread rule (the one exception to "one thread"): it uses only the whole-utterance decoders (and the rival
    /// prediction's, which its helper thread holds until done) and reads the grammar,
    /// so it may run on one other thread while the owner calls `process`/`reset` — after `prepareStreaming()`, and
    /// never while `load` runs. `LiveRecognizer` keeps to that.
    ///
    /// With `predictedFlights` (what the streaming hypothesis names, `streamingFlights`), the rival excluding them is
    /// decoded on the second core alongside (see `RivalPrediction`): the same result sooner when they are the flights
    /// today's grammar hears. Without a prediction, `rivalBesideComparisons` starts the rival of the flights today's
    /// grammar heard the moment it is done, on another thread, while the phone loop and the open grammar (which
    /// usually take longer) finish: the rival is then ready sooner where the decision wants it, and where it does not,
    /// the decision does not wait for it. `neuralBesideComparisons` likewise starts the neural pass once today's grammar
    /// is done, on a thread below the passes' priority, before the decision says whether it wants the reading
    /// (`NeuralReadAhead`); where it does not, the read is stopped.
    func decodeSnapshot(_ samples: [Int16], predictedFlights: [FlightNumber] = [], rivalBesideComparisons: Bool = false,
                        neuralBesideComparisons: Bool = false,
                        cancellation: DecodeCancellation? = nil) throws -> (result: RecognitionResult, cost: DecodeCost) {
        let cpuBefore = ThreadCPUClock.seconds()
        var cost = DecodeCost(mainCPUSeconds: 0, comparisonsCPUSeconds: 0, predictionCPUSeconds: nil)
        let result = try decodeWhole(samples, predictedFlights: predictedFlights, rivalBesideComparisons: rivalBesideComparisons,
                                     neuralBesideComparisons: neuralBesideComparisons, cancellation: cancellation, cost: &cost)
        cost.mainCPUSeconds = ThreadCPUClock.seconds() - cpuBefore
        return (result, cost)
    }

    /// True when `hypothesis` names one of the flights in today's grammar from airline through number, and its words
    /// do not end inside a longer number of today's (`FlightGrammar.endsInsideNumber`: "l x one five" while LX 154
    /// flies is LX 15 or the start of LX 154).
    func namesCompleteFlight(_ hypothesis: String) -> Bool {
        !grammar.flights(in: hypothesis).isEmpty && !grammar.endsInsideNumber(hypothesis)
    }

    /// The flights of today's grammar that the streaming pass's latest hypothesis names (none before one forms).
    var streamingFlights: [FlightNumber] { grammar.flights(in: lastPartial) }

    /// Today's grammar as the automaton its passes search (`WordGraph.minimized()` of the library's), in the library's
    /// FSG file format: what `pocketsphinx_batch -fsg` reads.
    public func todaysAutomaton() throws -> String {
        guard let graph = try todaysGrammar.utterance.decoder.minimizedGraph(of: grammar.jsgf, name: "today") else {
            throw RecognizerError(operation: "write grammar automaton", context: "today's grammar carries weights")
        }
        return graph.fsgText(name: "today")
    }

    private var maximumSamples: Int { Int(configuration.maximumUtteranceSeconds * Double(configuration.sampleRate)) }

    // MARK: Final decode

    /// Prepares the clip, runs the passes, measures one `DecisionFeatures` value and lets the `Decider` decide.
    private func decodeWhole(_ raw: [Int16]) throws -> RecognitionResult {
        var cost = DecodeCost(mainCPUSeconds: 0, comparisonsCPUSeconds: 0, predictionCPUSeconds: nil)
        return try decodeWhole(raw, predictedFlights: [], cost: &cost)
    }

    /// `decodeWhole`, decoding the rival of `predictedFlights` alongside when there are any (else, with
    /// `rivalBesideComparisons`, that of the flights heard as soon as they are known), reading the neural pass before
    /// the comparisons are in with `neuralBesideComparisons`, stopping between passes once
    /// `cancellation` is cancelled, and noting the helper threads' CPU in `cost`.
    private func decodeWhole(_ raw: [Int16], predictedFlights: [FlightNumber], rivalBesideComparisons: Bool = false,
                             neuralBesideComparisons: Bool = false, cancellation: DecodeCancellation? = nil,
                             cost: inout DecodeCost) throws -> RecognitionResult {
        let clock = ContinuousClock()
        let started = clock.now
        let utterance = PreparedUtterance(raw, configuration: configuration)
        func unheard(_ decision: RecognitionDecision) -> RecognitionResult {
            RecognitionResult(unheard: decision, audioDuration: utterance.duration, decodeSeconds: (clock.now - started).seconds)
        }
        if utterance.loudestLevel < configuration.thresholds.silenceLevel { return unheard(.noSpeech) }

        // Every pass's decoder has the same front end (`RecognizerConfiguration.arguments(beams:)`), so the cepstra are
        // computed once and each pass decodes them.
        let stepStarted = ThreadCPUClock.seconds()
        let cepstra = try utterance.samples.withUnsafeBufferPointer { try todaysGrammar.utterance.decoder.cepstra(of: $0) }
        cost.steps.cepstra = ThreadCPUClock.seconds() - stepStarted
        let predicts = !predictedFlights.isEmpty && configuration.concurrentPasses && runningPrediction?.isRunning != true
        let comparisons = ComparisonPasses(phoneLoop: phoneLoop, openGrammar: openGrammar, cepstra: cepstra, openGrammarOnOwner: predicts,
                                           cancellation: cancellation)
        comparisons.start(concurrently: configuration.concurrentPasses)
        defer { comparisons.finish() }
        var prediction = predicts ? try startRivalPrediction(of: predictedFlights, cepstra, after: comparisons, cancellation: cancellation) : nil
        let grammarStarted = ThreadCPUClock.seconds()
        let reading = try todaysGrammar.decode(cepstra)
        cost.steps.todaysGrammar = ThreadCPUClock.seconds() - grammarStarted
        try cancellation?.check()
        let heardSpeech = reading.frameCount >= configuration.thresholds.minimumSpeechFrames
        // No path through the grammar: speech if the detector heard enough of it, which the neural pass may still read
        // as one of today's flights, as where the grammar's path names none.
        guard reading.hasPath || (heardSpeech && asksNeuralPass) else { return unheard(heardSpeech ? .rejected(.noHypothesis) : .noSpeech) }
        if rivalBesideComparisons, prediction == nil, configuration.concurrentPasses, runningPrediction?.isRunning != true {
            let heard = grammar.flights(in: reading.text)
            if !heard.isEmpty { prediction = try startRivalPrediction(of: heard, cepstra, after: nil, cancellation: cancellation) }
        }
        var neuralAhead: NeuralReadAhead?
        if neuralBesideComparisons, let neural = try neuralChecker() {
            let heard = DecisionFeatures.heardFlights(in: reading.text, grammar: grammar, normalizer: normalizer, todaysFlights: todaysFlights)
            neuralAhead = NeuralReadAhead(pass: neural, samples: raw, grammarFlight: heard.first, prompt: neuralPrompt, readsTuned: readsTunedDecoder)
        }
        // Whatever ends this decode, the pass is free again before the next one uses it.
        defer { neuralAhead?.stop() }
        var features = DecisionFeatures(reading: reading, comparisons: try comparisons.results(), utterance: utterance, grammar: grammar,
                                        normalizer: normalizer, todaysFlights: todaysFlights, thresholds: configuration.thresholds)
        cost.comparisonsCPUSeconds = comparisons.cpuSeconds
        cost.steps.phoneLoop = comparisons.phoneLoopCPUSeconds
        cost.steps.openGrammar = comparisons.openGrammarCPUSeconds
        // The rival is decoded only where it can change the decision (or when measuring it everywhere).
        let readsRival = decider.wantsRival(features) || configuration.alwaysReadsRival
        features.rivalNotNeeded = !readsRival && !features.grammarFlights.isEmpty
        if !features.grammarFlights.isEmpty && readsRival {
            let path: RivalPath
            if let prediction, let predicted = prediction.path(excluding: features.grammarFlights) {
                path = predicted
                predictedRivalsUsed += 1
                cost.predictionCPUSeconds = prediction.cpuSeconds
                cost.predictionFollowedTodaysGrammar = !predicts
                cost.steps.rival = prediction.cpuSeconds
                cost.steps.rivalAlongside = true
            } else {
                try cancellation?.check()
                let rivalStarted = ThreadCPUClock.seconds()
                path = try rivalPath(of: cepstra, excluding: features.grammarFlights)
                cost.steps.rival = ThreadCPUClock.seconds() - rivalStarted
            }
            features.rival = features.rivalReading(path)
        }
        if mayAskSecondOpinion && !features.grammarFlights.isEmpty && (decider.wantsSecondOpinion(features) || configuration.alwaysReadsRival) {
            features.secondOpinionFlights = grammar.flights(in: try secondOpinionPass().decode(cepstra).text)
        }
        if !features.heardFlights.isEmpty && (decider.wantsCrossCheck(features) || configuration.alwaysReadsRival), let other = try crossChecker() {
            try cancellation?.check()
            var otherCost = DecodeCost(mainCPUSeconds: 0, comparisonsCPUSeconds: 0, predictionCPUSeconds: nil)
            let crossCheckStarted = ThreadCPUClock.seconds()
            let decided = try other.decodeWhole(raw, predictedFlights: [], cancellation: cancellation, cost: &otherCost)
            cost.steps.crossCheck = ThreadCPUClock.seconds() - crossCheckStarted + otherCost.comparisonsCPUSeconds
            features.crossCheck = DecisionFeatures.CrossCheckReading(flight: decided.features?.heardFlights.first, probability: decided.confidence)
        }
        if configuration.alwaysReadsNeural || decider.wantsNeuralCheck(features), let neural = try neuralChecker() {
            let (decider, known, always) = (decider, features, configuration.alwaysReadsNeural)
            let scoresOffList: @Sendable (DecisionFeatures.NeuralReading) -> Bool = { always || decider.neuralCheckMayDecide(known, reading: $0) }
            if let neuralAhead {
                features.neural = try neuralAhead.reading(scoringOffListWhere: scoresOffList)
            } else {
                try cancellation?.check()
                let neuralStarted = ThreadCPUClock.seconds()
                features.neural = try neural.read(raw, grammarFlight: features.heardFlights.first, prompt: neuralPrompt,
                                                  readsTuned: readsTunedDecoder, scoresOffList: scoresOffList)
                cost.steps.neural = ThreadCPUClock.seconds() - neuralStarted + neural.helperThreadCPUSeconds
            }
        }
        if let neuralAhead {
            neuralAhead.stop()  // nothing left to stop once read
            cost.steps.neural = neuralAhead.cpuSeconds
            cost.steps.neuralAhead = true
            cost.steps.neuralUnused = features.neural == nil
        }
        var verdict = decider.decide(features)
        if !reading.hasPath, verdict.decision.isRejected { verdict.decision = .rejected(.noHypothesis) }
        let normalizer = normalizer
        return RecognitionResult(features: features, verdict: verdict, keptFrames: utterance.keptFrames,
                                 readAlternative: { normalizer.normalize($0).candidates },
                                 audioDuration: utterance.duration, decodeSeconds: (clock.now - started).seconds)
    }

    /// Waits for a rival prediction still running (for tests that need the next decode to predict).
    func waitForRivalPrediction() { runningPrediction?.wait() }

    /// Starts decoding the rival of `flights` alongside (see `RivalPredictor`).
    private func startRivalPrediction(of flights: [FlightNumber], _ cepstra: Cepstra, after comparisons: ComparisonPasses?,
                                      cancellation: DecodeCancellation?) throws -> RivalPrediction {
        let prediction = try predictor().start(predicted: flights, from: grammar, pronunciations: grammarPronunciations, cepstra: cepstra,
                                               after: comparisons, cancellation: cancellation)
        runningPrediction = prediction
        return prediction
    }

    /// Compiles the rival of `flights` in the background, for a decode that will predict them (see `RivalPredictor`):
    /// call it when the streaming hypothesis names them. Thread rule: the owner's thread, like `process`.
    func prepareRival(excluding flights: [FlightNumber]) throws {
        try predictor().prepare(excluding: flights, from: grammar, pronunciations: grammarPronunciations)
    }

    private func predictor() throws -> RivalPredictor {
        if let rivalPredictor { return rivalPredictor }
        let created = RivalPredictor(rival: RivalPass(decoder: try PocketSphinxDecoder(arguments: configuration.rivalArguments,
                                                                                    verbose: configuration.verbose)))
        rivalPredictor = created
        return created
    }

    /// Decodes the utterance again with today's grammar less `flights`: the best path among today's other flights.
    private func rivalPath(of cepstra: Cepstra, excluding flights: [FlightNumber]) throws -> RivalPath {
        let rival = try rival()
        try rival.exclude(flights, from: grammar, pronunciations: &addedPronunciations)
        return try rival.decode(cepstra)
    }

    /// The rival pass decoded after today's grammar, created on first use.
    private func rival() throws -> RivalPass {
        if let rivalPass { return rivalPass }
        let created = RivalPass(decoder: try PocketSphinxDecoder(arguments: configuration.rivalArguments, verbose: configuration.verbose))
        rivalPass = created
        return created
    }

    /// A dictionary word without its alternative-pronunciation marker: "thirty(2)" → "thirty".
    static func baseWord(_ word: String) -> String {
        guard word.hasSuffix(")"), let open = word.lastIndex(of: "(") else { return word }
        return String(word[..<open])
    }

    /// Decoder frames per second of audio.
    static let framesPerSecond = 100.0

    /// True for a real word, false for silences, fillers and null transitions.
    static func isWord(_ word: String) -> Bool {
        !(word.isEmpty || word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("(") || word.hasPrefix("++"))
    }
}

extension NormalizationOutcome {
    /// The candidates when understood, else none.
    var candidates: [FlightCandidate] {
        if case .understood(let candidates) = self { return candidates }
        return []
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
