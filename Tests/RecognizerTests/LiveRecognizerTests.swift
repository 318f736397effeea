import AudioInput
import FlightCore
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
        #expect(utterance.reason == .completeFlight, "a whole flight ends the query early")
        #expect(utterance.endpoint - utterance.speechEnd <= EndpointerConfiguration().completeSilenceSeconds + 0.07)
    }

    @Test func theAnswerDoesNotDependOnWhetherTheBackgroundDecodeWasUsed() throws {
        let samples = try Self.inRoom(TestFlights.samples("ba287.wav"))
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

/// The live fixtures the CLI tests play (headerless 16 kHz clips; see make-live-fixtures.sh).
enum BuiltFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FlightVoiceCLITests/LiveFixtures")
    static var yes: String { folder.appendingPathComponent("yes.raw").path }
}
