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
/// Thread rule: not `Sendable`; it owns its PocketSphinx decoders (today's grammar, phone loop, open grammar, rival,
/// live).
/// Use one per thread, or behind `RecognitionService`.
public final class FlightRecognizer {
    /// The configuration it was built with.
    public let configuration: RecognizerConfiguration
    /// The grammar in use (today's flights).
    public private(set) var grammar: FlightGrammar
    /// The vocabulary the grammar was built from.
    public private(set) var vocabulary: FlightVocabulary
    /// Words that were missing from the dictionary and got derived pronunciations, word → phones.
    public private(set) var addedPronunciations: [String: String] = [:]

    /// Decodes each whole utterance with the flight grammar.
    private let decoder: PocketSphinxDecoder
    /// Decodes audio as it streams in, for events only; created on first use. Kept apart from `decoder` because
    /// feeding an utterance piecewise switches the library's cepstral normalization to a running estimate that
    /// would carry over into later whole-utterance decodes.
    private var liveDecoder: PocketSphinxDecoder?
    private var liveSearchName: String?
    private let phoneLoop: PocketSphinxDecoder
    /// Decodes the same utterance against `OpenFlightGrammar` for a second opinion.
    private let openDecoder: PocketSphinxDecoder
    private var openSearchName: String?
    /// Decodes the same utterance against today's grammar less the flight heard, for its nearest rival; created on
    /// first use.
    private var rivalDecoder: PocketSphinxDecoder?
    private var rivalSearchName: String?
    private var rivalGeneration = 0
    private var normalizer: SpokenFlightNormalizer
    private var searchName: String?
    private var searchGeneration = 0

    // The utterance in progress.
    private var buffered: [Int16] = []
    private var liveFed = 0
    private var liveStarted = false
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
        decoder = try PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: configuration.verbose)
        phoneLoop = try PocketSphinxDecoder(
            arguments: configuration.commonArguments + [("-allphone", configuration.phoneLanguageModel), ("-allphone_ci", "yes")],
            verbose: configuration.verbose)
        openDecoder = try PocketSphinxDecoder(arguments: configuration.openGrammarArguments, verbose: configuration.verbose)
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
        self.vocabulary = vocabulary
        grammar = FlightGrammar(vocabulary: vocabulary)
        normalizer = SpokenFlightNormalizer(airlines: vocabulary.airlines)
        try installGrammar()
    }

    private func installGrammar() throws {
        searchGeneration += 1
        searchName = try install(grammar.jsgf, words: grammar.words, on: decoder, replacing: searchName)
        if let liveDecoder { liveSearchName = try install(grammar.jsgf, words: grammar.words, on: liveDecoder, replacing: liveSearchName) }
        let open = OpenFlightGrammar(airlines: vocabulary.airlines)
        openSearchName = try install(open.jsgf, words: open.words, on: openDecoder, replacing: openSearchName)
    }

    /// Adds the grammar's missing words to `target`'s dictionary and activates the grammar under a new search name
    /// (reusing a name for a new grammar crashed this library version); returns that name.
    private func install(_ jsgf: String, words: [String], on target: PocketSphinxDecoder, replacing old: String?,
                         name: String? = nil) throws -> String {
        var added: [String: String] = [:]
        let missing = words.filter { target.pronunciation(of: $0) == nil }
        for word in missing {
            added[word] = addedPronunciations[word] ?? Pronouncer.phones(for: word) { target.pronunciation(of: $0) }
        }
        for (index, word) in missing.enumerated() {
            try target.addWord(word, phones: added[word]!, update: index == missing.count - 1)
        }
        addedPronunciations.merge(added) { _, new in new }
        let name = name ?? "flights\(searchGeneration)"
        try target.useGrammar(jsgf, name: name)
        if let old { target.removeSearch(old) }
        return name
    }

    /// The streaming decoder, created with the current grammar on first use.
    private func streamingDecoder() throws -> PocketSphinxDecoder {
        if let liveDecoder { return liveDecoder }
        let created = try PocketSphinxDecoder(arguments: configuration.streamingArguments, verbose: configuration.verbose)
        liveSearchName = try install(grammar.jsgf, words: grammar.words, on: created, replacing: nil)
        liveDecoder = created
        return created
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
                let live = try streamingDecoder()
                if !liveStarted {
                    try live.startUtterance()
                    liveStarted = true
                }
                try buffered.withUnsafeBufferPointer { all in
                    try live.process(UnsafeBufferPointer(rebasing: all[liveFed..<liveFed + step]), wholeUtterance: false)
                }
                liveFed += step
                if !liveInSpeech, live.inSpeech {
                    liveInSpeech = true
                    events.append(.speechStarted(at: Double(liveFed - step) / Double(configuration.sampleRate)))
                }
                if let text = live.hypothesis()?.text, !text.isEmpty, text != lastPartial {
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
        if liveStarted {
            liveStarted = false
            try? liveDecoder?.endUtterance()
        }
        return try decodeWhole(buffered)
    }

    /// Forgets the utterance in progress.
    public func reset() {
        if liveStarted { try? liveDecoder?.endUtterance() }
        buffered = []
        liveFed = 0
        liveStarted = false
        liveInSpeech = false
        lastPartial = ""
        liveFailure = nil
    }

    /// Decodes a whole clip (16 kHz mono) as one utterance, however long: recorded clips have no length cap.
    public func recognize(samples: [Int16]) throws -> RecognitionResult {
        reset()
        return try decodeWhole(samples)
    }

    /// Decodes a whole decoded clip as one utterance.
    public func recognize(_ clip: AudioClip) throws -> RecognitionResult {
        try recognize(samples: clip.samples)
    }

    // MARK: Live listening (used by `LiveRecognizer`)

    /// Creates the streaming decoder now, so that `process` never installs a grammar while `decodeSnapshot` runs.
    func prepareStreaming() throws { _ = try streamingDecoder() }

    /// Decodes `samples` as one whole utterance without touching the utterance being streamed.
    ///
    /// Thread rule (the one exception to "one thread"): it uses only the whole-utterance decoders and reads the grammar,
    /// so it may run on one other thread while the owner calls `process`/`reset` — after `prepareStreaming()`, and
    /// never while `load` runs. `LiveRecognizer` keeps to that.
    func decodeSnapshot(_ samples: [Int16]) throws -> RecognitionResult {
        try decodeWhole(samples)
    }

    /// True when `hypothesis` names one of the flights in today's grammar from airline through number.
    func namesCompleteFlight(_ hypothesis: String) -> Bool {
        !grammar.flights(in: hypothesis).isEmpty
    }

    private var maximumSamples: Int { Int(configuration.maximumUtteranceSeconds * Double(configuration.sampleRate)) }

    // MARK: Final decode

    private func decodeWhole(_ raw: [Int16]) throws -> RecognitionResult {
        let clock = ContinuousClock()
        let started = clock.now
        let duration = Double(raw.count) / Double(configuration.sampleRate)
        let cleaned = configuration.preprocessor.process(DCOffset.removed(from: raw), sampleRate: configuration.sampleRate)
        let loudest = AudioLevel.loudestWindowLevel(cleaned, sampleRate: configuration.sampleRate)
        let prepared = NoiseFloor.apply(AudioLevel.raised(cleaned, from: loudest, to: configuration.quietRecordingLevel),
                                        level: configuration.noiseFloorLevel)
        let thresholds = configuration.thresholds
        let samplesPerFrame = configuration.sampleRate / Int(Self.framesPerSecond)
        // Long quiet stretches around and between the words are left out or shortened: the decoder normalizes the
        // cepstra by their mean over the whole utterance, and seconds of near-silence drag that mean far from the speech's.
        let allPowers = AudioLevel.framePowers(prepared, samplesPerFrame: samplesPerFrame)
        let kept = KeptFrames(AudioLevel.keptFrames(allPowers, belowLoudest: configuration.quietBelowLoudest,
                                                    edge: Int(configuration.quietKeptAtEdgesSeconds * Self.framesPerSecond),
                                                    gap: Int(configuration.quietKeptInPausesSeconds * Self.framesPerSecond)))
        let samples = kept.samples(of: prepared, samplesPerFrame: samplesPerFrame)
        let powers = kept.ranges.flatMap { allPowers[$0] }

        func result(_ transcript: Transcript, _ decision: RecognitionDecision, candidates: [FlightCandidate] = [],
                    alternatives: [[FlightCandidate]] = [], flights: [FlightNumber] = [], ratio: Double? = nil, flightRatio: Double? = nil,
                    lowestWord: Double? = nil, frames: Int = 0, signalToNoise: Double? = nil, openReading: OpenGrammarReading? = nil,
                    fitScore: Double? = nil, fitWithoutRival: Double? = nil, unexplained: Double? = nil,
                    shortestFlightWord: Double? = nil, rival: RivalReading? = nil) -> RecognitionResult {
            RecognitionResult(transcript: transcript, decision: decision, candidates: candidates, alternativeCandidates: alternatives,
                              grammarFlights: flights, logLikelihoodRatio: ratio, flightWordsRatio: flightRatio, lowestWordRatio: lowestWord, speechFrames: frames, signalToNoiseRatio: signalToNoise, openReading: openReading, fitScore: fitScore, fitScoreWithoutRival: fitWithoutRival, unexplainedSpeechSeconds: unexplained,
                              shortestFlightWordFramesPerPhone: shortestFlightWord, rivalReading: rival, audioDuration: duration,
                              decodeSeconds: (clock.now - started).seconds)
        }

        if loudest < thresholds.silenceLevel {
            return result(.empty, .noSpeech)
        }
        // The comparison decodes do not depend on the main one: run them alongside it, so an utterance takes as long as
        // its longest pass rather than the sum of all three.
        let comparisons = ComparisonPasses(phoneLoop: phoneLoop, openGrammar: openDecoder, samples: samples)
        comparisons.start(concurrently: configuration.concurrentPasses)
        defer { comparisons.finish() }
        try Self.decodeUtterance(decoder, samples)
        let hypothesis = decoder.hypothesis()
        let segments = decoder.segments()
        let nbest = configuration.nbestLimit > 0 ? decoder.nbest(limit: configuration.nbestLimit, maximumVisited: configuration.nbestVisitLimit) : []
        let wordSegments = segments.filter { Self.isWord($0.word) }
        guard let hypothesis, !hypothesis.text.isEmpty, let first = wordSegments.first, let last = wordSegments.last else {
            // No path through the grammar: speech if the detector heard enough of it.
            return result(.empty, decoder.frameCount >= thresholds.minimumSpeechFrames ? .rejected(.noHypothesis) : .noSpeech)
        }
        let span = first.startFrame...last.endFrame
        let flights = grammar.flights(in: hypothesis.text)
        let candidates = normalizer.normalize(hypothesis.text).candidates
        let (phones, openText, openSegments) = try comparisons.results()

        // The ratio is taken over the frames of words only: pauses inside the span fit silence in both decodes and
        // would only dilute it (by how long the speaker paused).
        let spanFrames = span.count
        let wordRatios = wordSegments.map { Self.fitDifference($0, against: phones) / Double($0.frameCount) }
        let ratio = Self.frameWeightedMean(wordRatios, over: wordSegments, at: Array(wordSegments.indices))
        // The same ratio over only the words that name the flight (airline and number), leaving out carrier words:
        // speech that is not a flight query often fits "where is" well and only the forced flight words badly.
        let flightWordIndices = grammar.readings(of: wordSegments.map { Self.baseWord($0.word) }).first.map { Array($0.words) }
            ?? Array(wordSegments.indices)
        let flightRatio = Self.frameWeightedMean(wordRatios, over: wordSegments, at: flightWordIndices)

        // The second opinion: the same comparison against the best flight-shaped path of the open grammar.
        let wordGaps = openSegments.isEmpty ? nil : wordSegments.map { Self.fitDifference($0, against: openSegments) / Double($0.frameCount) }
        // The worst flight word, not the mean: a forced wrong flight usually differs from what was said in one word.
        let flightGap = wordGaps.flatMap { gaps in flightWordIndices.map { gaps[$0] }.min() }
        let openReading = OpenGrammarReading(text: openText, flight: normalizer.normalize(openText).candidates.first?.flight,
                                             fitDifference: flightGap)
        let weight = thresholds.openGrammarWeight
        // Pace, by the pronunciation each word was decoded with: a flight word squeezed into too few frames was
        // usually forced onto audio of something else (see `RecognitionThresholds.naturalFramesPerPhone`).
        let framesPerPhone = wordSegments.map { segment in
            decoder.pronunciation(of: segment.word).map { Double(segment.frameCount) / Double(max(1, $0.split(separator: " ").count)) }
        }
        let shortestFlightWord = flightWordIndices.compactMap { framesPerPhone[$0] }.min()
        let fitWithoutRival = flightGap.map { flightRatio + weight * $0 - thresholds.squeezePenalty(framesPerPhone: shortestFlightWord) }

        let levels = AudioLevel.noiseAndSpeechPower(powers)
        let signalToNoise = AudioLevel.signalToNoiseRatio(levels)
        let unexplained = Double(AudioLevel.unexplainedSpeechFrames(
            powers, levels: levels, words: wordSegments.map { $0.startFrame...$0.endFrame }, margin: thresholds.wordEdgeFrames,
            belowSpeech: thresholds.unexplainedSpeechBelowSpeech, aboveNoise: thresholds.unexplainedSpeechAboveNoise)) / Self.framesPerSecond
        // Two grammars agreeing on the exact flight, one of them free to say any, is evidence the score cannot see:
        // then anything above the reject threshold is accepted.
        let grammarsAgree = openReading.flight != nil && openReading.flight == (flights.first ?? candidates.first?.flight)
        let acceptAt = grammarsAgree ? thresholds.rejectScore : thresholds.acceptScore(signalToNoise: signalToNoise)
        // How far the flight leads today's other flights: decoded only where it can change the decision (the open grammar
        // did not read the same flight, and the lead's largest share could lift the score to the accept threshold).
        let rivalCanDecide = !grammarsAgree && fitWithoutRival.map {
            $0 >= thresholds.rejectScore && $0 + thresholds.largestRivalShare >= acceptAt
        } == true
        let rival = !flights.isEmpty && (rivalCanDecide || configuration.alwaysReadsRival)
            ? try rivalReading(of: samples, excluding: flights, bestScore: hypothesis.score,
                               wordFrames: wordSegments.reduce(0) { $0 + $1.frameCount }) : nil
        let rivalShare = grammarsAgree ? 0 : thresholds.rivalShare(margin: rival?.margin)
        let fitScore = fitWithoutRival.map { $0 + rivalShare }
        let words = wordSegments.indices.map { index in
            let segment = wordSegments[index]
            return RecognizedWord(word: Self.baseWord(segment.word), start: Double(kept.clipFrame(segment.startFrame)) / Self.framesPerSecond,
                                  end: Double(kept.clipFrame(segment.endFrame) + 1) / Self.framesPerSecond,
                                  confidence: calibrated(wordRatios[index] + weight * (wordGaps?[index] ?? 0)
                                      - thresholds.squeezePenalty(framesPerPhone: framesPerPhone[index]) + rivalShare, acceptAt: acceptAt))
        }
        // The open grammar's reading is the first alternative: what the audio says when nothing is forced.
        var alternatives = ([openText] + nbest.map(\.text)).filter { !$0.isEmpty && $0 != hypothesis.text }
        alternatives = alternatives.enumerated().filter { !alternatives.prefix($0.offset).contains($0.element) }.map(\.element)
        let transcript = Transcript(text: hypothesis.text, words: words, confidence: calibrated(fitScore ?? flightRatio, acceptAt: acceptAt), alternatives: alternatives)

        let alternativeCandidates = alternatives.map { normalizer.normalize($0).candidates }
        let decision = decide(flights: flights, candidates: candidates, score: fitScore, scoreWithoutRival: fitWithoutRival,
                              acceptAt: acceptAt, openFlight: openReading.flight, rivalFlight: rival?.flight, unexplainedSpeech: unexplained,
                              hypothesisScore: hypothesis.score, nbest: nbest.filter { $0.text != hypothesis.text })
        return result(transcript, decision, candidates: candidates, alternatives: alternativeCandidates, flights: flights,
                      ratio: ratio, flightRatio: flightRatio, lowestWord: wordRatios.min(), frames: spanFrames, signalToNoise: signalToNoise,
                      openReading: openReading, fitScore: fitScore, fitWithoutRival: fitWithoutRival, unexplained: unexplained,
                      shortestFlightWord: shortestFlightWord, rival: rival)
    }

    /// Decodes `samples` again with today's grammar less `flights`: the best reading as another of today's flights, and
    /// by how much per frame of the words heard the path through `flights` (`bestScore`) beat it. Per word frame, as
    /// the fit score: a pause fits silence in both decodes and would only dilute the difference.
    private func rivalReading(of samples: [Int16], excluding flights: [FlightNumber], bestScore: Int32,
                              wordFrames: Int) throws -> RivalReading {
        let rivals = FlightGrammar(vocabulary: FlightVocabulary(airlines: vocabulary.airlines,
                                                                flights: vocabulary.flights.filter { !flights.contains($0) }))
        let rivalDecoder = try self.rivalDecoder ?? PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: configuration.verbose)
        self.rivalDecoder = rivalDecoder
        rivalGeneration += 1
        rivalSearchName = try install(rivals.jsgf, words: rivals.words, on: rivalDecoder, replacing: rivalSearchName,
                                      name: "rivals\(rivalGeneration)")
        try Self.decodeUtterance(rivalDecoder, samples)
        guard let best = rivalDecoder.hypothesis(), !best.text.isEmpty else { return RivalReading(text: "", flight: nil, margin: nil) }
        return RivalReading(text: best.text, flight: rivals.flights(in: best.text).first,
                            margin: Double(bestScore - best.score) / Double(max(1, wordFrames)))
    }

    /// The segment's acoustic score minus what `reference`'s segments score over the same frames.
    static func fitDifference(_ segment: PocketSphinxDecoder.Segment, against reference: [PocketSphinxDecoder.Segment]) -> Double {
        let range = segment.startFrame...(segment.startFrame + segment.frameCount - 1)
        return Double(segment.acousticScore) - reference.reduce(0.0) { $0 + overlapScore($1, range) }
    }

    /// The mean of `values[i]` over `indices`, each weighted by the frames of `segments[i]`.
    private static func frameWeightedMean(_ values: [Double], over segments: [PocketSphinxDecoder.Segment], at indices: [Int]) -> Double {
        let frames = indices.reduce(0) { $0 + segments[$1].frameCount }
        return indices.reduce(0.0) { $0 + values[$1] * Double(segments[$1].frameCount) } / Double(max(1, frames))
    }

    /// Accept, confirm or reject from the flights read, the fit score of the flight's words (nil when the open grammar
    /// found no path, so there is no second opinion) and competing readings.
    private func decide(flights: [FlightNumber], candidates: [FlightCandidate], score: Double?, scoreWithoutRival: Double?, acceptAt: Double,
                        openFlight: FlightNumber?, rivalFlight: FlightNumber?, unexplainedSpeech: Double, hypothesisScore: Int32,
                        nbest: [(text: String, score: Int32)]) -> RecognitionDecision {
        let thresholds = configuration.thresholds
        var heard = flights
        if heard.isEmpty, let normalized = candidates.first?.flight, vocabulary.flights.contains(normalized) { heard = [normalized] }
        guard let best = heard.first else { return .rejected(.notAFlight) }
        // The lead over today's other flights says which flight, not whether one was said: it cannot save a poor fit.
        if let scoreWithoutRival, scoreWithoutRival < thresholds.rejectScore { return .rejected(.lowConfidence(score: scoreWithoutRival)) }
        var rivals: [FlightNumber] = []
        // Unforced, the audio named another of today's flights: both are plausible.
        if let openFlight, openFlight != best, vocabulary.flights.contains(openFlight) { rivals.append(openFlight) }
        for alternative in nbest where Double(hypothesisScore) - Double(alternative.score) <= thresholds.ambiguityMargin {
            for flight in grammar.flights(in: alternative.text) where flight != best && !rivals.contains(flight) { rivals.append(flight) }
        }
        let others = Array(heard.dropFirst()) + rivals.filter { !heard.contains($0) }
        if !others.isEmpty { return .confirm([best] + others.prefix(2)) }
        guard let score, score >= acceptAt, unexplainedSpeech < thresholds.unexplainedSpeechSeconds else {
            return .confirm([best] + [rivalFlight].compactMap { $0 }.filter { $0 != best })
        }
        return .accepted(best)
    }

    static func decodeUtterance(_ decoder: PocketSphinxDecoder, _ samples: [Int16]) throws {
        try decoder.startUtterance()
        do {
            try samples.withUnsafeBufferPointer { try decoder.process($0, wholeUtterance: true) }
        } catch {
            try? decoder.endUtterance()
            throw error
        }
        try decoder.endUtterance()
    }

    /// Confidence 0...1 of a fit score: 0.5 exactly at the accept threshold for this clip (its noise level, or the
    /// reject threshold when the open grammar agrees), so a flight is answered without asking only at 0.5 or above.
    private func calibrated(_ score: Double, acceptAt: Double) -> Double {
        1 / (1 + exp(-(score - acceptAt) / configuration.thresholds.confidenceScale))
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

    /// The segment's acoustic score prorated to the frames it shares with `range`.
    private static func overlapScore(_ segment: PocketSphinxDecoder.Segment, _ range: ClosedRange<Int>) -> Double {
        let length = segment.endFrame - segment.startFrame + 1
        guard length > 0 else { return 0 }
        let shared = min(segment.endFrame, range.upperBound) - max(segment.startFrame, range.lowerBound) + 1
        guard shared > 0 else { return 0 }
        return Double(segment.acousticScore) * Double(shared) / Double(length)
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

/// Loudness measures on 16-bit samples.
enum AudioLevel {
    /// Estimated signal-to-noise ratio in dB: the power of the loud frames (90th percentile of 10 ms frames) over
    /// that of the quiet ones (10th percentile). Independent of the decoder's segmentation; it underestimates when a
    /// clip holds no pause at all, which only makes the decision stricter.
    static func signalToNoiseRatio(_ levels: (noise: Double, speech: Double)?) -> Double? {
        levels.map { 10 * log10($0.speech / $0.noise) }
    }

    /// The frames worth decoding: every 100 ms window within `belowLoudest` dB of the loudest such window sounds; the
    /// quiet before the first and after the last sounding frame is kept for `edge` frames, and a quiet pause between
    /// sounding frames for `gap` frames on each side of it. Ascending, disjoint ranges; all frames when nothing is quiet
    /// or the clip is too short to have a window.
    static func keptFrames(_ powers: [Double], belowLoudest: Double, edge: Int, gap: Int) -> [Range<Int>] {
        let window = Int(windowSeconds * FlightRecognizer.framesPerSecond)
        guard powers.count >= window else { return [powers.indices] }
        var windowPowers: [Double] = []
        var sum = powers[0..<window].reduce(0, +)
        windowPowers.append(sum / Double(window))
        for end in window..<powers.count {
            sum += powers[end] - powers[end - window]
            windowPowers.append(sum / Double(window))
        }
        let floor = (windowPowers.max() ?? 0) / pow(10, belowLoudest / 10)
        var sounding: [Range<Int>] = []
        for (start, power) in windowPowers.enumerated() where power >= floor { appendMerging(start..<(start + window), to: &sounding) }
        guard !sounding.isEmpty else { return [powers.indices] }
        var kept: [Range<Int>] = []
        for (index, part) in sounding.enumerated() {
            let lower = max(0, part.lowerBound - (index == 0 ? edge : gap))
            let upper = min(powers.count, part.upperBound + (index == sounding.count - 1 ? edge : gap))
            appendMerging(lower..<upper, to: &kept)
        }
        return kept
    }

    /// Appends `range` to ascending `ranges`, joining it to the last one when they overlap or touch.
    private static func appendMerging(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        if let last = ranges.last, range.lowerBound <= last.upperBound {
            ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
        } else {
            ranges.append(range)
        }
    }

    /// `samples` amplified so that their loudest 100 ms window, now at `loudest` dBFS, reaches `level` dBFS; unchanged
    /// when it is there already, when `level` is nil, or for digital silence.
    static func raised(_ samples: [Int16], from loudest: Double, to level: Double?) -> [Int16] {
        guard let level, loudest < level, loudest > -120 else { return samples }
        let gain = pow(10, (level - loudest) / 20)
        return samples.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
    }

    /// Mean power of each frame of `samplesPerFrame` samples (a trailing partial frame is left out).
    static func framePowers(_ samples: [Int16], samplesPerFrame: Int) -> [Double] {
        (0..<samples.count / samplesPerFrame).map { frame in
            var sum = 0.0
            for sample in samples[frame * samplesPerFrame..<(frame + 1) * samplesPerFrame] { sum += Double(sample) * Double(sample) }
            return sum / Double(samplesPerFrame) + 1e-3
        }
    }

    /// The noise and speech power (the quiet and loud percentiles of the frames); nil for fewer than 10 frames.
    static func noiseAndSpeechPower(_ powers: [Double]) -> (noise: Double, speech: Double)? {
        guard powers.count >= 10 else { return nil }
        let sorted = powers.sorted()
        return (sorted[sorted.count * quietPercentile / 100], sorted[min(sorted.count - 1, sorted.count * loudPercentile / 100)])
    }

    /// Frames outside `words` (each widened by `margin` frames) as loud as speech: within `belowSpeech` dB of the speech
    /// level and at least `aboveNoise` dB over the noise. They are speech the decoder explained as silence or noise,
    /// usually a word the grammar had no place for. 0 when the clip's contrast is too low to tell speech from noise.
    static func unexplainedSpeechFrames(_ powers: [Double], levels: (noise: Double, speech: Double)?, words: [ClosedRange<Int>],
                                        margin: Int, belowSpeech: Double, aboveNoise: Double) -> Int {
        guard let (noise, speech) = levels else { return 0 }
        let floor = max(speech / pow(10, belowSpeech / 10), noise * pow(10, aboveNoise / 10))
        var explained = [Bool](repeating: false, count: powers.count)
        for word in words {
            let first = max(0, word.lowerBound - margin), last = min(powers.count - 1, word.upperBound + margin)
            if first <= last { for frame in first...last { explained[frame] = true } }
        }
        return powers.indices.filter { !explained[$0] && powers[$0] >= floor }.count
    }

    /// Percentile of frame power taken as the noise level.
    static let quietPercentile = 10
    /// Percentile of frame power taken as the speech level.
    static let loudPercentile = 90

    /// Window for the loudness measure, in seconds.
    static let windowSeconds = 0.1

    /// The RMS level of the loudest window, in dBFS (-120 for empty or digital silence).
    static func loudestWindowLevel(_ samples: [Int16], sampleRate: Int) -> Double {
        let window = max(1, Int(Double(sampleRate) * windowSeconds))
        var loudest = 0.0
        var start = 0
        while start < samples.count {
            let end = min(samples.count, start + window)
            var sum = 0.0
            for sample in samples[start..<end] { sum += Double(sample) * Double(sample) }
            loudest = max(loudest, sum / Double(end - start))
            start += window / 2
        }
        return loudest > 0 ? 10 * log10(loudest / (32768.0 * 32768.0)) : -120
    }
}

/// The frames of a clip that were decoded, in order, and where a decoded frame lies in the clip.
struct KeptFrames {
    /// Ascending, disjoint frame ranges of the clip.
    let ranges: [Range<Int>]

    init(_ ranges: [Range<Int>]) { self.ranges = ranges }

    /// The kept part of `clip`, `samplesPerFrame` to a frame; a trailing partial frame goes with the clip's last frame.
    func samples(of clip: [Int16], samplesPerFrame: Int) -> [Int16] {
        let frameCount = clip.count / samplesPerFrame
        return ranges.flatMap { frames in
            clip[frames.lowerBound * samplesPerFrame..<(frames.upperBound == frameCount ? clip.count : frames.upperBound * samplesPerFrame)]
        }
    }

    /// The clip frame that the decoded audio's `frame` came from (past the end: counted on from the last range).
    func clipFrame(_ frame: Int) -> Int {
        var remaining = frame
        for range in ranges {
            if remaining < range.count { return range.lowerBound + remaining }
            remaining -= range.count
        }
        return (ranges.last?.upperBound ?? 0) + remaining
    }
}

/// The phone-loop and open-grammar decodes of one utterance, on a helper thread while the main decode runs.
///
/// Safety of `@unchecked Sendable`: between `start` and `finish` the two decoders and the result fields are touched
/// only by the helper thread; the owner reads them only after `finish` has waited for it.
private final class ComparisonPasses: @unchecked Sendable {
    private let phoneLoop: PocketSphinxDecoder
    private let openGrammar: PocketSphinxDecoder
    private let samples: [Int16]
    private var outcome: Result<(phones: [PocketSphinxDecoder.Segment], openText: String, openSegments: [PocketSphinxDecoder.Segment]), any Error>?
    private var helper: Thread?
    private let done = DispatchSemaphore(value: 0)
    private var finished = false

    init(phoneLoop: PocketSphinxDecoder, openGrammar: PocketSphinxDecoder, samples: [Int16]) {
        self.phoneLoop = phoneLoop
        self.openGrammar = openGrammar
        self.samples = samples
    }

    /// Starts both decodes on a helper thread, or runs them now when not `concurrently`.
    func start(concurrently: Bool) {
        guard concurrently else { run(); return }
        let thread = Thread { [self] in
            run()
            done.signal()
        }
        helper = thread
        thread.start()
    }

    /// Waits for the helper thread, if any; safe to call more than once.
    func finish() {
        guard !finished else { return }
        finished = true
        if helper != nil { done.wait() }
    }

    /// The phone loop's segments and the open grammar's text and segments (empty when it found no path).
    func results() throws -> (phones: [PocketSphinxDecoder.Segment], openText: String, openSegments: [PocketSphinxDecoder.Segment]) {
        finish()
        return try outcome!.get()
    }

    private func run() {
        outcome = Result {
            try FlightRecognizer.decodeUtterance(phoneLoop, samples)
            let phones = phoneLoop.segments()
            try FlightRecognizer.decodeUtterance(openGrammar, samples)
            let openText = openGrammar.hypothesis()?.text ?? ""
            return (phones, openText, openText.isEmpty ? [] : openGrammar.segments())
        }
    }
}
