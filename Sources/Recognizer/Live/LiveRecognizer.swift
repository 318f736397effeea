import FlightCore
import Foundation

/// What the live recognizer reports as microphone audio streams in.
public enum LiveEvent: Sendable {
    /// Speech began, this many seconds after listening began.
    case speechStarted(at: Double)
    /// The current best guess of the utterance in progress.
    case partial(String)
    /// An utterance ended and was decoded.
    case final(LiveUtterance)
    /// A sound too short to be a query (a cough, a door) came and went; nothing to answer.
    case discarded
    /// A short reply ("yes", "no", "repeat"), heard while `expectsReply` was set.
    case reply(SpokenReply)
}

/// One decoded live utterance with its timing.
public struct LiveUtterance: Sendable {
    /// The same result the batch path gives for this audio.
    public let result: RecognitionResult
    public let reason: EndpointReason
    /// Where the speech started, in seconds since listening began (the first frame of the onset).
    public let speechStart: Double
    /// Where the speech ended, in seconds since listening began (as the endpointer heard it).
    public let speechEnd: Double
    /// Where the endpointer declared the end, in seconds since listening began.
    public let endpoint: Double
    /// Wall-clock seconds from the end being declared to the result being ready: the decision latency. For an end on
    /// the short silence (`completeFlight`, `decodedFlight`) it counts from the frame at which that silence was
    /// reached, including any wait there for the candidate's decode.
    public let decisionSeconds: Double
    /// True when the result came from the decode started in the background at the candidate end.
    public let speculative: Bool
    /// Where the decode that gave the result started, in seconds since listening began (stream time: the audio
    /// received by then).
    public let decodeStartedAt: Double
    /// Seconds that decode takes on two idle cores, from its threads' CPU time: the longer of today's grammar with the
    /// decision (with the open grammar after it when the rival is predicted, and the rival when decoded after it) and
    /// the comparison passes on the helper thread (and the predicted rival when used).
    public let decodeIdleCoresSeconds: Double
    /// True when that decode's rival was the one decoded alongside for the streaming hypothesis's flights.
    public let rivalDecodedAlongside: Bool
    /// That decode's CPU seconds step by step.
    public let decodeSteps: DecodeSteps
}

/// How the live recognizer listens.
public struct LiveConfiguration: Sendable {
    public var endpointer = EndpointerConfiguration()
    /// Audio kept from before speech started, in seconds: the decode trims the quiet at the edges to
    /// `RecognizerConfiguration.quietKeptAtEdgesSeconds` anyway, and onsets of "f" or "s" are quieter than the
    /// endpointer's threshold.
    public var preRollSeconds = 1.0
    /// Audio before the detected start of speech that is decoded with the utterance, in seconds: enough for a soft
    /// onset ("f", "s") that the endpointer's level threshold misses. More of the room before the words (the pre-roll
    /// is a second) only pulls the decoder's cepstral mean towards silence.
    public var leadDecodedSeconds = 0.25
    /// Decode the candidate end in the background while the endpointer still waits (see `LiveRecognizer`).
    public var speculates = true
    /// Decode the rival alongside today's grammar, for the flights the streaming hypothesis names at the candidate end
    /// (see `RivalPrediction`): the rival is off the critical path when the prediction holds; the result is the same
    /// either way. Off: on human voices the prediction is wrong as often as right, and a wrong one's rival keeps the
    /// second core busy while the right one is decoded after the open grammar; without it, the rival of the flights
    /// heard starts beside the comparisons the moment today's grammar is done, which gave the lower decision p95 on
    /// 24 dev clips (181–250 ms against 321–380) and on 43 clips in all, at a higher one on 11 mostly synthetic clips
    /// whose prediction held (205–227 ms against 148–234; docs/live-and-kiosk.md, "Measured").
    public var predictsRival = false
    /// Utterances with at most this much speech are tried as replies when one is expected, in seconds: "yes please"
    /// takes about 0.8 s; a flight number rarely less than 1.2 s.
    public var longestReplySeconds = 1.2

    public init() {}
}

/// Listens to a continuous stream of audio: finds each query with `Endpointer`, shows partial hypotheses, and
/// answers each query exactly as the batch path would answer its audio.
///
/// How it answers fast without losing accuracy: the batch decode keeps only `quietKeptAtEdgesSeconds` of quiet after
/// the last sound, so the utterance decoded is fixed the moment the quiet after the speech reaches the endpointer's
/// candidate length: the audio up to then, its trailing quiet repeated to the length the decode keeps. That decode
/// starts on a helper thread right then (the second core), while the endpointer still waits to be sure; if speech
/// resumes, it stops at its next pass and its result is thrown away. The result therefore does not depend on timing
/// or on whether the background decode was used.
///
/// Thread rule: not `Sendable`; use from one thread (`RecognitionService` does). It owns its `FlightRecognizer`; the
/// helper thread only runs `FlightRecognizer.decodeSnapshot`, and every method that could disturb it waits first.
public final class LiveRecognizer {
    public let configuration: LiveConfiguration
    let recognizer: FlightRecognizer
    private var endpointer: Endpointer
    private let sampleRate: Int
    private let samplesPerFrame: Int

    /// The audio of the utterance in progress (with its pre-roll), or the pre-roll while waiting.
    private var audio: [Int16] = []
    /// The stream position (in samples) of `audio[0]`.
    private var audioStart = 0
    /// Samples received in all.
    private var received = 0
    /// Samples not yet given to the endpointer (less than a frame's worth).
    private var unframed = 0
    private var inUtterance = false
    /// The stream position (in samples) where the utterance in progress started.
    private var speechStart = 0
    /// The audio of the latest candidate end, and the flights the streaming hypothesis named then (for the rival
    /// decoded alongside, with `predictsRival`).
    private var candidate: (endSample: Int, samples: [Int16], predictedFlights: [FlightNumber])?
    private var speculation: SnapshotDecode?
    /// The decode of `candidate` once it is known (told to the endpointer), and whether it ran in the background.
    private var candidateDecode: CandidateDecode?
    /// When the quiet after the current candidate reached the short silence and the recognizer began waiting for its
    /// decode: where the decision latency of an early end counts from.
    private var shortSilenceReachedAt: ContinuousClock.Instant?
    private var replies: ReplyRecognizer?
    /// Audio of the utterance not yet given to the streaming pass: the quiet after a candidate end. There the streaming
    /// pass only rearranges what was said (a room-noise "o" for "two eight seven"), which helps no one shown or used,
    /// and it would take a share of the two cores from the background decode that gives the answer. Fed to it (its
    /// partial hypotheses unused) only if the traveller speaks again, before the new audio: the pass decodes in fixed
    /// steps, so it reads the same as if fed at once.
    private var heldBack: [Int16] = []
    /// Background decodes stopped because the traveller spoke again before they finished.
    public private(set) var cancelledBackgroundDecodes = 0

    /// Called with the audio of each query as it was decoded for its final answer (for tests: that answer is the batch
    /// answer of this audio).
    var decodedAudio: (([Int16]) -> Void)?

    /// When true, a short utterance is first tried as a reply ("yes", "no", "repeat"): set it while a question or an
    /// answer is on screen. The reply decoder is loaded on first use.
    public var expectsReply = false

    /// Listens with `recognizer` (taken over: use it only through this object from now on).
    public init(recognizer: FlightRecognizer, configuration: LiveConfiguration = LiveConfiguration()) throws {
        self.recognizer = recognizer
        self.configuration = configuration
        endpointer = Endpointer(configuration: configuration.endpointer)
        sampleRate = recognizer.configuration.sampleRate
        samplesPerFrame = Int((Double(sampleRate) * configuration.endpointer.frameSeconds).rounded())
        try recognizer.prepareStreaming()
    }

    deinit { speculation?.wait() }

    /// Switches to a new day's flights between utterances (one in progress is dropped).
    public func load(_ vocabulary: FlightVocabulary) throws {
        speculation?.wait()
        speculation = nil
        reset()
        try recognizer.load(vocabulary)
        try recognizer.prepareStreaming()
    }

    /// Forgets any utterance in progress, e.g. after the microphone was muted while the kiosk spoke.
    public func reset() {
        endpointer.reset()
        heldBack = []
        recognizer.reset()
        inUtterance = false
        candidate = nil
        candidateDecode = nil
        shortSilenceReachedAt = nil
        trimToPreRoll()
    }

    /// Takes the next chunk of microphone audio (16 kHz mono) and returns what happened.
    public func process(_ chunk: [Int16]) throws -> [LiveEvent] {
        var events: [LiveEvent] = []
        audio += chunk
        received += chunk.count
        if inUtterance {
            if endpointer.isAfterCandidateEnd {
                heldBack += chunk
            } else {
                if !heldBack.isEmpty {
                    _ = recognizer.process(heldBack[...])
                    heldBack = []
                }
                feedRecognizer(chunk[...], into: &events)
            }
        }
        unframed += chunk.count
        while unframed >= samplesPerFrame {
            let frameEnd = received - unframed + samplesPerFrame
            unframed -= samplesPerFrame
            let frame = audio[(frameEnd - samplesPerFrame - audioStart)..<(frameEnd - audioStart)]
            try reportCandidateDecode()
            let wasAfterCandidateEnd = endpointer.isAfterCandidateEnd
            if let event = endpointer.advance(level: Endpointer.level(of: frame)) {
                try handle(event, into: &events)
            }
            if wasAfterCandidateEnd, endpointer.isInUtterance, !endpointer.isAfterCandidateEnd, let speculation, speculation.isRunning {
                // The traveller spoke again: that candidate's decode can no longer be the answer, and the next
                // candidate's would wait for it.
                speculation.cancel()
                cancelledBackgroundDecodes += 1
            }
        }
        if !inUtterance { trimToPreRoll() }
        return events
    }

    /// Ends the stream: an utterance in progress is decoded now.
    public func finish() throws -> [LiveEvent] {
        var events: [LiveEvent] = []
        if let event = endpointer.endOfAudio() { try handle(event, into: &events) }
        return events
    }

    /// What a decode of the audio so far that decided `decision` says about whether the query is over, given the
    /// number the open grammar (which may read any flight number) read. Cut off mid-number ("L X four…"), the utterance
    /// is forced onto some flight of today's by today's grammar (LX 40, LX 412), while the open grammar reads the
    /// fragment (LX 4): its number is the first digits of that flight's, whatever airline it heard, if any (on our pause
    /// clips "v y six two five…" read BY 625 for VY 6258, and "4 U eight zero five…" was forced onto 4U 8052). An
    /// accepted flight that is not such a fragment ends the query after the short silence; a "did you mean" that is not
    /// one after the medium silence (`doubtfulFlightSilenceSeconds`): ending on one after the short silence cost 3 of 60
    /// clean human dev clips their exact answer (speakers pausing inside the number, cut at the pause and asked about a
    /// flight they had not finished). A "did you mean" whose number starts a longer one of today's, of any airline, is
    /// a fragment too. Without a number read by the open grammar, the other rules decide.
    ///
    /// The flight heard is a fragment too when today's grammar's words for it end inside a longer number of today's
    /// (`heardEndsInsideNumber`, `FlightGrammar.endsInsideNumber`): "l x one five…" is LX 15, which flies, and the start
    /// of LX 1596, which flies too, and both grammars read it whole. Answering there sent 2 of 30 pause clips
    /// (`scripts/live/make-pause-set.py`) to LX 15's gate; waiting the long silence costs 0.6 s only to the queries
    /// whose words start another flight's (LX 40 said "four zero" while LX 400 flies).
    ///
    /// A refusal is `wholeNumberRefused` when the open grammar read a number that no flight of today's list continues
    /// (`continuesSomeFlight` false: "e t flight two three four" where no flight's number starts with 234, or four
    /// digits, which nothing continues) in audio at least `wholeNumberMinimumSNR` dB over its noise: whatever the
    /// traveller said next could not make it one of today's flights, so the long wait would only delay the request to
    /// say it again. A number some flight continues ("L X four…", any airline, as above) keeps the long wait.
    static func reading(decision: RecognitionDecision, heardEndsInsideNumber: Bool, openGrammarNumber: Int?,
                        signalToNoise: Double?, wholeNumberMinimumSNR: Double, continuesSomeFlight: (Int) -> Bool) -> CandidateReading {
        let flight: FlightNumber
        switch decision {
        case .accepted(let accepted): flight = accepted
        case .confirm(let suggested) where !suggested.isEmpty: flight = suggested[0]
        case .rejected:
            guard let openGrammarNumber, let signalToNoise, signalToNoise >= wholeNumberMinimumSNR,
                  !continuesSomeFlight(openGrammarNumber) else { return .undecided }
            return .wholeNumberRefused
        default: return .undecided
        }
        if heardEndsInsideNumber { return .fragment }
        guard let openGrammarNumber else { return .undecided }
        let said = String(flight.number), read = String(openGrammarNumber)
        if read != said && said.hasPrefix(read) { return .fragment }
        if decision.acceptedFlight != nil { return .wholeFlight }
        // In doubt, the airline may be misheard too: "l h two three seven…" was heard as LX 237 while LH 2374 flies.
        return continuesSomeFlight(flight.number) ? .fragment : .doubtfulFlight
    }

    /// Tells the endpointer what the decode of the current candidate said, once it is known: at once when the background
    /// decode has finished; when the endpointer could end on it with the next frame, after waiting for that decode
    /// (or decoding now, without one), so the end comes the moment the answer is known.
    private func reportCandidateDecode() throws {
        guard let candidate, candidateDecode?.endSample != candidate.endSample, endpointer.isAfterCandidateEnd else { return }
        if configuration.speculates, speculation?.endSample != candidate.endSample, speculation?.isRunning != true {
            // The background decode of an earlier candidate was still running when this one came: start this one's now.
            speculation = SnapshotDecode(recognizer: recognizer, samples: candidate.samples, endSample: candidate.endSample,
                                         startedAt: seconds(received), predictedFlights: candidate.predictedFlights)
        }
        let decoded: CandidateDecode
        if let speculation, speculation.endSample == candidate.endSample {
            guard !speculation.isRunning || endpointer.awaitsCandidateDecode else { return }
            if endpointer.awaitsCandidateDecode { shortSilenceReachedAt = ContinuousClock.now }
            decoded = try speculation.decoded()
        } else {
            guard endpointer.awaitsCandidateDecode else { return }
            shortSilenceReachedAt = ContinuousClock.now
            speculation?.wait()
            decoded = try decodeNow(candidate.samples, endSample: candidate.endSample, predictedFlights: candidate.predictedFlights)
        }
        candidateDecode = decoded
        endpointer.candidateDecoded(Self.reading(decision: decoded.result.decision,
                                                 heardEndsInsideNumber: recognizer.grammar.endsInsideNumber(decoded.result.transcript.text),
                                                 openGrammarNumber: decoded.result.openReading?.number,
                                                 signalToNoise: decoded.result.signalToNoiseRatio,
                                                 wholeNumberMinimumSNR: configuration.endpointer.wholeNumberMinimumSNR,
                                                 continuesSomeFlight: recognizer.vocabulary.continuesSomeFlight))
    }

    /// Decodes `samples` on this thread, timed.
    private func decodeNow(_ samples: [Int16], endSample: Int, predictedFlights: [FlightNumber]) throws -> CandidateDecode {
        let started = seconds(received)
        let (result, cost) = try recognizer.decodeSnapshot(samples, predictedFlights: predictedFlights, rivalBesideComparisons: true,
                                                           neuralBesideComparisons: true)
        return CandidateDecode(endSample: endSample, samples: samples, result: result, speculative: false, startedAt: started,
                               idleCoresSeconds: cost.idleCoresSeconds, rivalDecodedAlongside: cost.predictionCPUSeconds != nil, steps: cost.steps)
    }

    private func handle(_ event: EndpointEvent, into events: inout [LiveEvent]) throws {
        switch event {
        case .speechStarted(let frame):
            inUtterance = true
            speechStart = frame * samplesPerFrame
            candidate = nil
            recognizer.reset()
            events.append(.speechStarted(at: seconds(frame * samplesPerFrame)))
            feedRecognizer(audio[...], into: &events)
        case .candidateEnd(let frame, let lastSpeechFrame):
            let end = frame * samplesPerFrame
            let snapshot = utteranceAudio(until: end, lastSpeech: lastSpeechFrame * samplesPerFrame)
            let predicted = predictedFlights()
            candidate = (end, snapshot, predicted)
            shortSilenceReachedAt = nil
            if configuration.speculates, speculation?.isRunning != true {
                speculation = SnapshotDecode(recognizer: recognizer, samples: snapshot, endSample: end, startedAt: seconds(received),
                                             predictedFlights: predicted)
            }
        case .ended(let frame, let lastSpeechFrame, let reason):
            let clock = ContinuousClock()
            let declared = reason == .completeFlight || reason == .decodedFlight ? shortSilenceReachedAt ?? clock.now : clock.now
            let lastSpeech = lastSpeechFrame * samplesPerFrame
            if expectsReply, Double(lastSpeech - speechStart) <= configuration.longestReplySeconds * Double(sampleRate) {
                let replies = try self.replies ?? ReplyRecognizer(configuration: recognizer.configuration)
                self.replies = replies
                if let heard = try replies.reply(in: utteranceAudio(until: frame * samplesPerFrame, lastSpeech: lastSpeech)) {
                    speculation?.wait()
                    speculation = nil
                    events.append(.reply(heard.reply))
                    endUtterance()
                    return
                }
            }
            let decoded: CandidateDecode
            if let candidate, candidate.endSample >= lastSpeech {
                if let known = candidateDecode, known.endSample == candidate.endSample {
                    decoded = known
                } else if let speculation, speculation.endSample == candidate.endSample {
                    decoded = try speculation.decoded()
                } else {
                    speculation?.wait()
                    decoded = try decodeNow(candidate.samples, endSample: candidate.endSample, predictedFlights: candidate.predictedFlights)
                }
            } else {
                speculation?.wait()
                let end = frame * samplesPerFrame
                decoded = try decodeNow(utteranceAudio(until: end, lastSpeech: lastSpeech), endSample: end, predictedFlights: predictedFlights())
            }
            speculation = nil
            candidateDecode = nil
            decodedAudio?(decoded.samples)
            events.append(.final(LiveUtterance(result: decoded.result, reason: reason, speechStart: seconds(speechStart),
                                               speechEnd: seconds(lastSpeech),
                                               endpoint: seconds(frame * samplesPerFrame), decisionSeconds: (clock.now - declared).seconds,
                                               speculative: decoded.speculative, decodeStartedAt: decoded.startedAt,
                                               decodeIdleCoresSeconds: decoded.idleCoresSeconds,
                                               rivalDecodedAlongside: decoded.rivalDecodedAlongside, decodeSteps: decoded.steps)))
            endUtterance()
        case .discarded:
            events.append(.discarded)
            endUtterance()
        }
    }

    private func endUtterance() {
        inUtterance = false
        heldBack = []
        candidate = nil
        candidateDecode = nil
        shortSilenceReachedAt = nil
        recognizer.reset()
        trimToPreRoll()
    }

    private func feedRecognizer(_ samples: ArraySlice<Int16>, into events: inout [LiveEvent]) {
        for event in recognizer.process(samples) {
            if case .partial(let text) = event {
                endpointer.hypothesisChanged(isCompleteFlight: recognizer.namesCompleteFlight(text))
                // The rival the decode will predict, compiled on the second core while the traveller finishes.
                let named = recognizer.streamingFlights
                if !named.isEmpty, configuration.predictsRival { try? recognizer.prepareRival(excluding: named) }
                events.append(.partial(text))
            }
        }
    }

    /// The utterance as it is decoded: the audio up to stream sample `end`, then the room's own quiet until the quiet
    /// after `lastSpeech` is as long as the batch decode keeps. The quiet repeated is the background heard before the
    /// speech started (the tail after `lastSpeech` can still hold a word's faint ending, which repeated reads as more
    /// words); when there was none, the tail itself.
    private func utteranceAudio(until end: Int, lastSpeech: Int) -> [Int16] {
        let first = max(0, min(audio.count, speechStart - Int(configuration.leadDecodedSeconds * Double(sampleRate)) - audioStart))
        var samples = Array(audio[first..<max(first, min(audio.count, end - audioStart))])
        let wanted = Int(recognizer.configuration.quietKeptAtEdgesSeconds * Double(sampleRate))
        var trailing = max(0, end - lastSpeech)
        let margin = Int(configuration.endpointer.onsetWindowSeconds * Double(sampleRate))
        let before = max(0, min(audio.count, speechStart - audioStart - margin))
        let tail = max(0, min(audio.count, lastSpeech - audioStart))..<max(0, min(audio.count, end - audioStart))
        let quiet = before > 0 ? Array(audio[0..<before]) : Array(audio[tail])
        guard !quiet.isEmpty else { return samples }
        while trailing < wanted {
            let piece = quiet.prefix(wanted - trailing)
            samples += piece
            trailing += piece.count
        }
        return samples
    }

    private func trimToPreRoll() {
        let keep = Int(configuration.preRollSeconds * Double(sampleRate)) + unframed
        guard !inUtterance, audio.count > keep else { return }
        let drop = audio.count - keep
        audio.removeFirst(drop)
        audioStart += drop
    }

    /// What the rival decoded alongside is predicted for: the flights the streaming hypothesis names (read on this
    /// thread, before a decode starts), or none when `predictsRival` is off.
    private func predictedFlights() -> [FlightNumber] {
        configuration.predictsRival ? recognizer.streamingFlights : []
    }

    private func seconds(_ samples: Int) -> Double { Double(samples) / Double(sampleRate) }
}

/// One background decode of a candidate utterance on a helper thread.
///
/// Safety of `@unchecked Sendable`: the helper thread calls only `FlightRecognizer.decodeSnapshot` (see its thread
/// rule) and writes `outcome` before signalling; the owner reads `outcome` only after waiting.
private final class SnapshotDecode: @unchecked Sendable {
    let endSample: Int
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private let cancellation = DecodeCancellation()
    private var running = true
    private var waited = false
    private var outcome: Result<CandidateDecode, any Error>?

    /// Starts decoding `samples`, the candidate ending at stream sample `endSample`; `startedAt` is the stream time now.
    init(recognizer: FlightRecognizer, samples: [Int16], endSample: Int, startedAt: Double, predictedFlights: [FlightNumber]) {
        self.endSample = endSample
        let box = UncheckedRecognizer(recognizer: recognizer)
        let thread = Thread { [self] in
            let result = Result {
                let (result, cost) = try box.recognizer.decodeSnapshot(samples, predictedFlights: predictedFlights, rivalBesideComparisons: true,
                                                                       neuralBesideComparisons: true, cancellation: cancellation)
                return CandidateDecode(endSample: endSample, samples: samples, result: result, speculative: true, startedAt: startedAt,
                                       idleCoresSeconds: cost.idleCoresSeconds, rivalDecodedAlongside: cost.predictionCPUSeconds != nil, steps: cost.steps)
            }
            lock.withLock {
                outcome = result
                running = false
            }
            done.signal()
        }
        thread.name = "FlightVoice.speculative-decode"
        thread.start()
    }

    var isRunning: Bool { lock.withLock { running } }

    /// Stops the decode at its next pass boundary (see `DecodeCancellation`); `decoded()` then throws.
    func cancel() { cancellation.cancel() }

    /// Waits for the decode to finish; safe to call more than once.
    func wait() {
        guard !waited else { return }
        waited = true
        done.wait()
    }

    func decoded() throws -> CandidateDecode {
        wait()
        return try outcome!.get()
    }
}

/// A finished decode of a candidate utterance, with where it started and what it cost.
private struct CandidateDecode: Sendable {
    let endSample: Int
    /// The audio decoded.
    let samples: [Int16]
    let result: RecognitionResult
    /// True when it ran in the background.
    let speculative: Bool
    /// Stream seconds when it started.
    let startedAt: Double
    /// What it takes on two idle cores (`DecodeCost.idleCoresSeconds`).
    let idleCoresSeconds: Double
    /// True when its rival was decoded alongside (`RivalPrediction`).
    let rivalDecodedAlongside: Bool
    let steps: DecodeSteps
}


/// Carries the recognizer to the helper thread (see `SnapshotDecode`).
private struct UncheckedRecognizer: @unchecked Sendable {
    let recognizer: FlightRecognizer
}
