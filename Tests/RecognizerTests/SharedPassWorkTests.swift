import FlightCore
import Foundation
@testable import Recognizer
import Testing

@Suite("Work shared between decoding passes")
struct SharedPassWorkTests {
    static let clips = ["lx40.wav", "where-exit.wav", "pink-noise.wav"]
    static let configuration = RecognizerConfiguration()
    static let today = FlightGrammar(vocabulary: TestFlights.vocabulary)

    /// Everything a decode leaves to read: the best path's words, score and segments with their frames and scores.
    static func reading(of decoder: PocketSphinxDecoder) -> String {
        let hypothesis = decoder.hypothesis()
        let segments = decoder.segments().map { "\($0.word) \($0.startFrame)-\($0.endFrame) \($0.acousticScore) \($0.languageScore)" }
        return "\(hypothesis?.text ?? "-") \(hypothesis?.score ?? 0) [\(segments.joined(separator: ", "))] \(decoder.frameCount)"
    }

    static func todaysGrammar() throws -> GrammarPass {
        let pass = GrammarPass(decoder: try PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: false))
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary)
        var added: [String: String] = [:]
        try pass.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &added)
        return pass
    }

    static func openGrammar() throws -> OpenGrammarPass {
        let pass = OpenGrammarPass(decoder: try PocketSphinxDecoder(arguments: configuration.openGrammarArguments, verbose: false))
        let grammar = OpenFlightGrammar(airlines: TestFlights.airlines)
        var added: [String: String] = [:]
        try pass.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &added)
        return pass
    }

    static func rival(excluding flight: FlightNumber) throws -> RivalPass {
        let pass = RivalPass(decoder: try PocketSphinxDecoder(arguments: configuration.rivalArguments, verbose: false))
        var added: [String: String] = [:]
        try pass.exclude([flight], from: Self.today, pronunciations: &added)
        return pass
    }

    @Test("every pass decodes the cepstra computed once exactly as it decodes the samples", arguments: clips)
    func cepstraDecodeAsSamples(clip: String) throws {
        let samples = try TestFlights.samples(clip)
        let cepstra = try samples.withUnsafeBufferPointer { try Self.todaysGrammar().utterance.decoder.cepstra(of: $0) }
        #expect(cepstra.frameCount >= samples.count / 160 - 2)
        func bothWays<Pass: DecodingPass>(_ make: () throws -> Pass) throws -> (samples: String, cepstra: String) {
            let fromSamples = try make()
            _ = try fromSamples.decode(samples)
            let fromCepstra = try make()
            _ = try fromCepstra.decode(cepstra)
            // The same decoder again, from cepstra after samples: nothing carries over between utterances.
            _ = try fromSamples.decode(cepstra)
            #expect(Self.reading(of: fromSamples.utterance.decoder) == Self.reading(of: fromCepstra.utterance.decoder))
            return (Self.reading(of: fromSamples.utterance.decoder), Self.reading(of: fromCepstra.utterance.decoder))
        }
        let phoneLoopArguments = Self.configuration.phoneLoopArguments
        for (name, decodes) in [("today's grammar", try bothWays(Self.todaysGrammar)),
                                ("phone loop", try bothWays { PhoneLoopPass(decoder: try PocketSphinxDecoder(arguments: phoneLoopArguments, verbose: false)) }),
                                ("open grammar", try bothWays(Self.openGrammar)),
                                ("rival", try bothWays { try Self.rival(excluding: TestFlights.flights[0]) })] {
            #expect(decodes.samples == decodes.cepstra, "\(name) on \(clip)")
        }
    }

    @Test("no samples are no cepstra, and decode as no samples do")
    func emptyUtterance() throws {
        let pass = try Self.todaysGrammar()
        let cepstra = try [Int16]().withUnsafeBufferPointer { try pass.utterance.decoder.cepstra(of: $0) }
        #expect(cepstra.frameCount == 0)
        #expect(try pass.decode(cepstra).text == pass.decode([Int16]()).text)
    }

    @Test("a rival pass prepared for today's grammar decodes its first rival as one that was not prepared")
    func preparedRival() throws {
        let samples = try TestFlights.samples("lx40.wav")
        let expected = try Self.rival(excluding: TestFlights.flights[0]).decode(samples)
        let prepared = RivalPass(decoder: try PocketSphinxDecoder(arguments: Self.configuration.rivalArguments, verbose: false))
        var added: [String: String] = [:]
        try prepared.prepare(for: Self.today, pronunciations: &added)
        #expect(Self.today.words.allSatisfy { prepared.utterance.decoder.pronunciation(of: $0) != nil })
        try prepared.exclude([TestFlights.flights[0]], from: Self.today, pronunciations: &added)
        let path = try prepared.decode(samples)
        #expect(path.text == expected.text && path.pathScore == expected.pathScore && path.flight == expected.flight)
    }

    @Test("a rival search compiled for an earlier utterance decodes as a freshly compiled one, also after others were evicted")
    func reusedRivalSearch() throws {
        let samples = try TestFlights.samples("lx40.wav")
        let fresh = try Self.rival(excluding: TestFlights.flights[0])
        let expected = try fresh.decode(samples)
        let reused = try Self.rival(excluding: TestFlights.flights[0])
        var added: [String: String] = [:]
        let flights = TestFlights.flights
        try reused.exclude([flights[1]], from: Self.today, pronunciations: &added)
        _ = try reused.decode(samples)
        // Twice: reused after another search was active, and right after itself.
        for _ in 0..<2 {
            try reused.exclude([flights[0]], from: Self.today, pronunciations: &added)
            let path = try reused.decode(samples)
            #expect(path.text == expected.text && path.pathScore == expected.pathScore && path.flight == expected.flight)
        }
        // More exclusions than the decoder keeps: the first is compiled again, and still decodes the same.
        let pairs = flights.indices.flatMap { first in flights.indices.filter { $0 > first }.map { [flights[first], flights[$0]] } }
        let exclusions = pairs + flights.dropFirst().map { [$0] }
        #expect(exclusions.count > RivalPass.compiledSearchLimit)
        for exclusion in exclusions { try reused.exclude(exclusion, from: Self.today, pronunciations: &added) }
        try reused.exclude([flights[0]], from: Self.today, pronunciations: &added)
        let path = try reused.decode(samples)
        #expect(path.text == expected.text && path.pathScore == expected.pathScore)
        #expect(reused.rivals?.flights(in: "l x forty").isEmpty == true, "the grammar read is the one excluding LX40")
    }
}
