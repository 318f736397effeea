import FlightCore

/// What the recognizer concluded about an utterance.
public enum RecognitionDecision: Sendable, Hashable {
    /// One flight, heard clearly: answer it.
    case accepted(FlightNumber)
    /// Probably one of these (best first): ask "Did you mean …?" before answering.
    case confirm([FlightNumber])
    /// Speech was heard, but not confidently as one of today's flights: ask again.
    case rejected(RejectionReason)
    /// The audio held no speech.
    case noSpeech

    /// The flight to answer without asking, if any.
    public var acceptedFlight: FlightNumber? {
        if case .accepted(let flight) = self { return flight }
        return nil
    }

    /// True when speech was heard but the traveller is asked to say it again.
    public var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }
}

/// Why speech was not taken as a flight.
public enum RejectionReason: Sendable, Hashable {
    /// The decoder found no path through the flight grammar.
    case noHypothesis
    /// The words heard do not name one of today's flights.
    case notAFlight
    /// The words name a flight, but too unlikely to be the one said: `score` is the decision model's probability
    /// (`DecisionModel`), or the fit score when deciding on hand thresholds (`RecognitionThresholds`).
    case lowConfidence(score: Double)

    /// One sentence for a traveller or an operator.
    public var message: String {
        switch self {
        case .noHypothesis: "speech was heard but nothing like a flight number"
        case .notAFlight: "the words heard do not name one of today's flights"
        case .lowConfidence: "not sure what was said: please say the flight number again"
        }
    }
}

/// The recognizer's full account of one utterance. `Sendable`.
public struct RecognitionResult: Sendable {
    /// Best hypothesis with word timings and confidences, and distinct n-best alternatives.
    public let transcript: Transcript
    /// What to do with it.
    public let decision: RecognitionDecision
    /// The normalizer's ranked readings of the best hypothesis (empty when it reads none).
    public let candidates: [FlightCandidate]
    /// The normalizer's readings of each of `transcript.alternatives`, in the same order.
    public let alternativeCandidates: [[FlightCandidate]]
    /// The flights the best hypothesis names by the grammar that produced it (usually one).
    public let grammarFlights: [FlightNumber]
    /// Log-likelihood ratio per speech frame, grammar path minus free phone loop; nil without speech.
    public let logLikelihoodRatio: Double?
    /// The log-likelihood ratio per frame over only the words that name the flight (airline and number).
    public let flightWordsRatio: Double?
    /// The lowest log-likelihood ratio per frame of any single word: the worst-fitting word; nil without speech.
    public let lowestWordRatio: Double?
    /// Speech frames (1/100 s) between the first and the last word.
    public let speechFrames: Int
    /// Estimated signal-to-noise ratio in dB (loud frames against quiet frames); nil without speech.
    public let signalToNoiseRatio: Double?
    /// The second opinion of the open grammar (any flight-number shape); nil when today's grammar heard nothing.
    public let openReading: OpenGrammarReading?
    /// What the decision was taken on: the flight words' fit against the phone loop plus the weighted fit against the
    /// open grammar, per frame (see `RecognitionThresholds`); nil without a hypothesis or when the open grammar found
    /// no path (then the answer is at best a confirmation).
    public let fitScore: Double?
    /// The fit score without the rival margin's share (`RecognitionThresholds.rivalShare(margin:)`): what the reject
    /// threshold is compared with.
    public let fitScoreWithoutRival: Double?
    /// Seconds of speech-loud audio outside the words heard (see `RecognitionThresholds.unexplainedSpeechSeconds`);
    /// nil without a hypothesis.
    public let unexplainedSpeechSeconds: Double?
    /// Frames (1/100 s) per phone of the flight word spoken fastest, by the pronunciation it was decoded with (see
    /// `RecognitionThresholds.naturalFramesPerPhone`); nil without a hypothesis.
    public let shortestFlightWordFramesPerPhone: Double?
    /// The nearest of today's other flights; nil when it could not change the decision and was not decoded (see
    /// `RecognizerConfiguration.alwaysReadsRival`), or when nothing was heard as a flight.
    public let rivalReading: RivalReading?
    /// Length of the audio in seconds.
    public let audioDuration: Double
    /// Wall-clock seconds spent in the final decode and the confidence pass.
    public let decodeSeconds: Double
    /// Everything measured that the decision was taken on; nil when nothing was heard as words.
    public let features: DecisionFeatures?

    /// Utterance confidence, 0...1: the decision model's probability that the flight heard is the one said (with the hand
    /// thresholds, the fit score mapped to 0.5 at the accept threshold).
    public var confidence: Double { transcript.confidence }
}

extension RecognitionResult {
    /// The result of audio in which no words were heard.
    init(unheard decision: RecognitionDecision, audioDuration: Double, decodeSeconds: Double) {
        self.init(transcript: .empty, decision: decision, candidates: [], alternativeCandidates: [], grammarFlights: [],
                  logLikelihoodRatio: nil, flightWordsRatio: nil, lowestWordRatio: nil, speechFrames: 0, signalToNoiseRatio: nil,
                  openReading: nil, fitScore: nil, fitScoreWithoutRival: nil, unexplainedSpeechSeconds: nil,
                  shortestFlightWordFramesPerPhone: nil, rivalReading: nil, audioDuration: audioDuration, decodeSeconds: decodeSeconds,
                  features: nil)
    }

    /// The result of words heard, measured as `features` and decided as `verdict`; word times are mapped back into the
    /// clip through `keptFrames`, and each alternative is read as flights by `readAlternative`.
    init(features: DecisionFeatures, verdict: Decider.Verdict, keptFrames: KeptFrames,
         readAlternative: (String) -> [FlightCandidate], audioDuration: Double, decodeSeconds: Double) {
        let framesPerSecond = FlightRecognizer.framesPerSecond
        let words = features.words.indices.map { index in
            let word = features.words[index]
            return RecognizedWord(word: FlightRecognizer.baseWord(word.word), start: Double(keptFrames.clipFrame(word.startFrame)) / framesPerSecond,
                                  end: Double(keptFrames.clipFrame(word.endFrame) + 1) / framesPerSecond, confidence: verdict.wordConfidences[index])
        }
        // The open grammar's reading is the first alternative: what the audio says when nothing is forced.
        var alternatives = ([features.openReading.text] + features.alternatives.map(\.text)).filter { !$0.isEmpty && $0 != features.transcript }
        alternatives = alternatives.enumerated().filter { !alternatives.prefix($0.offset).contains($0.element) }.map(\.element)
        self.init(transcript: Transcript(text: features.transcript, words: words, confidence: verdict.confidence, alternatives: alternatives),
                  decision: verdict.decision, candidates: features.candidates, alternativeCandidates: alternatives.map(readAlternative),
                  grammarFlights: features.grammarFlights, logLikelihoodRatio: features.logLikelihoodRatio,
                  flightWordsRatio: features.flightWordsRatio, lowestWordRatio: features.lowestWordRatio, speechFrames: features.speechFrames,
                  signalToNoiseRatio: features.signalToNoiseRatio, openReading: features.openReading, fitScore: verdict.fitScore,
                  fitScoreWithoutRival: verdict.fitScoreWithoutRival, unexplainedSpeechSeconds: features.unexplainedSpeechSeconds,
                  shortestFlightWordFramesPerPhone: features.shortestFlightWordFramesPerPhone, rivalReading: features.rival,
                  audioDuration: audioDuration, decodeSeconds: decodeSeconds, features: features)
    }
}

/// What the utterance says when the grammar does not restrict it to today's flights.
public struct OpenGrammarReading: Sendable, Hashable {
    /// The open grammar's best word sequence ("" when it found no path).
    public let text: String
    /// The flight those words name, today's or not; nil when they name none.
    public let flight: FlightNumber?
    /// The worst flight word (airline or number word) of today's grammar: its acoustic score per frame minus the open
    /// grammar's over the same frames. Near 0 or above when today's flight fits as well as anything flight-shaped; very
    /// negative when a word was forced. Nil when the open grammar found no path.
    public let fitDifference: Double?

    /// The number those words end with, whether or not they name a flight (`OpenFlightGrammar.number(in:)`).
    public var number: Int? { flight?.number ?? OpenFlightGrammar.number(in: text) }
}

/// The utterance decoded again with today's grammar less the flight heard.
public struct RivalReading: Sendable, Hashable {
    /// The best word sequence among today's other flights ("" when there was no path).
    public let text: String
    /// The flight those words name; nil without a path.
    public let flight: FlightNumber?
    /// How much better the heard flight's path scored than the rival's, per frame of the words heard (the decoder's scaled log base, as
    /// the fit score). Near 0 when another of today's flights fits as well; nil without a rival path.
    public let margin: Double?
}

/// What the streaming recognizer reports as audio arrives.
public enum RecognitionEvent: Sendable {
    /// The voice-activity detector heard speech start, at this many seconds from the start of the audio.
    case speechStarted(at: Double)
    /// The current best guess; changes as more audio arrives.
    case partial(String)
    /// The utterance's final result.
    case final(RecognitionResult)
}
