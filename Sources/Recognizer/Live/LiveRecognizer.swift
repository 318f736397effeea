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
    /// Where the speech ended, in seconds since listening began (as the endpointer heard it).
    public let speechEnd: Double
    /// Where the endpointer declared the end, in seconds since listening began.
    public let endpoint: Double
    /// Wall-clock seconds from the end being declared to the result being ready: the decision latency.
    public let decisionSeconds: Double
    /// True when the result came from the decode started in the background at the candidate end.
    public let speculative: Bool
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
/// resumes, the result is thrown away. The result therefore does not depend on timing or on whether the background
/// decode was used.
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
    private var candidate: (endSample: Int, samples: [Int16])?
    private var speculation: SnapshotDecode?
    private var replies: ReplyRecognizer?

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
        recognizer.reset()
        inUtterance = false
        candidate = nil
        trimToPreRoll()
    }

    /// Takes the next chunk of microphone audio (16 kHz mono) and returns what happened.
    public func process(_ chunk: [Int16]) throws -> [LiveEvent] {
        var events: [LiveEvent] = []
        audio += chunk
        received += chunk.count
        if inUtterance { feedRecognizer(chunk[...], into: &events) }
        unframed += chunk.count
        while unframed >= samplesPerFrame {
            let frameEnd = received - unframed + samplesPerFrame
            unframed -= samplesPerFrame
            let frame = audio[(frameEnd - samplesPerFrame - audioStart)..<(frameEnd - audioStart)]
            if let event = endpointer.advance(level: Endpointer.level(of: frame)) {
                try handle(event, into: &events)
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
            candidate = (end, snapshot)
            if configuration.speculates, speculation?.isRunning != true {
                speculation = SnapshotDecode(recognizer: recognizer, samples: snapshot, endSample: end)
            }
        case .ended(let frame, let lastSpeechFrame, let reason):
            let clock = ContinuousClock()
            let declared = clock.now
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
            var speculative = false
            let result: RecognitionResult
            if let candidate, candidate.endSample >= lastSpeech {
                if let speculation, speculation.endSample == candidate.endSample {
                    result = try speculation.result()
                    speculative = true
                } else {
                    speculation?.wait()
                    result = try recognizer.decodeSnapshot(candidate.samples)
                }
            } else {
                speculation?.wait()
                result = try recognizer.decodeSnapshot(utteranceAudio(until: frame * samplesPerFrame, lastSpeech: lastSpeech))
            }
            speculation = nil
            events.append(.final(LiveUtterance(result: result, reason: reason, speechEnd: seconds(lastSpeech), endpoint: seconds(frame * samplesPerFrame),
                                               decisionSeconds: (clock.now - declared).seconds, speculative: speculative)))
            endUtterance()
        case .discarded:
            events.append(.discarded)
            endUtterance()
        }
    }

    private func endUtterance() {
        inUtterance = false
        candidate = nil
        recognizer.reset()
        trimToPreRoll()
    }

    private func feedRecognizer(_ samples: ArraySlice<Int16>, into events: inout [LiveEvent]) {
        for event in recognizer.process(samples) {
            // In the quiet after a candidate end the live pass only rearranges what was said (a room-noise "o" for
            // "two eight seven"); showing that, or letting it delay the end, helps no one.
            if case .partial(let text) = event, !endpointer.isAfterCandidateEnd {
                endpointer.hypothesisChanged(isCompleteFlight: recognizer.namesCompleteFlight(text))
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
    private var running = true
    private var waited = false
    private var outcome: Result<RecognitionResult, any Error>?

    init(recognizer: FlightRecognizer, samples: [Int16], endSample: Int) {
        self.endSample = endSample
        let box = UncheckedRecognizer(recognizer: recognizer)
        let thread = Thread { [self] in
            let result = Result { try box.recognizer.decodeSnapshot(samples) }
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

    /// Waits for the decode to finish; safe to call more than once.
    func wait() {
        guard !waited else { return }
        waited = true
        done.wait()
    }

    func result() throws -> RecognitionResult {
        wait()
        return try outcome!.get()
    }
}

/// Carries the recognizer to the helper thread (see `SnapshotDecode`).
private struct UncheckedRecognizer: @unchecked Sendable {
    let recognizer: FlightRecognizer
}
