import FlightCore
import Foundation
import NeuralFlightScoring
import Synchronization
import Whisper

/// The neural acoustic model's pass over a whole utterance: Whisper tiny.en transcribes it freely once and scores
/// every written form of today's flights against the same encoding (`FlightCandidateTree`, walked by `TrieScorer`),
/// then today's other flights with the best one's number (`SameNumberRivals`: the beam may have dropped them) and the
/// best one's off-list neighbours, both in its own words (`OffListNeighbours`), and reports the flights it ranks
/// first as a `DecisionFeatures.NeuralReading`. The free decode's steps ride in the batches of today's flights' walk
/// once its start shows it names no carrier phrase (`WhisperNextTokenScorer`).
///
/// Thread rule: not `Sendable` (it holds today's candidate tree, rebuilt by `load`); one thread at a time, like the
/// other passes. The model's weights are shared by every pass of the process (`NeuralModelParts.shared`).
final class NeuralPass {
    private let parts: NeuralModelParts
    private let configuration: NeuralPassConfiguration
    private var candidates: FlightCandidateTree
    private var reader: FreeTranscriptReader
    private var offListNeighbours: OffListNeighbours
    private var sameNumberRivals: SameNumberRivals

    /// Loads (or reuses) the model in `folder` and writes today's candidates of `vocabulary`; throws
    /// `RecognizerError` naming the folder and what is wrong with it.
    init(folder: String, vocabulary: FlightVocabulary, grammar: FlightGrammar, configuration: NeuralPassConfiguration) throws {
        parts = try NeuralModelParts.shared(folder: folder, blasThreadCount: configuration.blasThreadCount)
        self.configuration = configuration
        (candidates, reader, offListNeighbours, sameNumberRivals) = Self.candidates(vocabulary, grammar: grammar, tokenizer: parts.tokenizer)
    }

    /// Switches to a new day's flights.
    func load(_ vocabulary: FlightVocabulary, grammar: FlightGrammar) {
        (candidates, reader, offListNeighbours, sameNumberRivals) = Self.candidates(vocabulary, grammar: grammar, tokenizer: parts.tokenizer)
    }

    /// The start sequence after `prompt`, as Whisper feeds a prompt: " " + its text, no more than its last half context
    /// less one tokens (`WhisperTokens.startSequence(afterPrompt:)`; an empty prompt is none).
    private func startTokens(after prompt: String) -> [Int] {
        let text = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        let tokens = text.isEmpty ? [] : parts.tokenizer.encode(" " + text).suffix(parts.model.dimensions.textContextLength / 2 - 1)
        return WhisperTokens.startSequence(afterPrompt: Array(tokens))
    }

    private static func candidates(_ vocabulary: FlightVocabulary, grammar: FlightGrammar,
                                   tokenizer: WhisperTokenizer) -> (FlightCandidateTree, FreeTranscriptReader, OffListNeighbours, SameNumberRivals) {
        let tree = FlightCandidateTree(flights: vocabulary.flights, airlines: vocabulary.airlines, tokenizer: tokenizer,
                                         carrierPhrases: CarrierPhrase.grammarPhrases(inJSGF: grammar.jsgf))
        return (tree, FreeTranscriptReader(airlines: vocabulary.airlines, todaysFlights: vocabulary.flights),
                OffListNeighbours(todaysFlights: vocabulary.flights, airlines: vocabulary.airlines),
                SameNumberRivals(todaysFlights: vocabulary.flights, airlines: vocabulary.airlines))
    }

    /// Reads `samples` (16 kHz mono) after `prompt` (the reading recognizer's: one pass serves the wideband and the
    /// telephone recognizer, whose neural checks were fitted on readings after different prompts,
    /// `DecisionModel.NeuralCheck.prompt`); `grammarFlight`, the flight today's grammar heard, is kept in the beam so that
    /// its rank is known. The first flight's off-list neighbours (a quarter to a third of the pass's time) are scored
    /// where `scoresOffList`, asked with the reading so far, says they are worth it; else the reading says they were
    /// skipped. Once `cancellation` is cancelled, the read stops at its next decoder step and throws `DecodeCancelled`.
    func read(_ samples: [Int16], grammarFlight: FlightNumber?, prompt: String = DecisionModel.stock.neuralCheck?.prompt ?? "",
              cancellation: DecodeCancellation? = nil,
              scoresOffList: (DecisionFeatures.NeuralReading) -> Bool = { _ in true }) throws -> DecisionFeatures.NeuralReading {
        let audio = samples.map { Float($0) / 32_768 }
        let frames = LogMelSpectrogram.frameCount(forSampleCount: audio.count, marginSeconds: configuration.encoderMarginSeconds)
        let encoding = parts.model.encode(LogMelSpectrogram(samples: audio, frameCount: frames))
        let tokenLimit = min(configuration.maximumFreeTokens,
                             configuration.freeTokensBase + Int(configuration.freeTokensPerSecond * Double(samples.count) / 16_000))
        let startStep = parts.model.feed(encoding, tokens: startTokens(after: prompt))
        var freeDecode = GreedyFreeDecode(after: startStep, maximumTokenCount: tokenLimit, contextLength: parts.model.dimensions.textContextLength)
        // The free decode goes on alone only while its transcript may still start with a carrier phrase, which
        // decides the ending and what to feed before the tree; past that, its tokens ride in the walk's batches.
        while !freeDecode.isFinished, candidates.mayNeedCarrier(freeTranscriptStart: parts.tokenizer.decode(freeDecode.tokens)) {
            freeDecode.stepAlone(with: parts.model, encoding)
        }
        let plan = candidates.plan(forFreeTranscript: freeDecode.isFinished ? transcript(freeDecode.tokens) : nil)
        let scorer = TrieScorer(configuration: TrieScoringConfiguration(beamWidth: configuration.beamWidth, keptPathWidth: configuration.keptPathWidth))
        let nextTokenScorer = WhisperNextTokenScorer(model: parts.model, encoding: encoding, startStep: startStep, freeDecode: freeDecode,
                                                     cancellation: cancellation)
        func scoring<Result>(_ body: () throws -> Result) throws -> Result {
            do {
                return try body()
            } catch let cancelled as DecodeCancelled {
                throw cancelled
            } catch {
                throw RecognizerError(operation: "score today's flights with the neural model", context: "\(error)")
            }
        }
        var result = try scoring { try scorer.score(candidates.trie, with: nextTokenScorer, after: plan.prefix, ending: plan.ending, keeping: Set([grammarFlight].compactMap { $0 })) }
        // The free transcript is done before the neighbours are asked about: whether they are worth scoring depends on it.
        let freeTranscript = transcript(nextTokenScorer.finishFreeDecode())
        if let best = result.best {
            let rivals = sameNumberRivals.candidates(around: best.best.candidate)
            if !rivals.isEmpty {
                let trie = TokenTrie(candidates: rivals, tokenizer: parts.tokenizer)
                result = result.merging(try scoring { try scorer.score(trie, with: nextTokenScorer, after: plan.prefix) })
            }
        }
        let freeTranscriptFlight = reader.read(freeTranscript).todaysFlight
        let grammarFlightRank = grammarFlight.flatMap(result.rank(of:))
        let best = result.best
        func reading(offList: ScoredFlight?, skipped: Bool) -> DecisionFeatures.NeuralReading {
            DecisionFeatures.NeuralReading(
                flight: best?.flight, text: best?.best.candidate.text.trimmingCharacters(in: .whitespaces) ?? "",
                score: Double(best?.score ?? 0), margin: result.margin.map(Double.init), grammarFlightRank: grammarFlightRank,
                freeTranscript: freeTranscript, freeTranscriptFlight: freeTranscriptFlight,
                offListFlight: offList?.flight, offListMargin: best.flatMap { best in offList.map { Double(best.score - $0.score) } },
                offListSkipped: skipped)
        }
        guard let best else { return reading(offList: nil, skipped: false) }
        let withoutNeighbours = reading(offList: nil, skipped: true)
        guard scoresOffList(withoutNeighbours) else { return withoutNeighbours }
        let neighbours = TokenTrie(candidates: offListNeighbours.candidates(around: best.best.candidate), tokenizer: parts.tokenizer)
        return reading(offList: try scoring { try scorer.score(neighbours, with: nextTokenScorer, after: plan.prefix).best }, skipped: false)
    }

    private func transcript(_ tokens: [Int]) -> String {
        parts.tokenizer.decode(tokens).trimmingCharacters(in: .whitespaces)
    }
}

/// The neural model's read-only parts, loaded once per folder and process and shared by every worker's pass.
final class NeuralModelParts: Sendable {
    let model: WhisperModel
    let tokenizer: WhisperTokenizer

    private init(folder: String, blasThreadCount: Int) throws {
        do {
            model = try WhisperModel(folder: URL(fileURLWithPath: folder), blasThreadCount: blasThreadCount)
            tokenizer = try WhisperTokenizer(contentsOf: folder + "/tokenizer.json")
        } catch {
            throw RecognizerError(operation: "load the neural model", context: "\(folder): \(error)")
        }
    }

    private static let loaded = Mutex<[String: NeuralModelParts]>([:])

    /// The parts in `folder`, loading them on first use.
    static func shared(folder: String, blasThreadCount: Int) throws -> NeuralModelParts {
        try loaded.withLock { loaded in
            if let parts = loaded[folder] { return parts }
            let parts = try NeuralModelParts(folder: folder, blasThreadCount: blasThreadCount)
            loaded[folder] = parts
            return parts
        }
    }
}
