import Foundation

/// The numbers that decide when a spoken query starts and ends. Every value is in seconds or dB and documented with
/// why it has that value.
public struct EndpointerConfiguration: Sendable, Hashable {
    /// Length of one analysis frame, in seconds (the decoder's 100 frames per second).
    public var frameSeconds = 0.01
    /// Frames averaged into one level, in seconds: long enough to smooth single-frame clicks, short enough to follow
    /// the dip between two words.
    public var levelSmoothingSeconds = 0.03
    /// A frame is speech when its level is this many dB over the noise floor: room noise wanders by a few dB, speech
    /// stands 15–40 dB above it.
    public var speechAboveNoise = 10.0
    /// ...and at least this loud, in dBFS: keeps the digital silence of a muted or file-backed device from making
    /// faint hiss look like speech.
    public var minimumSpeechLevel = -55.0
    /// Within an utterance, a frame right after a speech frame stays speech down to this many dB under the speech
    /// threshold (hysteresis): a word's last sounds fade into the room, and in noise the threshold cut them off (on the
    /// corpus's 10 dB clips the speech heard ended a median 0.13 s before the clean clip's), so the candidate's decode
    /// had the room where a faint last digit was ("w k four one… two" answered WK 41). Chosen on the dev sets with
    /// `eval --live` (0 dB before): 120 noisy human dev voices 50.0% exact and 3 wrong flights → 53.3% and 1 (7 dB:
    /// 51.7% and 1), 60 clean ones 80.0% and 2 → 81.7% and 1 (7 dB: 78.3% and 2), dev-q's 308 40.3% and 7 → 40.3% and
    /// 6; the pause set unchanged. More lets the room hold the word open.
    public var speechReleaseBelowThreshold = 4.0
    /// The noise floor is the quietest smoothed level over this window, in seconds (minimum statistics): it follows
    /// a fan switching on within the window and never mistakes a sentence for noise, because speech dips between words.
    public var noiseWindowSeconds = 2.0
    /// Speech starts after this much speech within `onsetWindowSeconds`: a click or a tap is shorter.
    public var onsetSpeechSeconds = 0.08
    /// See `onsetSpeechSeconds`.
    public var onsetWindowSeconds = 0.12
    /// An utterance with less speech than this is a cough, a door or a tap: dropped without an answer. "L X forty"
    /// holds about a second of speech; a single short word "yes" about 0.3 s.
    public var minimumSpeechSeconds = 0.25
    /// Trailing quiet after which the audio so far is worth decoding in the background, in case no more speech comes:
    /// the decode then runs while the endpointer still waits.
    public var candidateSilenceSeconds = 0.12
    /// Trailing quiet that ends an utterance whose live hypothesis is a complete flight of today's list and has not
    /// changed for `stableHypothesisSeconds`, unless the decode of the candidate, once known, named no whole flight
    /// (`CandidateReading.wholeFlight`): a "did you mean" then waits `doubtfulFlightSilenceSeconds`, anything else
    /// `incompleteSilenceSeconds`. The streaming hypothesis names a flight whole at a pause mid-number as readily as at
    /// the end ("w k flight sixty… five"); once it followed the query's own cepstral mean
    /// (`RecognizerConfiguration.streamingMeanPriorFrames`) it did so on 93 of 120 noisy human dev clips, and ending
    /// there whatever the decode read cost 3 of them their exact answer.
    public var completeSilenceSeconds = 0.3
    /// See `completeSilenceSeconds`.
    public var stableHypothesisSeconds = 0.25
    /// Trailing quiet that ends an utterance whose whole-utterance decode (the final answer's, of the audio up to the
    /// candidate end) named a whole flight of today's list (`CandidateReading.wholeFlight`): the final reading, not the
    /// streaming pass's guess, says the flight is whole, so the short wait suffices. Still the short wait, not the
    /// candidate's: a pause between words ("L X … forty") is often longer than the candidate's quiet.
    public var decodedFlightSilenceSeconds = 0.3
    /// Trailing quiet that ends an utterance whose decode of the audio up to the candidate end asks "did you mean" a
    /// flight that the open grammar did not read a fragment of (`CandidateReading.doubtfulFlight`): the words were
    /// heard whole and only the confidence is short, so the long wait would only delay the question; still longer than
    /// the short silence, because a "did you mean" is more often a traveller cut at a pause (ending such queries after
    /// the short silence cost 3 of 60 human dev clips their exact answer).
    public var doubtfulFlightSilenceSeconds = 0.6
    /// The least SNR (dB, the decode's estimate) at which a refusal of a number no flight of today's continues ends the
    /// query after the medium silence (`CandidateReading.wholeNumberRefused`). Speech counts as speech only
    /// `speechAboveNoise` (10 dB) over the floor, so under 20 dB the weaker half of the traveller's words can sit below
    /// it and read as a pause, and the open grammar reads digits into the noise: on `make training-set`'s dev-q a 5 dB
    /// clip (estimated 12 dB) was cut 0.7 s into "tango golf seven five three six" on a number read from its first
    /// words, and without the gate two corpus clips at 12 and 15 dB each lost a right answer; over 20 dB none of 308
    /// dev-q, 180 human dev or 30 pause-set clips (`scripts/live/make-pause-set.py`) lost an answer.
    public var wholeNumberMinimumSNR = 20.0
    /// The short and medium silences (`completeSilenceSeconds`, `decodedFlightSilenceSeconds`,
    /// `doubtfulFlightSilenceSeconds`) last at least this many times the longest pause the traveller has made inside
    /// the utterance so far (capped at `incompleteSilenceSeconds`): a traveller who spells the number digit by digit
    /// with 0.3–0.5 s between digits, as many human dev speakers do, is not cut at the next such pause. On the human dev
    /// clips (dev-h4) 5 of 60 ended at such a pause on a complete, stable streaming hypothesis ("a y one five… one
    /// four" answered AY 1521), each after an earlier pause at least 0.8 times as long. Our synthetic dev clips pause
    /// less than 0.3 s between words (one exception in 60), so their waits do not change.
    public var shortSilencePerLongestPause = 1.25
    /// Trailing quiet that ends any other utterance: long, because a traveller pauses mid-number ("L X four… forty")
    /// and decoding the query cut at a pause answers the wrong flight.
    public var incompleteSilenceSeconds = 0.9
    /// The longest utterance, in seconds: a passing announcement must not keep the kiosk listening forever.
    public var maximumUtteranceSeconds = 8.0
    /// Within an utterance a frame is speech only when it is also this many dB over the room's typical level before
    /// the traveller spoke (the median smoothed level of the last `noiseWindowSeconds` heard outside utterances), but
    /// this second threshold never rises above `ambientGateBelowSpeech` under the utterance's own speech.
    /// Announcements, babble and clatter stand 10 dB over their own quiet moments, which the noise floor follows, so by
    /// the floor alone such noise going on after the last word is speech and holds the query open: with 6 s of the dev
    /// split's noise after each of its 126 noisy flight clips, 6 queries ran to the maximum length (1 with this rule),
    /// 5 answered a wrong flight (3). In a quiet room or steady noise the typical level is within a few dB of the
    /// floor, and `speechAboveNoise` decides.
    public var speechAboveAmbient = 6.0
    /// The cap on `speechAboveAmbient`'s threshold, in dB under the median level of the utterance's speech frames so
    /// far; the threshold applies once `ambientGateSpeechSeconds` of speech is heard. A recording that opens on its
    /// words, or a feed whose first utterance starts on the noise itself, gives the speech's own level as "the room":
    /// uncapped, the rule discarded such queries (16 corpus clips heard as no speech in `eval --live`, against 11).
    /// The cap lets the rule act only where the traveller is clearly louder than the room.
    public var ambientGateBelowSpeech = 6.0
    /// See `ambientGateBelowSpeech`.
    public var ambientGateSpeechSeconds = 0.1

    public init() {}

    func frames(_ seconds: Double) -> Int { max(1, Int((seconds / frameSeconds).rounded())) }
}

/// What the whole-utterance decode of the audio up to a candidate end says about whether the query is over.
public enum CandidateReading: Sendable, Hashable {
    /// A flight of today's, accepted, that the open grammar read whole too: the short silence ends the query
    /// (`decodedFlight`).
    case wholeFlight
    /// The open grammar read only the first digits of the flight today's grammar forced the audio onto ("L X four…"
    /// read LX 4, forced onto LX 40), or the words heard name a flight and start a longer one of today's ("l x one
    /// five…": LX 15 or LX 154): a traveller pausing mid-number. Only the long silence ends the query, even when the
    /// streaming hypothesis names a complete flight.
    case fragment
    /// A "did you mean" of a flight that the open grammar did not read a fragment of: the medium silence ends the query
    /// (`doubtfulFlight`).
    case doubtfulFlight
    /// A refusal of a number the open grammar read whole: no flight of today's list continues it
    /// (`LiveRecognizer.reading`). The medium silence ends the query (`doubtfulFlightSilenceSeconds`), so that "please
    /// say it again" comes as soon as a "did you mean" would.
    case wholeNumberRefused
    /// None of these: the other rules decide.
    case undecided
}

/// Why an utterance ended.
public enum EndpointReason: String, Sendable, Hashable {
    /// The hypothesis named a complete flight and had been stable: ended after the short silence.
    case completeFlight = "complete_flight"
    /// The decode of the audio up to the candidate end named a whole flight: ended after the short silence.
    case decodedFlight = "decoded_flight"
    /// The decode of the audio up to the candidate end asked "did you mean" a whole flight: ended after the medium
    /// silence.
    case doubtfulFlight = "doubtful_flight"
    /// The decode of the audio up to the candidate end refused a number that no flight of today's continues: ended
    /// after the medium silence.
    case wholeNumberRefused = "whole_number_refused"
    /// Ended after the long trailing silence.
    case trailingSilence = "trailing_silence"
    /// Reached the maximum utterance length.
    case maximumLength = "maximum_length"
    /// The audio stream ended.
    case endOfAudio = "end_of_audio"
}

/// What the endpointer decided at a frame.
public enum EndpointEvent: Sendable, Hashable {
    /// Speech began; `frame` is the first frame of the onset.
    case speechStarted(frame: Int)
    /// Enough trailing quiet that the audio up to `frame` (exclusive) may be the whole query; its speech ended at
    /// `lastSpeechFrame` (exclusive).
    case candidateEnd(frame: Int, lastSpeechFrame: Int)
    /// The utterance ended at `frame` (exclusive); its speech ended at `lastSpeechFrame` (exclusive).
    case ended(frame: Int, lastSpeechFrame: Int, reason: EndpointReason)
    /// The sound was too short to be a query (a cough, a door); nothing to answer.
    case discarded(frame: Int)
}

/// Decides where a spoken query starts and ends from the level of each 10 ms frame and from whether the live
/// hypothesis names a complete flight. Pure and deterministic: feed it frame by frame (tests use tables of levels).
///
/// Ends early (`completeSilenceSeconds`) when the hypothesis is a complete, stable flight (unless the decode of the
/// candidate, once known, named no whole flight) or (`decodedFlightSilenceSeconds`) when the decode of the candidate
/// named a whole flight, sooner than late (`doubtfulFlightSilenceSeconds`) when that decode asks "did you mean" a whole flight,
/// late (`incompleteSilenceSeconds`) when it is still mid-number, and always by `maximumUtteranceSeconds`; the early
/// and medium waits are lengthened to the traveller's pace (`shortSilencePerLongestPause`).
public struct Endpointer: Sendable {
    public let configuration: EndpointerConfiguration

    private enum State: Sendable {
        case waiting
        case speaking(start: Int, speechFrames: Int, lastSpeech: Int, candidateSent: Bool)
    }

    /// The longest quiet between two stretches of sustained speech in the utterance in progress, in frames.
    private var longestPause = 0

    private var state = State.waiting
    private var frame = 0
    private var recentPowers: [Double] = []
    private var smoothedLevels: [Double] = []
    /// The smoothed levels of the last `noiseWindowSeconds` heard outside utterances, and their median at the start
    /// of the utterance in progress (`speechAboveAmbient`).
    private var levelsOutsideUtterances: [Double] = []
    private var ambientLevel = -120.0
    /// The smoothed levels of the utterance's speech frames so far (`ambientGateBelowSpeech`).
    private var utteranceSpeechLevels: [Double] = []
    private var recentSpeech: [Bool] = []
    private var hypothesisComplete = false
    private var hypothesisChangedAt = 0
    /// What the decode of the current candidate said: nil until it is reported (or when there is no candidate).
    private var candidateReading: CandidateReading?

    public init(configuration: EndpointerConfiguration = EndpointerConfiguration()) {
        self.configuration = configuration
    }

    /// The number of frames seen so far.
    public var framesSeen: Int { frame }
    /// True from a candidate end until speech resumes: the audio since is quiet.
    public var isAfterCandidateEnd: Bool { if case .speaking(_, _, _, let candidateSent) = state { candidateSent } else { false } }
    /// True between speech start and the end of the utterance.
    public var isInUtterance: Bool { if case .speaking = state { true } else { false } }

    /// The level of a frame of 16-bit samples in dBFS (mean power; -120 for digital silence).
    public static func level(of samples: ArraySlice<Int16>) -> Double {
        guard !samples.isEmpty else { return -120 }
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        let power = sum / Double(samples.count)
        return power > 0 ? max(-120, 10 * log10(power / (32768.0 * 32768.0))) : -120
    }

    /// Tells the endpointer the live hypothesis changed and whether it now names a complete flight of today's list.
    public mutating func hypothesisChanged(isCompleteFlight: Bool) {
        hypothesisComplete = isCompleteFlight
        hypothesisChangedAt = frame
    }

    /// Tells the endpointer the decode of the latest candidate (`candidateEnd`) finished and what it read. Ignored when
    /// speech has resumed since that candidate.
    public mutating func candidateDecoded(_ reading: CandidateReading) {
        guard isAfterCandidateEnd else { return }
        candidateReading = reading
    }

    /// True when the next frame could end the utterance on the candidate's decode, if only it were reported: the
    /// quiet has reached `decodedFlightSilenceSeconds` after a candidate whose decode has not been reported yet.
    /// A caller with that decode under way can wait for it here, and the end then comes the moment it is known.
    public var awaitsCandidateDecode: Bool {
        guard case .speaking(_, _, let lastSpeech, true) = state, candidateReading == nil else { return false }
        return frame + 1 - lastSpeech >= shortSilence(configuration.decodedFlightSilenceSeconds)
    }

    /// A short silence of `seconds`, in frames, lengthened to the traveller's pace (`shortSilencePerLongestPause`).
    private func shortSilence(_ seconds: Double) -> Int {
        let paced = Int((Double(longestPause) * configuration.shortSilencePerLongestPause).rounded(.up))
        return min(max(configuration.frames(seconds), paced), configuration.frames(configuration.incompleteSilenceSeconds))
    }

    /// True when the last `onsetWindowSeconds` hold at least `onsetSpeechSeconds` of speech-loud frames: what starts a
    /// query, and what continues one.
    private var soundIsSustained: Bool {
        recentSpeech.filter { $0 }.count >= configuration.frames(configuration.onsetSpeechSeconds)
    }

    /// Takes the next frame's level (dBFS) and returns what that decided, if anything.
    public mutating func advance(level: Double) -> EndpointEvent? {
        defer { frame += 1 }
        let isSpeech = classify(level)
        switch state {
        case .waiting:
            guard isSpeech, soundIsSustained else { return nil }
            let start = frame - configuration.frames(configuration.onsetWindowSeconds) + 1
            state = .speaking(start: max(0, start), speechFrames: configuration.frames(configuration.onsetSpeechSeconds),
                              lastSpeech: frame + 1, candidateSent: false)
            hypothesisComplete = false
            hypothesisChangedAt = frame
            ambientLevel = Self.median(levelsOutsideUtterances) ?? -120
            utteranceSpeechLevels = []
            return .speechStarted(frame: max(0, start))
        case .speaking(let start, var speechFrames, var lastSpeech, var candidateSent):
            if isSpeech { speechFrames += 1 }
            // Only sustained sound continues the query: a tick, a breath or a click in the room after the last word
            // (a frame or three above the floor) must not restart the trailing silence, or a query in a room with
            // such sounds ends only at the maximum length. Speech holds `onsetSpeechSeconds` within any
            // `onsetWindowSeconds`, as at its start; a word's fading end is within the window of the word itself.
            if isSpeech, soundIsSustained {
                // The trailing silence as counted below until this sustained sound resumed the query.
                longestPause = max(longestPause, frame - lastSpeech)
                lastSpeech = frame + 1
                candidateSent = false
                candidateReading = nil
            }
            let end = frame + 1
            let silence = end - lastSpeech
            let length = end - start
            var event: EndpointEvent?
            if length >= configuration.frames(configuration.maximumUtteranceSeconds) {
                event = finished(end, lastSpeech, speechFrames, .maximumLength)
            } else if isSpeech {
                // Sound that may yet prove sustained: not quiet to end on.
            } else if hypothesisComplete, candidateReading == nil || candidateReading == .wholeFlight,
                      silence >= shortSilence(configuration.completeSilenceSeconds),
                      end - hypothesisChangedAt >= configuration.frames(configuration.stableHypothesisSeconds) {
                event = finished(end, lastSpeech, speechFrames, .completeFlight)
            } else if candidateSent, candidateReading == .wholeFlight, silence >= shortSilence(configuration.decodedFlightSilenceSeconds) {
                event = finished(end, lastSpeech, speechFrames, .decodedFlight)
            } else if candidateSent, candidateReading == .doubtfulFlight, silence >= shortSilence(configuration.doubtfulFlightSilenceSeconds) {
                event = finished(end, lastSpeech, speechFrames, .doubtfulFlight)
            } else if candidateSent, candidateReading == .wholeNumberRefused, silence >= shortSilence(configuration.doubtfulFlightSilenceSeconds) {
                event = finished(end, lastSpeech, speechFrames, .wholeNumberRefused)
            } else if silence >= configuration.frames(configuration.incompleteSilenceSeconds) {
                event = finished(end, lastSpeech, speechFrames, .trailingSilence)
            } else if !candidateSent, silence >= configuration.frames(configuration.candidateSilenceSeconds),
                      speechFrames >= configuration.frames(configuration.minimumSpeechSeconds) {
                candidateSent = true
                candidateReading = nil
                event = .candidateEnd(frame: end, lastSpeechFrame: lastSpeech)
            }
            if case .speaking = state { state = .speaking(start: start, speechFrames: speechFrames, lastSpeech: lastSpeech, candidateSent: candidateSent) }
            return event
        }
    }

    /// Ends an utterance in progress because the audio ended; nil when none was in progress.
    public mutating func endOfAudio() -> EndpointEvent? {
        guard case .speaking(_, let speechFrames, let lastSpeech, _) = state else { return nil }
        return finished(frame, lastSpeech, speechFrames, .endOfAudio)
    }

    /// Forgets the utterance in progress (the noise floor is kept: the room has not changed).
    public mutating func reset() {
        state = .waiting
        longestPause = 0
        recentSpeech = []
        hypothesisComplete = false
        candidateReading = nil
    }

    private mutating func finished(_ end: Int, _ lastSpeech: Int, _ speechFrames: Int, _ reason: EndpointReason) -> EndpointEvent {
        reset()
        guard speechFrames >= configuration.frames(configuration.minimumSpeechSeconds) else { return .discarded(frame: end) }
        return .ended(frame: end, lastSpeechFrame: lastSpeech, reason: reason)
    }

    /// Smooths the level, updates the noise floor and says whether this frame is speech.
    private mutating func classify(_ level: Double) -> Bool {
        let power = pow(10, level / 10)
        Self.append(power, to: &recentPowers, keepingLast: configuration.frames(configuration.levelSmoothingSeconds))
        let smoothed = 10 * log10(max(1e-12, recentPowers.reduce(0, +) / Double(recentPowers.count)))
        let window = configuration.frames(configuration.noiseWindowSeconds)
        Self.append(smoothed, to: &smoothedLevels, keepingLast: window)
        let noise = smoothedLevels.min() ?? smoothed
        var threshold = max(noise + configuration.speechAboveNoise, configuration.minimumSpeechLevel)
        if isInUtterance {
            if utteranceSpeechLevels.count >= configuration.frames(configuration.ambientGateSpeechSeconds),
               let speechLevel = Self.median(utteranceSpeechLevels) {
                let ambientGate = min(ambientLevel + configuration.speechAboveAmbient, speechLevel - configuration.ambientGateBelowSpeech)
                threshold = max(threshold, ambientGate)
            }
        } else {
            Self.append(smoothed, to: &levelsOutsideUtterances, keepingLast: window)
        }
        let released = isInUtterance && recentSpeech.last == true && smoothed >= threshold - configuration.speechReleaseBelowThreshold
        let isSpeech = smoothed >= threshold || released
        // The speech level that caps the ambient gate is the words' own, not their fading ends'.
        if smoothed >= threshold, isInUtterance { utteranceSpeechLevels.append(smoothed) }
        Self.append(isSpeech, to: &recentSpeech, keepingLast: configuration.frames(configuration.onsetWindowSeconds))
        return isSpeech
    }

    /// Appends `value` to `window` and drops its oldest values beyond `length`.
    private static func append<Value>(_ value: Value, to window: inout [Value], keepingLast length: Int) {
        window.append(value)
        if window.count > length { window.removeFirst(window.count - length) }
    }

    private static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.sorted()[values.count / 2]
    }
}
