import FlightCore

/// Everything measured about one utterance that a `Decider` decides on: what today's grammar heard, how well its words
/// fit against the other passes (phone loop, open grammar, rival), their pace, the noise and the unexplained speech.
///
/// Measured, not judged: no threshold enters here (only the measuring parameters of `unexplainedSpeechSeconds`).
/// Frames are the decoded audio's 10 ms frames; scores are in the decoder's scaled log base. Pure value; `Sendable`.
public struct DecisionFeatures: Sendable {
    /// One word of today's grammar path and its fit.
    public struct Word: Sendable {
        /// The word as decoded ("thirty(2)" for an alternative pronunciation).
        public let word: String
        /// First and last decoded frame.
        public let startFrame: Int
        public let endFrame: Int
        /// Acoustic score per frame minus the phone loop's over the same frames (log-likelihood ratio; 0 fits as well).
        public let phoneLoopRatio: Double
        /// Acoustic score per frame minus the open grammar's over the same frames; nil when the open grammar found no path.
        public let openGrammarGap: Double?
        /// Frames per phone of the pronunciation it was decoded with; nil when the dictionary has none.
        public let framesPerPhone: Double?

        /// Frames the word spans, at least one.
        public var frameCount: Int { max(startFrame, endFrame) - startFrame + 1 }
    }

    /// An n-best alternative of today's grammar.
    public struct Alternative: Sendable {
        /// Its words.
        public let text: String
        /// Its path score.
        public let pathScore: Int32
        /// The flights they name by the grammar.
        public let flights: [FlightNumber]
    }

    /// Today's grammar's best word sequence.
    public let transcript: String
    /// Its path score.
    public let pathScore: Int32
    /// Its words, without silences and fillers.
    public let words: [Word]
    /// Indices into `words` of the words that name the flight (airline and number); all words when none parse.
    public let flightWordIndices: [Int]
    /// The flights the path names by the grammar that produced it (usually one).
    public let grammarFlights: [FlightNumber]
    /// The normalizer's ranked readings of the transcript.
    public let candidates: [FlightCandidate]
    /// The flights heard among today's: the grammar's, else the normalizer's best reading when it flies today.
    public let heardFlights: [FlightNumber]
    /// The open grammar's reading, with the worst flight word's gap against it.
    public let openReading: OpenGrammarReading
    /// True when the open grammar's flight is one of today's.
    public let openFlightIsToday: Bool
    /// Frame-weighted mean of the phone-loop ratio over all words.
    public let logLikelihoodRatio: Double
    /// Frame-weighted mean of the phone-loop ratio over the flight words only.
    public let flightWordsRatio: Double
    /// Frames per phone of the flight word spoken fastest; nil when unknown.
    public let shortestFlightWordFramesPerPhone: Double?
    /// Estimated signal-to-noise ratio in dB (loud frames against quiet ones); nil for very short audio.
    public let signalToNoiseRatio: Double?
    /// Seconds of speech-loud audio outside the words heard.
    public let unexplainedSpeechSeconds: Double
    /// Frames from the first word's start to the last word's end.
    public let speechFrames: Int
    /// Other n-best hypotheses (not the transcript), best first.
    public let alternatives: [Alternative]
    /// The nearest of today's other flights; nil until the rival pass ran.
    public internal(set) var rival: RivalReading?
    /// True when the rival was not decoded because no lead over today's other flights could change the decision
    /// (`Decider.wantsRival`); the decision model then counts the lead as its training average.
    public internal(set) var rivalNotNeeded = false
    /// The flights a second acoustic model heard reading today's grammar on the same audio
    /// (`RecognizerConfiguration.secondOpinionModel`); nil when it was not asked.
    public internal(set) var secondOpinionFlights: [FlightNumber]?
    /// What a second acoustic model decided on the same audio (`RecognizerConfiguration.crossCheckModel`); nil when it
    /// was not asked.
    public internal(set) var crossCheck: CrossCheckReading?
    /// How the neural acoustic model scored today's flights on the same audio (`RecognizerConfiguration.neuralModel`);
    /// nil when it was not asked.
    public internal(set) var neural: NeuralReading?

    /// A second acoustic model's own decision on the same audio: the flight it heard and its probability that it is
    /// the one said (its own decision model's).
    public struct CrossCheckReading: Sendable {
        public let flight: FlightNumber?
        public let probability: Double
    }

    /// What the neural acoustic model made of the audio: today's flights ranked by how well a written form of each
    /// explains it (teacher-forced, length-normalised log-probability), and its own free transcript.
    public struct NeuralReading: Sendable {
        /// The best-scoring flight; nil when no candidate could be scored.
        public let flight: FlightNumber?
        /// Its written form that scored best ("LX 40", "Lima X-ray 40", …).
        public let text: String
        /// Its length-normalised log-probability (nats per token, ≤ 0).
        public let score: Double
        /// Its lead over the best-scoring other flight (nats per token); nil when it was the only candidate.
        public let margin: Double?
        /// Rank (0 = best) of the flight today's grammar heard among the flights scored; nil when none was heard or
        /// the beam pruned it.
        public let grammarFlightRank: Int?
        /// The free transcript (greedy decode), as written.
        public let freeTranscript: String
        /// The flight the free transcript names by the normalizer, when it is one of today's.
        public let freeTranscriptFlight: FlightNumber?
        /// The best-scoring flight that does not fly today but sounds like the best one: the same airline with a number
        /// one digit away, or the same number with an airline code one letter away, written in the best one's words
        /// (`OffListNeighbours`); nil when none was scored.
        public let offListFlight: FlightNumber?
        /// The best flight's score less `offListFlight`'s (nats per token): below 0, the traveller more likely asked
        /// for a flight that does not fly today. Nil when none was scored.
        public let offListMargin: Double?
        /// True where the neighbours were not scored because the neural check could not answer this reading whatever
        /// its lead over them (`Decider.neuralCheckMayDecide`); the check then answers nothing.
        public let offListSkipped: Bool
        /// The tuned decoder's reading of the same audio; nil where it was not read.
        public let tuned: TunedReading?

        public init(flight: FlightNumber?, text: String, score: Double, margin: Double?, grammarFlightRank: Int?,
                    freeTranscript: String, freeTranscriptFlight: FlightNumber?, offListFlight: FlightNumber? = nil,
                    offListMargin: Double? = nil, offListSkipped: Bool = false, tuned: TunedReading? = nil) {
            self.flight = flight
            self.text = text
            self.score = score
            self.margin = margin
            self.grammarFlightRank = grammarFlightRank
            self.freeTranscript = freeTranscript
            self.freeTranscriptFlight = freeTranscriptFlight
            self.offListFlight = offListFlight
            self.offListMargin = offListMargin
            self.offListSkipped = offListSkipped
            self.tuned = tuned
        }
    }

    /// How Whisper's decoder fine-tuned on FlightVoice's training voices (`models/whisper-tiny.en-flightvoice`, applied to
    /// the same weights and encoding as `NeuralReading`'s) scored today's flights: the stock decoder knows speech, the
    /// tuned one our queries, and where both put the same flight first it is seldom wrong.
    public struct TunedReading: Sendable, Equatable {
        /// Its best-scoring flight; nil when no candidate could be scored.
        public let flight: FlightNumber?
        /// That flight's length-normalised log-probability (nats per token, ≤ 0).
        public let score: Double
        /// Its lead over the best-scoring other flight (nats per token); nil when it was the only candidate.
        public let margin: Double?

        public init(flight: FlightNumber?, score: Double, margin: Double?) {
            self.flight = flight
            self.score = score
            self.margin = margin
        }
    }

    /// The lowest phone-loop ratio of any word: the worst-fitting word.
    public var lowestWordRatio: Double? { words.map(\.phoneLoopRatio).min() }

    /// True when the open grammar, free to say any flight, read exactly the flight heard.
    public var agreesWithOpenGrammar: Bool {
        openReading.flight != nil && openReading.flight == (grammarFlights.first ?? candidates.first?.flight)
    }

    /// Frames inside the words heard (pauses between words left out).
    public var wordFrames: Int { words.reduce(0) { $0 + $1.frameCount } }

    /// The words around the flight ("what's the gate for"), by index into `words`.
    public var carrierWordIndices: [Int] { words.indices.filter { !flightWordIndices.contains($0) } }
    /// The lowest phone-loop ratio of any flight word: the worst fit of the flight itself, whatever the carrier words.
    public var lowestFlightWordRatio: Double? { flightWordIndices.map { words[$0].phoneLoopRatio }.min() }
    /// Frame-weighted mean of the open-grammar gap over the flight words; nil when the open grammar found no path.
    public var flightWordsOpenGap: Double? { Self.frameWeightedMean(of: words, at: flightWordIndices) { $0.openGrammarGap } }
    /// Frame-weighted mean of the phone-loop ratio over the carrier words; nil when there are none.
    public var carrierWordsRatio: Double? { Self.frameWeightedMean(of: words, at: carrierWordIndices) { $0.phoneLoopRatio } }
    /// Frames inside the words at `indices`.
    public func frames(of indices: [Int]) -> Int { indices.reduce(0) { $0 + words[$1].frameCount } }
}

extension DecisionFeatures {
    /// The flights today's grammar heard in `transcript` (`heardFlights`), known before the other passes are done.
    static func heardFlights(in transcript: String, grammar: FlightGrammar, normalizer: SpokenFlightNormalizer,
                             todaysFlights: Set<FlightNumber>) -> [FlightNumber] {
        heardFlights(grammarFlights: grammar.flights(in: transcript), candidates: normalizer.normalize(transcript).candidates,
                     todaysFlights: todaysFlights)
    }

    private static func heardFlights(grammarFlights: [FlightNumber], candidates: [FlightCandidate],
                                     todaysFlights: Set<FlightNumber>) -> [FlightNumber] {
        if grammarFlights.isEmpty, let normalized = candidates.first?.flight, todaysFlights.contains(normalized) { return [normalized] }
        return grammarFlights
    }

    /// Measures an utterance from its passes' outputs. `reading` must have a path.
    init(reading: GrammarReading, comparisons: ComparisonPasses.Output, utterance: PreparedUtterance, grammar: FlightGrammar,
         normalizer: SpokenFlightNormalizer, todaysFlights: Set<FlightNumber>, thresholds: RecognitionThresholds) {
        let segments = reading.words
        transcript = reading.text
        pathScore = reading.pathScore
        grammarFlights = grammar.flights(in: reading.text)
        candidates = normalizer.normalize(reading.text).candidates
        heardFlights = Self.heardFlights(grammarFlights: grammarFlights, candidates: candidates, todaysFlights: todaysFlights)
        speechFrames = (segments.first.map { first in segments.last!.endFrame - first.startFrame + 1 }) ?? 0

        // The ratio is taken over the frames of words only: pauses inside the span fit silence in both decodes and
        // would only dilute it (by how long the speaker paused).
        let ratios = segments.map { Self.fitDifference($0, against: comparisons.phones) / Double($0.frameCount) }
        let gaps = comparisons.openSegments.isEmpty ? nil
            : segments.map { Self.fitDifference($0, against: comparisons.openSegments) / Double($0.frameCount) }
        let paces = segments.indices.map { index in
            reading.phoneCounts[index].map { Double(segments[index].frameCount) / Double(max(1, $0)) }
        }
        let words = segments.indices.map { index in
            Word(word: segments[index].word, startFrame: segments[index].startFrame, endFrame: segments[index].endFrame,
                 phoneLoopRatio: ratios[index], openGrammarGap: gaps?[index], framesPerPhone: paces[index])
        }
        self.words = words
        logLikelihoodRatio = Self.frameWeightedMean(of: words, at: Array(words.indices)) { $0.phoneLoopRatio } ?? 0
        // The same ratio over only the words that name the flight (airline and number), leaving out carrier words:
        // speech that is not a flight query often fits "where is" well and only the forced flight words badly.
        let flightWords = grammar.readings(of: segments.map { FlightRecognizer.baseWord($0.word) }).first.map { Array($0.words) }
            ?? Array(segments.indices)
        flightWordIndices = flightWords
        flightWordsRatio = Self.frameWeightedMean(of: words, at: flightWords) { $0.phoneLoopRatio } ?? 0
        // The worst flight word against the open grammar, not the mean: a forced wrong flight usually differs from what
        // was said in one word.
        let flightGap = gaps.flatMap { gaps in flightWords.map { gaps[$0] }.min() }
        let openFlight = normalizer.normalize(comparisons.openText).candidates.first?.flight
        openReading = OpenGrammarReading(text: comparisons.openText, flight: openFlight, fitDifference: flightGap)
        openFlightIsToday = openFlight.map(todaysFlights.contains) ?? false
        shortestFlightWordFramesPerPhone = flightWords.compactMap { paces[$0] }.min()

        let levels = AudioLevel.noiseAndSpeechPower(utterance.framePowers)
        signalToNoiseRatio = AudioLevel.signalToNoiseRatio(levels)
        unexplainedSpeechSeconds = Double(AudioLevel.unexplainedSpeechFrames(
            utterance.framePowers, levels: levels, words: segments.map { $0.startFrame...$0.endFrame }, margin: thresholds.wordEdgeFrames,
            belowSpeech: thresholds.unexplainedSpeechBelowSpeech, aboveNoise: thresholds.unexplainedSpeechAboveNoise)) / FlightRecognizer.framesPerSecond
        alternatives = reading.nbest.filter { $0.text != reading.text }
            .map { Alternative(text: $0.text, pathScore: $0.pathScore, flights: grammar.flights(in: $0.text)) }
        rival = nil
        secondOpinionFlights = nil
        crossCheck = nil
        neural = nil
    }

    /// The rival reading of `path` against this utterance's path: the lead per frame of the words heard (as the fit
    /// score: a pause fits silence in both decodes and would only dilute the difference).
    func rivalReading(_ path: RivalPath) -> RivalReading {
        RivalReading(text: path.text, flight: path.flight,
                     margin: path.pathScore.map { Double(pathScore - $0) / Double(max(1, wordFrames)) })
    }

    /// The segment's acoustic score minus what `reference`'s segments score over the same frames.
    static func fitDifference(_ segment: PocketSphinxDecoder.Segment, against reference: [PocketSphinxDecoder.Segment]) -> Double {
        let range = segment.startFrame...(segment.startFrame + segment.frameCount - 1)
        return Double(segment.acousticScore) - reference.reduce(0.0) { $0 + overlapScore($1, range) }
    }

    /// The segment's acoustic score prorated to the frames it shares with `range`.
    private static func overlapScore(_ segment: PocketSphinxDecoder.Segment, _ range: ClosedRange<Int>) -> Double {
        let length = segment.endFrame - segment.startFrame + 1
        guard length > 0 else { return 0 }
        let shared = min(segment.endFrame, range.upperBound) - max(segment.startFrame, range.lowerBound) + 1
        guard shared > 0 else { return 0 }
        return Double(segment.acousticScore) * Double(shared) / Double(length)
    }

    /// The mean of `value` over `words[indices]`, each weighted by its frames; words without a value are left out, and
    /// nil when none has one.
    private static func frameWeightedMean(of words: [Word], at indices: [Int], _ value: (Word) -> Double?) -> Double? {
        let weighted = indices.compactMap { index in value(words[index]).map { ($0, words[index].frameCount) } }
        guard !weighted.isEmpty else { return nil }
        return weighted.reduce(0.0) { $0 + $1.0 * Double($1.1) } / Double(weighted.reduce(0) { $0 + $1.1 })
    }
}
