import Foundation
@testable import Recognizer
import Testing

/// The endpointer fed tables of frame levels (dBFS per 10 ms frame): where queries start and end, and what is dropped.
struct EndpointerTests {
    /// Frames of `level` for `seconds`.
    static func frames(_ level: Double, _ seconds: Double) -> [Double] { Array(repeating: level, count: Int((seconds * 100).rounded())) }

    static let room = -66.0
    static let voice = -25.0

    /// Runs `levels` through a fresh endpointer, telling it at `completeAt` (a frame) that the hypothesis is a
    /// complete flight; returns the events with the frame they came at.
    static func run(_ levels: [Double], completeAt: Int? = nil, configuration: EndpointerConfiguration = EndpointerConfiguration()) -> [EndpointEvent] {
        var endpointer = Endpointer(configuration: configuration)
        var events: [EndpointEvent] = []
        for (index, level) in levels.enumerated() {
            if index == completeAt { endpointer.hypothesisChanged(isCompleteFlight: true) }
            if let event = endpointer.advance(level: level) { events.append(event) }
        }
        if let event = endpointer.endOfAudio() { events.append(event) }
        return events
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let levels: [Double]
        let completeAt: Int?
        let expected: [String]
        var testDescription: String { name }
    }

    static func describe(_ event: EndpointEvent) -> String {
        switch event {
        case .speechStarted: "start"
        case .candidateEnd: "candidate"
        case .ended(_, _, let reason): "end:\(reason.rawValue)"
        case .discarded: "discarded"
        }
    }

    static let cases: [Case] = [
        Case(name: "room noise alone is nothing", levels: frames(room, 5), completeAt: nil, expected: []),
        Case(name: "a query ends after the long silence while the hypothesis is incomplete",
             levels: frames(room, 1) + frames(voice, 1.2) + frames(room, 2), completeAt: nil, expected: ["start", "candidate", "end:trailing_silence"]),
        Case(name: "a complete, stable flight ends early",
             levels: frames(room, 1) + frames(voice, 1.2) + frames(room, 2), completeAt: 150, expected: ["start", "candidate", "end:complete_flight"]),
        Case(name: "a pause mid-number does not end the query",
             levels: frames(room, 1) + frames(voice, 0.6) + frames(room, 0.6) + frames(voice, 0.6) + frames(room, 2), completeAt: nil,
             expected: ["start", "candidate", "candidate", "end:trailing_silence"]),
        Case(name: "a traveller who paused between digits is not cut at a like pause on a complete flight",
             levels: frames(room, 1) + frames(voice, 0.5) + frames(room, 0.4) + frames(voice, 0.5) + frames(room, 0.45) + frames(voice, 0.5)
                + frames(room, 2), completeAt: 200,
             expected: ["start", "candidate", "candidate", "candidate", "end:complete_flight"]),
        Case(name: "fluent speech with short gaps still ends on a complete flight after the short silence",
             levels: frames(room, 1) + frames(voice, 0.5) + frames(room, 0.15) + frames(voice, 0.5) + frames(room, 0.4) + frames(voice, 0.5)
                + frames(room, 2), completeAt: 180,
             expected: ["start", "candidate", "candidate", "end:complete_flight", "start", "candidate", "end:trailing_silence"]),
        Case(name: "a cough or a door is dropped", levels: frames(room, 1) + frames(-15, 0.15) + frames(room, 2), completeAt: nil,
             expected: ["start", "discarded"]),
        Case(name: "a click is not even a start", levels: frames(room, 1) + frames(-15, 0.04) + frames(room, 1), completeAt: nil, expected: []),
        Case(name: "an endless announcement is cut at the maximum length",
             levels: frames(room, 1) + (0..<50).flatMap { _ in frames(voice, 0.12) + frames(-45, 0.08) }, completeAt: nil,
             expected: ["start", "end:maximum_length", "start", "end:end_of_audio"]),
        Case(name: "speech cut off by the end of the audio still ends", levels: frames(room, 1) + frames(voice, 1), completeAt: nil,
             expected: ["start", "end:end_of_audio"]),
        Case(name: "a clock ticking after the query does not hold it open",
             levels: frames(room, 1) + frames(voice, 1.2) + (0..<8).flatMap { _ in frames(room, 0.27) + frames(-40, 0.03) }, completeAt: nil,
             expected: ["start", "candidate", "end:trailing_silence"]),
        Case(name: "a fan switching on is one sound, then learnt as noise", levels: frames(room, 1) + frames(-40, 6), completeAt: nil,
             expected: ["start", "candidate", "end:trailing_silence"]),
    ]

    @Test(arguments: cases) func endpoints(_ example: Case) {
        #expect(Self.run(example.levels, completeAt: example.completeAt).map(Self.describe) == example.expected)
    }

    @Test func withoutThePaceRuleTheDigitByDigitTravellerIsCutAtTheSecondPause() {
        let levels = Self.frames(Self.room, 1) + Self.frames(Self.voice, 0.5) + Self.frames(Self.room, 0.4) + Self.frames(Self.voice, 0.5)
            + Self.frames(Self.room, 0.45) + Self.frames(Self.voice, 0.5) + Self.frames(Self.room, 2)
        var unpaced = EndpointerConfiguration()
        unpaced.shortSilencePerLongestPause = 0
        let events = Self.run(levels, completeAt: 200, configuration: unpaced)
        #expect(events.map(Self.describe) == ["start", "candidate", "candidate", "end:complete_flight", "start", "candidate", "end:trailing_silence"])
        // With it, the query ends on the last word, having waited longer than its longest pause.
        let paced = Self.run(levels, completeAt: 200)
        guard case .ended(let end, let lastSpeech, .completeFlight)? = paced.last else { Issue.record("\(paced)"); return }
        #expect(lastSpeech >= 335 && end - lastSpeech > 45)
    }

    /// Runs `levels` through a fresh endpointer, telling it before frame `decodedAt` what the candidate's decode read
    /// (and at `completeAt` that the hypothesis is a complete flight); returns each event with the frame it came at.
    static func runDecoded(_ levels: [Double], decodedAt: Int, reading: CandidateReading, completeAt: Int? = nil) -> [(frame: Int, event: String)] {
        var endpointer = Endpointer()
        var events: [(Int, String)] = []
        for (index, level) in levels.enumerated() {
            if index == completeAt { endpointer.hypothesisChanged(isCompleteFlight: true) }
            if index == decodedAt { endpointer.candidateDecoded(reading) }
            if let event = endpointer.advance(level: level) { events.append((index, describe(event))) }
        }
        if let event = endpointer.endOfAudio() { events.append((levels.count, describe(event))) }
        return events
    }

    struct DecodedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let levels: [Double]
        /// The frame before which the candidate's decode is reported.
        let decodedAt: Int
        let reading: CandidateReading
        /// The frame at which the streaming hypothesis names a complete flight, if any.
        var completeAt: Int? = nil
        /// Events and the frame each came at.
        let expected: [String]
        var testDescription: String { name }
    }

    // Voice in frames 100..<220, speech to frame 222 (the 30 ms level smoothing carries it two frames on); the
    // candidate comes at frame 233 (0.12 s of quiet), the short silence at 251, the medium one at 281, the long one at 311.
    static let query = frames(room, 1) + frames(voice, 1.2) + frames(room, 2)
    static let decodedCases: [DecodedCase] = [
        DecodedCase(name: "a decode naming a whole flight ends the query after the short silence", levels: query, decodedAt: 240,
                    reading: .wholeFlight, expected: ["start@107", "candidate@233", "end:decoded_flight@251"]),
        DecodedCase(name: "a decode known after the short silence ends the query at once", levels: query, decodedAt: 275,
                    reading: .wholeFlight, expected: ["start@107", "candidate@233", "end:decoded_flight@275"]),
        DecodedCase(name: "a decode asking \"did you mean\" a whole flight ends the query after the medium silence", levels: query,
                    decodedAt: 240, reading: .doubtfulFlight, expected: ["start@107", "candidate@233", "end:doubtful_flight@281"]),
        DecodedCase(name: "a decode refusing a number no flight continues ends the query after the medium silence", levels: query,
                    decodedAt: 240, reading: .wholeNumberRefused,
                    expected: ["start@107", "candidate@233", "end:whole_number_refused@281"]),
        DecodedCase(name: "a decode naming no whole flight keeps the long wait", levels: query, decodedAt: 240,
                    reading: .undecided, expected: ["start@107", "candidate@233", "end:trailing_silence@311"]),
        DecodedCase(name: "a decode reported before any candidate is ignored", levels: query, decodedAt: 200,
                    reading: .wholeFlight, expected: ["start@107", "candidate@233", "end:trailing_silence@311"]),
        DecodedCase(name: "speech that resumes after a candidate forgets its decode",
                    levels: frames(room, 1) + frames(voice, 0.6) + frames(room, 0.2) + frames(voice, 0.6) + frames(room, 2),
                    decodedAt: 175, reading: .wholeFlight,
                    expected: ["start@107", "candidate@173", "candidate@253", "end:trailing_silence@331"]),
        DecodedCase(name: "a complete streaming hypothesis ends the query after the short silence", levels: query, decodedAt: 240,
                    reading: .wholeFlight, completeAt: 150, expected: ["start@107", "candidate@233", "end:complete_flight@251"]),
        DecodedCase(name: "a complete streaming hypothesis whose decode asks \"did you mean\" waits the medium silence", levels: query,
                    decodedAt: 240, reading: .doubtfulFlight, completeAt: 150,
                    expected: ["start@107", "candidate@233", "end:doubtful_flight@281"]),
        DecodedCase(name: "a complete streaming hypothesis whose decode names no whole flight keeps the long wait", levels: query,
                    decodedAt: 240, reading: .undecided, completeAt: 150,
                    expected: ["start@107", "candidate@233", "end:trailing_silence@311"]),
        DecodedCase(name: "a decode reading a fragment of the flight keeps the long wait despite a complete hypothesis", levels: query,
                    decodedAt: 240, reading: .fragment, completeAt: 150,
                    expected: ["start@107", "candidate@233", "end:trailing_silence@311"]),
    ]

    @Test(arguments: decodedCases) func endsOnTheCandidatesDecode(_ example: DecodedCase) {
        #expect(Self.runDecoded(example.levels, decodedAt: example.decodedAt, reading: example.reading, completeAt: example.completeAt)
            .map { "\($0.event)@\($0.frame)" } == example.expected)
    }

    @Test func itAwaitsTheCandidatesDecodeOnlyWhereTheShortSilenceIsReachedWithoutIt() {
        var endpointer = Endpointer()
        let configuration = endpointer.configuration
        var awaiting: [Int] = []
        for (index, level) in Self.query.enumerated() {
            if index == 260 { endpointer.candidateDecoded(.undecided) }
            if endpointer.awaitsCandidateDecode { awaiting.append(index) }
            _ = endpointer.advance(level: level)
        }
        let lastSpeech = 222
        let first = lastSpeech + configuration.frames(configuration.decodedFlightSilenceSeconds) - 1
        #expect(awaiting == Array(first..<260), "from the frame that would end on the decode until it is reported")
    }

    @Test func theEarlyEndComesWithinTheShortSilenceAndTheLateOneAfterTheLong() {
        let levels = Self.frames(Self.room, 1) + Self.frames(Self.voice, 1.2) + Self.frames(Self.room, 2)
        let configuration = EndpointerConfiguration()
        func endFrame(_ events: [EndpointEvent]) -> Int? {
            for case .ended(let frame, let lastSpeech, _) in events { return frame - lastSpeech }
            return nil
        }
        #expect(endFrame(Self.run(levels, completeAt: 150)) == configuration.frames(configuration.completeSilenceSeconds))
        #expect(endFrame(Self.run(levels)) == configuration.frames(configuration.incompleteSilenceSeconds))
    }

    @Test func theCandidateEndComesBeforeTheEnd() {
        let events = Self.run(Self.frames(Self.room, 1) + Self.frames(Self.voice, 1.2) + Self.frames(Self.room, 2), completeAt: 150)
        guard case .candidateEnd(let candidate, let lastSpeech) = events[1], case .ended(let end, let endSpeech, _) = events[2] else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(lastSpeech == endSpeech)
        #expect(candidate < end)
    }

    /// A hall whose murmur (-47 dB, dipping to -56 dB) stays just under the noise floor's speech threshold (-46 dB), and
    /// an announcement (-43 dB, the same dips) that begins as the traveller finishes: loud enough over the dips to
    /// count as speech by the floor alone, 4 dB over the murmur heard before the query.
    static func murmur(_ level: Double, _ seconds: Double) -> [Double] {
        (0..<Int((seconds / 0.2).rounded())).flatMap { _ in frames(level, 0.15) + frames(-56, 0.05) }
    }

    /// Words at the voice's level with a 50 ms dip to -50 dB between them.
    static func words(_ seconds: Double) -> [Double] {
        (0..<Int((seconds / 0.3).rounded())).flatMap { _ in frames(voice, 0.25) + frames(-50, 0.05) }
    }

    @Test func anAnnouncementGoingOnAfterTheLastWordDoesNotHoldTheQueryOpen() {
        let levels = Self.murmur(-47, 2) + Self.frames(Self.voice, 1.2) + Self.murmur(-43, 9)
        let lastWord = 320, firstSoundOfTheAnnouncement = 15
        let events = Self.run(levels)
        #expect(events.prefix(3).map(Self.describe) == ["start", "candidate", "end:trailing_silence"], "\(events.map(Self.describe))")
        if case .ended(let frame, let lastSpeech, _) = events.dropFirst(2).first {
            let heardEnd = lastWord + firstSoundOfTheAnnouncement
            #expect((heardEnd...heardEnd + 2).contains(lastSpeech),
                    "the announcement's first sound follows the word unbroken, 2 dB under the gate: within the release, it is the word's end")
            #expect(frame - lastSpeech == EndpointerConfiguration().frames(EndpointerConfiguration().incompleteSilenceSeconds))
        }
        var floorOnly = EndpointerConfiguration()
        floorOnly.speechAboveAmbient = -.infinity
        #expect(Self.run(levels, configuration: floorOnly).prefix(2).map(Self.describe) == ["start", "end:maximum_length"],
                "judged by the floor alone, the announcement is speech")
    }

    /// Where the endpointer says the query's speech ended.
    static func lastSpeech(_ levels: [Double], configuration: EndpointerConfiguration = EndpointerConfiguration()) -> Int? {
        for case .ended(_, let lastSpeech, _) in run(levels, configuration: configuration) { return lastSpeech }
        return nil
    }

    @Test func aWordsFadingEndIsPartOfTheQueryButTheSameFaintSoundAfterAPauseIsNot() {
        let faint = -57.0, lastWord = 200
        #expect(faint < EndpointerConfiguration().minimumSpeechLevel, "under the speech threshold")
        let fading = Self.frames(Self.room, 1) + Self.frames(Self.voice, 1) + Self.frames(faint, 0.2) + Self.frames(Self.room, 2)
        let afterAPause = Self.frames(Self.room, 1) + Self.frames(Self.voice, 1) + Self.frames(Self.room, 0.2) + Self.frames(faint, 0.2)
            + Self.frames(Self.room, 2)
        let fadingEnd = lastWord + 20, heard = Self.lastSpeech(fading)
        #expect(heard.map { (fadingEnd...fadingEnd + 2).contains($0) } == true, "\(String(describing: heard))")
        #expect(Self.lastSpeech(afterAPause).map { (lastWord...lastWord + 2).contains($0) } == true)
        var withoutRelease = EndpointerConfiguration()
        withoutRelease.speechReleaseBelowThreshold = 0
        #expect(Self.lastSpeech(fading, configuration: withoutRelease).map { (lastWord...lastWord + 2).contains($0) } == true,
                "without the release the fading end is room")
    }

    @Test func aRecordingThatOpensOnItsWordsIsStillHeard() {
        let levels = Self.words(1.2) + Self.frames(Self.room, 2)
        #expect(Self.run(levels).map(Self.describe) == ["start", "candidate", "end:trailing_silence"])
        var uncapped = EndpointerConfiguration()
        uncapped.ambientGateBelowSpeech = -.infinity
        #expect(!Self.run(levels, configuration: uncapped).map(Self.describe).contains("end:trailing_silence"),
                "the words heard before the query make the room as loud as the traveller; only the cap keeps them speech")
    }
}
