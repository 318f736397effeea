import FlightCore
import Foundation
import NeuralFlightScoring
@testable import Recognizer
import Testing
import Whisper

/// The neural pass on real audio with the real weights (`make neural-model` puts them in models/whisper-tiny.en; `make
/// test` runs it first): today's flights scored against spoken fixtures, and the reading the decision gets.
@Suite("The neural pass: Whisper tiny.en scoring today's flights", .serialized)
struct NeuralPassTests {
    static let folder = RecognizerConfiguration.bundledNeuralModel

    static func pass() throws -> NeuralPass {
        let folder = try #require(folder, "models/whisper-tiny.en is missing: run make neural-model")
        return try NeuralPass(folder: folder, decoderAdaptation: RecognizerConfiguration.bundledTunedDecoder, vocabulary: TestFlights.vocabulary,
                              grammar: FlightGrammar(vocabulary: TestFlights.vocabulary), configuration: NeuralPassConfiguration())
    }

    @Test("the tuned decoder reads the same audio where asked: its own first flight, score and lead beside the stock decoder's")
    func readsWithTheTunedDecoder() throws {
        let pass = try Self.pass()
        let samples = try TestFlights.samples("lx40.wav")
        let stockOnly = try pass.read(samples, grammarFlight: nil, readsTuned: false)
        #expect(stockOnly.tuned == nil)
        let both = try pass.read(samples, grammarFlight: nil, readsTuned: true)
        let tuned = try #require(both.tuned)
        #expect(both.flight == stockOnly.flight && both.score == stockOnly.score, "the stock reading is the same with the tuned one beside it")
        #expect(tuned.flight == FlightNumber(parsing: "LX40"))
        #expect(tuned.score > both.score, "tuned on such queries, it is surer of this one: \(tuned.score) against \(both.score)")
        #expect((tuned.margin ?? 0) > 0.5, "\(String(describing: tuned.margin))")
    }

    @Test("the two decoders read side by side as one after the other: the same reading, the second thread's CPU counted; a stopped read stops both")
    func readsTheDecodersSideBySide() throws {
        let folder = try #require(Self.folder, "models/whisper-tiny.en is missing: run make neural-model")
        let oneAfterTheOther = try Self.pass()
        var configuration = NeuralPassConfiguration()
        configuration.readsDecodersConcurrently = true
        let sideBySide = try NeuralPass(folder: folder, decoderAdaptation: RecognizerConfiguration.bundledTunedDecoder, vocabulary: TestFlights.vocabulary,
                                        grammar: FlightGrammar(vocabulary: TestFlights.vocabulary), configuration: configuration)
        for clip in ["lx40.wav", "ba287.wav"] {
            let samples = try TestFlights.samples(clip)
            let expected = try oneAfterTheOther.read(samples, grammarFlight: nil, readsTuned: true)
            #expect(oneAfterTheOther.helperThreadCPUSeconds == 0)
            let read = try sideBySide.read(samples, grammarFlight: nil, readsTuned: true)
            #expect(read.tuned != nil, "\(clip)")
            NeuralReadAheadTests.expectSameReading(read, expected, clip)
            #expect(sideBySide.helperThreadCPUSeconds > 0, "\(clip)")
        }
        let cancellation = DecodeCancellation()
        cancellation.cancel()
        #expect(throws: DecodeCancelled.self) {
            try sideBySide.read(try TestFlights.samples("lx40.wav"), grammarFlight: nil, readsTuned: true, cancellation: cancellation)
        }
    }

    @Test("a tuned decoder file that is missing or not one is an error naming it, not a crash")
    func unusableTunedDecoder() throws {
        let folder = try #require(Self.folder, "models/whisper-tiny.en is missing: run make neural-model")
        for file in ["/nonexistent/decoder-adaptation.bin", folder + "/model.bin"] {
            do {
                _ = try NeuralPass(folder: folder, decoderAdaptation: file, vocabulary: TestFlights.vocabulary,
                                   grammar: FlightGrammar(vocabulary: TestFlights.vocabulary), configuration: NeuralPassConfiguration())
                Issue.record("\(file) was taken for a tuned decoder")
            } catch {
                #expect("\(error)".contains("tuned decoder") && "\(error)".contains(file), "\(error)")
            }
        }
    }

    @Test("the prompt is what the decoder reads before every candidate and the free transcript: the same flight, other scores")
    func readsAfterThePrompt() throws {
        let pass = try Self.pass()
        let samples = try TestFlights.samples("ba287.wav")
        let prompted = try pass.read(samples, grammarFlight: nil)
        let unprompted = try pass.read(samples, grammarFlight: nil, prompt: " ")
        #expect(prompted.flight == FlightNumber(parsing: "BA287") && unprompted.flight == prompted.flight)
        #expect(abs(prompted.score - unprompted.score) > 1e-3, "\(prompted.score) against \(unprompted.score)")
        #expect(prompted.margin != unprompted.margin)
        #expect(try pass.read(samples, grammarFlight: nil, prompt: try #require(DecisionModel.stock.neuralCheck).prompt).score == prompted.score)
    }

    @Test("each spoken flight fixture is ranked first among today's, with a lead, and the grammar's flight keeps its rank",
          arguments: ["lx40.wav", "ba287.wav", "lima-xray-1234.wav", "speedbird287.wav", "lh400.wav"])
    func ranksTheFlightSaid(file: String) throws {
        let expected = try #require(try TestFlights.manifest().first { $0.file == file }?.flight)
        let reading = try Self.pass().read(try TestFlights.samples(file), grammarFlight: expected)
        #expect(reading.flight == expected, "\(file): \(reading.text) from \"\(reading.freeTranscript)\"")
        #expect((reading.margin ?? 0) > 0)
        #expect(reading.score < 0)
        #expect(reading.grammarFlightRank == 0)
        #expect(!reading.freeTranscript.isEmpty)
        // Its neighbours that do not fly are scored (lx40.wav's "forty" reads to the model about as well as "4").
        #expect(reading.offListMargin != nil && reading.offListFlight != expected)
    }

    @Test("a flight that does not fly today, said, scores above today's nearest flight, its number or its airline one away",
          arguments: [("lima-xray-1234.wav", "LX1274", "LX1234"), ("lh400.wav", "LX400", "LH400")])
    func offListFlightSaid(file: String, todays: String, said: String) throws {
        let pass = try Self.pass()
        let day = FlightVocabulary(airlines: TestFlights.airlines, flights: [todays, "BA287"].map { FlightNumber(parsing: $0)! })
        pass.load(day, grammar: FlightGrammar(vocabulary: day))
        let reading = try pass.read(try TestFlights.samples(file), grammarFlight: nil)
        #expect(reading.flight == FlightNumber(parsing: todays), "today's nearest: \(reading.text)")
        #expect(reading.offListFlight == FlightNumber(parsing: said))
        #expect((reading.offListMargin ?? 0) < -0.3)
    }

    @Test("told its off-list neighbours are not worth scoring, the pass skips them and reads the rest the same, having asked with that reading")
    func offListSkipped() throws {
        let pass = try Self.pass()
        let samples = try TestFlights.samples("lima-xray-1234.wav")
        let whole = try pass.read(samples, grammarFlight: nil)
        var asked: DecisionFeatures.NeuralReading?
        let skipped = try pass.read(samples, grammarFlight: nil) { reading in
            asked = reading
            return false
        }
        #expect(skipped.offListSkipped && !whole.offListSkipped)
        #expect(skipped.offListFlight == nil && skipped.offListMargin == nil && whole.offListMargin != nil)
        NeuralReadAheadTests.expectSameReading(asked, skipped, "the reading asked about")
        #expect(skipped.flight == whole.flight && skipped.score == whole.score && skipped.margin == whole.margin
                && skipped.freeTranscript == whole.freeTranscript && skipped.freeTranscriptFlight == whole.freeTranscriptFlight)
    }

    @Test("a flight the grammar heard wrongly keeps a rank below the first, and speech naming no flight scores lower than a flight query")
    func ranksOthersBelow() throws {
        let pass = try Self.pass()
        let lx40 = try pass.read(try TestFlights.samples("lx40.wav"), grammarFlight: FlightNumber(parsing: "LX1234"))
        #expect(lx40.flight == FlightNumber(parsing: "LX40"))
        #expect((lx40.grammarFlightRank ?? 0) > 0)
        let exit = try pass.read(try TestFlights.samples("where-exit.wav"), grammarFlight: nil)
        #expect(exit.grammarFlightRank == nil)
        #expect(exit.score < lx40.score, "\"\(exit.freeTranscript)\" scored \(exit.score) as \(exit.text)")
    }

    @Test("a free decode riding in the walk's batches writes what it writes alone, and the walk scores the same with it")
    func freeDecodeRides() throws {
        let parts = try NeuralModelParts.shared(folder: try #require(Self.folder), decoderAdaptation: nil, blasThreadCount: 1)
        let model = parts.model
        let audio = try TestFlights.samples("speedbird287.wav").map { Float($0) / 32_768 }
        let encoding = model.encode(LogMelSpectrogram(samples: audio, frameCount: LogMelSpectrogram.frameCount(forSampleCount: audio.count, marginSeconds: 1)))
        let alone = model.greedyTokens(encoding)
        let start = model.feed(encoding, tokens: WhisperTokens.startSequence)
        let tree = FlightCandidateTree(flights: TestFlights.vocabulary.flights, airlines: TestFlights.vocabulary.airlines,
                                       tokenizer: parts.tokenizer, carrierPhrases: [])
        let (trie, ending) = (tree.trie, tree.statementEnding)
        let without = try TrieScorer().score(trie, with: WhisperNextTokenScorer(model: model, encoding: encoding, startStep: start), ending: ending)
        let riding = WhisperNextTokenScorer(model: model, encoding: encoding, startStep: start, freeDecode: GreedyFreeDecode(
            after: start, maximumTokenCount: 64, contextLength: model.dimensions.textContextLength))
        let with = try TrieScorer().score(trie, with: riding, ending: ending)
        #expect((riding.freeDecode?.tokens.count ?? 0) > 1, "the walk carried the free decode's steps")
        #expect(riding.finishFreeDecode() == alone)
        #expect(parts.tokenizer.decode(alone).lowercased().contains("speedbird"), "\(parts.tokenizer.decode(alone))")
        #expect(with.candidates.count == without.candidates.count)
        let scores = Dictionary(uniqueKeysWithValues: without.candidates.map { ($0.index, $0.score) })
        #expect(with.candidates.allSatisfy { abs($0.score - (scores[$0.index] ?? .infinity)) < 1e-4 })
    }

    @Test("a new day's flights replace the candidates")
    func loadsANewDay() throws {
        let pass = try Self.pass()
        let day = FlightVocabulary(airlines: TestFlights.airlines, flights: ["BA287", "LH400"].map { FlightNumber(parsing: $0)! })
        pass.load(day, grammar: FlightGrammar(vocabulary: day))
        let reading = try pass.read(try TestFlights.samples("lx40.wav"), grammarFlight: nil)
        #expect(reading.flight.map { day.flights.contains($0) } == true)
    }

    @Test("a folder without the model is an error naming it, not a crash")
    func missingModel() {
        #expect(throws: RecognizerError.self) {
            try NeuralPass(folder: "/nonexistent/whisper", decoderAdaptation: nil, vocabulary: TestFlights.vocabulary,
                           grammar: FlightGrammar(vocabulary: TestFlights.vocabulary), configuration: NeuralPassConfiguration())
        }
    }
}
