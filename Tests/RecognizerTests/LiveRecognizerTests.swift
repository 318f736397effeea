import AudioInput
import FlightCore
import FlightStore
import Foundation
@testable import Recognizer
import Testing

/// The live path on the committed fixtures, fed in microphone-sized chunks with room noise around them.
@Suite(.serialized) struct LiveRecognizerTests {
    static let chunk = 1024

    /// `samples` after a second of the pink-noise fixture, followed by 1.5 s of it: a query in a quiet room.
    static func inRoom(_ samples: [Int16]) throws -> [Int16] {
        let room = try TestFlights.samples("pink-noise.wav").map { Int16(clamping: Int($0) / 20) }
        func repeated(_ count: Int) -> [Int16] { (0..<count).map { room[$0 % room.count] } }
        return repeated(16_000) + samples + repeated(24_000)
    }

    static func events(_ samples: [Int16], _ live: LiveRecognizer) throws -> [LiveEvent] {
        var events: [LiveEvent] = []
        for start in stride(from: 0, to: samples.count, by: chunk) {
            events += try live.process(Array(samples[start..<min(samples.count, start + chunk)]))
        }
        return events + (try live.finish())
    }

    /// The utterances answered when `samples` are fed to `live` as `events` feeds them.
    static func finals(_ samples: [Int16], _ live: LiveRecognizer) throws -> [LiveUtterance] {
        try events(samples, live).compactMap { event in if case .final(let utterance) = event { utterance } else { nil } }
    }

    @Test func aQueryInARoomIsFoundOnceWithPartialsAndTheBatchAnswer() throws {
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary)
        let live = try LiveRecognizer(recognizer: recognizer)
        let events = try Self.events(try Self.inRoom(TestFlights.samples("lx40.wav")), live)
        let finals = events.compactMap { event -> LiveUtterance? in if case .final(let utterance) = event { utterance } else { nil } }
        #expect(finals.count == 1)
        let utterance = try #require(finals.first)
        #expect(utterance.result.decision.acceptedFlight == FlightNumber(parsing: "LX40"))
        #expect(events.contains { if case .partial = $0 { true } else { false } })
        guard case .speechStarted(let start) = events.first else { Issue.record("speech start first: \(events)"); return }
        #expect(start > 0.9 && start < 1.4, "speech starts where the clip does (its own lead-in is quiet): \(start)")
        #expect(utterance.reason == .completeFlight || utterance.reason == .decodedFlight, "a whole flight ends the query early: \(utterance.reason)")
        #expect(utterance.endpoint - utterance.speechEnd <= EndpointerConfiguration().completeSilenceSeconds + 0.07)
    }

    /// What the streaming pass shows and how the query ends for `clip` (a path), fed as `eval --live` feeds it.
    static func heardAsFed(_ clip: String, _ live: LiveRecognizer) throws -> [String] {
        try live.events(for: LiveClipFeed(clip: AudioFileDecoder.decode(path: clip).samples, sampleRate: 16_000), chunkSamples: 1_024)
            .compactMap { event in
                switch event {
                case .partial(let text): "partial \(text)"
                case .final(let utterance): "final \(utterance.reason) \(utterance.endpoint) \(utterance.result.transcript.text)"
                default: nil
                }
            }
    }

    @Test func afterRestartingStreamingAClipIsHeardAsByAFreshRecognizerWhateverWasHeardBefore() throws {
        let folder = TestFlights.fixtures + "/carry-over/"
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("carry-over-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: database) }
        let day = try FlightVocabulary(dataSource: FlightStore(path: database), near: Date())
        let clip = folder + "tg7536-brown-10db.wav"
        let fresh = try Self.heardAsFed(clip, LiveRecognizer(recognizer: FlightRecognizer(vocabulary: day)))
        #expect(fresh.contains { $0.hasPrefix("final") })
        let recognizer = try FlightRecognizer(vocabulary: day)
        _ = try Self.heardAsFed(folder + "lx725-babble-10db.wav", LiveRecognizer(recognizer: recognizer))
        let streamed = try #require(recognizer.streamingDecoder)
        recognizer.restartStreaming()
        #expect(try Self.heardAsFed(clip, LiveRecognizer(recognizer: recognizer)) == fresh)
        #expect(recognizer.streamingDecoder !== streamed, "a new streaming pass heard it")
    }

    /// A traveller 30 dB quieter than our recordings, or one close to the microphone: the streaming pass normalizes the
    /// query with its own running cepstral mean, not with the model's initial one (which the library alone keeps for
    /// the first seconds), so its hypothesis, which shows the words and ends the query early, names the flight. With the
    /// initial mean it read "u" and "what's the gate for b a two eight".
    @Test(arguments: [("lx40.wav", 0.03, "LX40"), ("ba287.wav", 3.0, "BA287")])
    func theStreamingPassNormalizesAQueryWithItsOwnRunningMean(clip: String, gain: Double, flight: String) throws {
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary)
        let samples = try Self.inRoom(TestFlights.samples(clip)).map { Int16(clamping: Int(Double($0) * gain)) }
        var partials: [String] = []
        for start in stride(from: 0, to: samples.count, by: Self.chunk) {
            for case .partial(let text) in recognizer.process(samples[start..<min(samples.count, start + Self.chunk)]) { partials.append(text) }
        }
        #expect(recognizer.streamingFlights == [FlightNumber(parsing: flight)!], "partials: \(partials)")
    }

    /// "ba287.wav" ends on its candidate's decode, "where-exit.wav" (no flight) on the long wait.
    @Test(arguments: ["ba287.wav", "where-exit.wav"])
    func theAnswerDoesNotDependOnWhetherTheBackgroundDecodeWasUsed(clip: String) throws {
        let samples = try Self.inRoom(TestFlights.samples(clip))
        var withoutSpeculation = LiveConfiguration()
        withoutSpeculation.speculates = false
        func final(_ configuration: LiveConfiguration) throws -> LiveUtterance? {
            let live = try LiveRecognizer(recognizer: FlightRecognizer(vocabulary: TestFlights.vocabulary), configuration: configuration)
            for case .final(let utterance) in try Self.events(samples, live) { return utterance }
            return nil
        }
        let speculative = try #require(try final(LiveConfiguration()))
        let direct = try #require(try final(withoutSpeculation))
        #expect(speculative.speculative && !direct.speculative)
        #expect(speculative.result.transcript == direct.result.transcript)
        #expect(speculative.result.decision == direct.result.decision)
        #expect(speculative.reason == direct.reason && speculative.endpoint == direct.endpoint,
                "the end does not depend on when the decode finished: \(speculative.reason) at \(speculative.endpoint), \(direct.reason) at \(direct.endpoint)")
    }

    /// A traveller who pauses after a candidate end and speaks again: the background decode of the audio before the
    /// pause is stopped (the next candidate's decode would wait for it), and the answer is the one given without any
    /// background decode.
    @Test func speakingAgainStopsTheBackgroundDecodeOfTheCandidateBefore() throws {
        // "L X forty" (its words end at 1.35 s), 0.1 s of room, and "L X forty" again: a pause of about 0.2 s.
        let clip = try TestFlights.samples("lx40.wav"), room = try Self.inRoom([]).prefix(1_600)
        let samples = try Self.inRoom(Array(clip.prefix(22_400)) + room + Array(clip.dropFirst(2_400)))
        var withoutSpeculation = LiveConfiguration()
        withoutSpeculation.speculates = false
        let live = try LiveRecognizer(recognizer: FlightRecognizer(vocabulary: TestFlights.vocabulary))
        let direct = try LiveRecognizer(recognizer: FlightRecognizer(vocabulary: TestFlights.vocabulary), configuration: withoutSpeculation)
        let answered = try Self.finals(samples, live), expected = try Self.finals(samples, direct)
        #expect(live.cancelledBackgroundDecodes >= 1)
        #expect(answered.count == 1 && expected.count == 1)
        #expect(answered.map(\.result.decision) == expected.map(\.result.decision))
        #expect(answered.map(\.endpoint) == expected.map(\.endpoint))
    }

    /// A traveller who pauses where the words name a flight that flies and also start a longer one ("lima x-ray
    /// twelve…", LX 12, then "…thirty four", LX 1234) is heard to the end of the number; where nothing longer flies,
    /// the same pause ends the query.
    @Test(arguments: [(["LX12", "LX1234"], 1), (["LX12"], 2)])
    func aPauseAfterWordsThatStartALongerFlightIsWaitedOut(day flights: [String], queries: Int) throws {
        // The fixture's "twelve" ends at 1.51 s; 0.6 s of room follows it, as a traveller's pause.
        let clip = try TestFlights.samples("lima-xray-1234.wav"), pause = try Self.inRoom([]).prefix(9_600)
        let samples = try Self.inRoom(Array(clip.prefix(24_160)) + pause + Array(clip.dropFirst(24_160)))
        let day = FlightVocabulary(airlines: TestFlights.airlines, flights: ["LX40", "BA287"].map { FlightNumber(parsing: $0)! }
                                   + flights.map { FlightNumber(parsing: $0)! })
        let finals = try Self.finals(samples, LiveRecognizer(recognizer: FlightRecognizer(vocabulary: day)))
        #expect(finals.count == queries, "\(finals.map { "\($0.reason) \($0.result.transcript.text)" })")
        if queries == 1 { #expect(finals.first?.result.decision.acceptedFlight != FlightNumber(parsing: "LX12")) }
    }

    /// The batch answer for the audio the live path decoded: the live answer is that, whatever ended the query.
    @Test func theLiveAnswerIsTheBatchAnswerOfTheAudioItDecoded() throws {
        let recognizer = try FlightRecognizer(vocabulary: TestFlights.vocabulary)
        let batch = try FlightRecognizer(vocabulary: TestFlights.vocabulary)
        let live = try LiveRecognizer(recognizer: recognizer)
        for clip in ["lx40.wav", "ba287.wav", "lh400.wav"] {
            let samples = try Self.inRoom(TestFlights.samples(clip))
            var decoded: [Int16]?
            live.decodedAudio = { decoded = $0 }
            let finals = try Self.finals(samples, live)
            let utterance = try #require(finals.first, "\(clip) was answered")
            let audio = try #require(decoded)
            let expected = try batch.recognize(samples: audio)
            #expect(utterance.result.transcript == expected.transcript, "\(clip)")
            #expect(utterance.result.decision == expected.decision, "\(clip)")
        }
    }

    @Test func aNoiseBurstAloneGivesNoResult() throws {
        let live = try LiveRecognizer(recognizer: FlightRecognizer(vocabulary: TestFlights.vocabulary))
        let burst = (0..<2400).map { Int16(truncatingIfNeeded: ($0 &* 7919 &+ 13) % 16_000 - 8000) }
        let events = try Self.events(try Self.inRoom(burst), live)
        #expect(!events.contains { if case .final = $0 { true } else { false } }, "\(events)")
        #expect(events.contains { if case .discarded = $0 { true } else { false } })
    }

    @Test func aShortYesIsAReplyOnlyWhenOneIsExpected() throws {
        let yes = try AudioFileDecoder.decode(path: BuiltFixtures.yes, rawSampleRate: 16_000).samples
        let live = try LiveRecognizer(recognizer: FlightRecognizer(vocabulary: TestFlights.vocabulary))
        live.expectsReply = true
        #expect(try Self.events(yes, live).contains { if case .reply(.yes) = $0 { true } else { false } })
        live.expectsReply = false
        #expect(!(try Self.events(yes, live)).contains { if case .reply = $0 { true } else { false } })
    }
}

/// When the live path ends a query early on the decode of the audio so far: on an accepted flight that is not the
/// fragment the open grammar heard of it (a traveller pausing mid-number), and on a refusal of a number that no flight
/// of today's continues; and when it must wait despite a complete streaming hypothesis: on any such fragment, accepted
/// or to be confirmed.
struct WholeFlightRuleTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let decision: RecognitionDecision
        var heardEndsInsideNumber = false
        /// The number the open grammar read, whatever airline (if any) it heard.
        let open: Int?
        let reading: CandidateReading
        var testDescription: String {
            "\(decision)\(heardEndsInsideNumber ? " (its words end inside another number)" : "") / open \(open.map(String.init) ?? "none") → \(reading)"
        }
    }

    static func flight(_ text: String) -> FlightNumber { FlightNumber(parsing: text)! }

    static let cases: [Case] = [
        Case(decision: .accepted(flight("LX40")), open: 40, reading: .wholeFlight),
        Case(decision: .accepted(flight("LX40")), open: 4, reading: .fragment),
        Case(decision: .accepted(flight("LX412")), open: 41, reading: .fragment),
        Case(decision: .accepted(flight("LX412")), open: 4, reading: .fragment),
        Case(decision: .accepted(flight("OU469")), open: 461, reading: .wholeFlight),
        Case(decision: .accepted(flight("LX40")), open: 400, reading: .wholeFlight),
        Case(decision: .accepted(flight("AC6317")), open: 6317, reading: .wholeFlight),
        // The first digits are a fragment whatever the airline: "v y six two five…" read BY 625 for VY 6258.
        Case(decision: .accepted(flight("AC6317")), open: 63, reading: .fragment),
        Case(decision: .accepted(flight("LX40")), open: nil, reading: .undecided),
        Case(decision: .confirm([flight("LX40")]), open: 40, reading: .doubtfulFlight),
        Case(decision: .confirm([flight("LX19"), flight("LX189")]), open: 192, reading: .doubtfulFlight),
        Case(decision: .confirm([flight("VY6258")]), open: 625, reading: .fragment),
        // A flight in doubt whose number another airline's continues: "l h four one…" heard as AZ 41 while LX 412 flies.
        Case(decision: .confirm([flight("AZ41")]), open: 41, reading: .fragment),
        Case(decision: .accepted(flight("AZ41")), open: 41, reading: .wholeFlight),
        Case(decision: .confirm([flight("LX40")]), open: nil, reading: .undecided),
        // "l x one five…" names LX 15 and starts LX 154: whichever grammar reads it whole, the traveller may go on.
        Case(decision: .accepted(flight("LX15")), heardEndsInsideNumber: true, open: 15, reading: .fragment),
        Case(decision: .confirm([flight("LX15")]), heardEndsInsideNumber: true, open: 15, reading: .fragment),
        Case(decision: .accepted(flight("LX15")), heardEndsInsideNumber: true, open: nil, reading: .fragment),
        // Today's flights (`today`) are LX 40, LX 412 and VY 6258: 4, 41 and 625 can still grow into one of them.
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 4, reading: .undecided),
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 41, reading: .undecided),
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 40, reading: .wholeNumberRefused),
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 625, reading: .undecided),
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 412, reading: .wholeNumberRefused),
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 6636, reading: .wholeNumberRefused),
        Case(decision: .rejected(.lowConfidence(score: 0.4)), open: 234, reading: .wholeNumberRefused),
        Case(decision: .rejected(.noHypothesis), open: nil, reading: .undecided),
        Case(decision: .noSpeech, open: nil, reading: .undecided),
    ]

    @Test(arguments: cases) func readsTheCandidatesDecode(_ example: Case) {
        #expect(LiveRecognizer.reading(decision: example.decision, heardEndsInsideNumber: example.heardEndsInsideNumber,
                                       openGrammarNumber: example.open, signalToNoise: 30,
                                       wholeNumberMinimumSNR: 20, continuesSomeFlight: Self.today.continuesSomeFlight) == example.reading)
    }

    @Test func aRefusedWholeNumberInNoiseKeepsTheLongWait() {
        let refused = RecognitionDecision.rejected(.lowConfidence(score: 0.4))
        for (snr, reading) in [(25.0, CandidateReading.wholeNumberRefused), (15, .undecided), (nil, .undecided)] {
            #expect(LiveRecognizer.reading(decision: refused, heardEndsInsideNumber: false, openGrammarNumber: 6636, signalToNoise: snr,
                                           wholeNumberMinimumSNR: 20, continuesSomeFlight: Self.today.continuesSomeFlight) == reading)
        }
    }

    static let today = FlightVocabulary(airlines: TestFlights.airlines, flights: ["LX40", "LX412", "VY6258"].map(flight))
}

/// The live fixtures the CLI tests play (headerless 16 kHz clips; see make-live-fixtures.sh).
enum BuiltFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlightVoiceCLITests/LiveFixtures")
    static var yes: String { folder.appendingPathComponent("yes.raw").path }
}
