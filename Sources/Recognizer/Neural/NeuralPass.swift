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
/// once its start shows it names no carrier phrase (`WhisperNextTokenScorer`). Where asked, the tuned decoder reads
/// today's flights the same way on the same encoding (`DecisionFeatures.TunedReading`; no off-list neighbours).
///
/// Thread rule: not `Sendable` (it holds today's candidate tree, rebuilt by `load`); one thread at a time, like the
/// other passes. The model's weights are shared by every pass of the process (`NeuralModelParts.shared`).
final class NeuralPass {
    private let parts: NeuralModelParts
    private let configuration: NeuralPassConfiguration
    private var scoring: TodaysFlightsScoring
    private var reader: FreeTranscriptReader
    private var offListNeighbours: OffListNeighbours
    /// CPU seconds the last `read` spent on a thread of its own (the tuned decoder's, read beside the stock one's), which
    /// the caller's thread clock does not count.
    private(set) var helperThreadCPUSeconds = 0.0

    /// Loads (or reuses) the model in `folder` and writes today's candidates of `vocabulary`; throws
    /// `RecognizerError` naming the folder and what is wrong with it.
    init(folder: String, decoderAdaptation: String?, vocabulary: FlightVocabulary, grammar: FlightGrammar,
         configuration: NeuralPassConfiguration) throws {
        parts = try NeuralModelParts.shared(folder: folder, decoderAdaptation: decoderAdaptation, blasThreadCount: configuration.blasThreadCount)
        self.configuration = configuration
        (scoring, reader, offListNeighbours) = Self.candidates(vocabulary, grammar: grammar, tokenizer: parts.tokenizer, configuration: configuration)
    }

    /// Switches to a new day's flights.
    func load(_ vocabulary: FlightVocabulary, grammar: FlightGrammar) {
        (scoring, reader, offListNeighbours) = Self.candidates(vocabulary, grammar: grammar, tokenizer: parts.tokenizer, configuration: configuration)
    }

    /// The start sequence after `prompt`, as Whisper feeds a prompt: " " + its text, no more than its last half context
    /// less one tokens (`WhisperTokens.startSequence(afterPrompt:)`; an empty prompt is none).
    private func startTokens(after prompt: String) -> [Int] {
        let text = prompt.trimmingCharacters(in: .whitespacesAndNewlines)
        let tokens = text.isEmpty ? [] : parts.tokenizer.encode(" " + text).suffix(parts.model.dimensions.textContextLength / 2 - 1)
        return WhisperTokens.startSequence(afterPrompt: Array(tokens))
    }

    private static func candidates(_ vocabulary: FlightVocabulary, grammar: FlightGrammar, tokenizer: WhisperTokenizer,
                                   configuration: NeuralPassConfiguration) -> (TodaysFlightsScoring, FreeTranscriptReader, OffListNeighbours) {
        let tree = FlightCandidateTree(flights: vocabulary.flights, airlines: vocabulary.airlines, tokenizer: tokenizer,
                                         carrierPhrases: CarrierPhrase.grammarPhrases(inJSGF: grammar.jsgf))
        let scoring = TodaysFlightsScoring(
            candidates: tree, sameNumberRivals: SameNumberRivals(todaysFlights: vocabulary.flights, airlines: vocabulary.airlines),
            tokenizer: tokenizer,
            trieConfiguration: TrieScoringConfiguration(beamWidth: configuration.beamWidth, keptPathWidth: configuration.keptPathWidth))
        return (scoring, FreeTranscriptReader(airlines: vocabulary.airlines, todaysFlights: vocabulary.flights),
                OffListNeighbours(todaysFlights: vocabulary.flights, airlines: vocabulary.airlines))
    }

    /// Reads `samples` (16 kHz mono) after `prompt` (the reading recognizer's: one pass serves the wideband and the
    /// telephone recognizer, whose neural checks were fitted on readings after different prompts,
    /// `DecisionModel.NeuralCheck.prompt`); `grammarFlight`, the flight today's grammar heard, is kept in the beam so that
    /// its rank is known. Where `readsTuned` and the pass has the tuned decoder (`NeuralModelParts.tuned`), it reads the
    /// same encoding with that decoder too (`DecisionFeatures.TunedReading`), on a thread of its own beside the stock
    /// decoder's reading where `NeuralPassConfiguration.readsDecodersConcurrently`. The first flight's off-list
    /// neighbours (a quarter to a third of the pass's time) are scored where `scoresOffList`, asked with the reading so
    /// far, says they are worth it; else the reading says they were skipped. Once `cancellation` is cancelled, the read
    /// stops at its next decoder step and throws `DecodeCancelled`.
    func read(_ samples: [Int16], grammarFlight: FlightNumber?, prompt: String = DecisionModel.stock.neuralCheck?.prompt ?? "",
              readsTuned: Bool = DecisionModel.stock.neuralCheck?.model.readsTunedDecoder ?? false,
              cancellation: DecodeCancellation? = nil,
              scoresOffList: (DecisionFeatures.NeuralReading) -> Bool = { _ in true }) throws -> DecisionFeatures.NeuralReading {
        let audio = samples.map { Float($0) / 32_768 }
        let frames = LogMelSpectrogram.frameCount(forSampleCount: audio.count, marginSeconds: configuration.encoderMarginSeconds)
        let encoding = parts.model.encode(LogMelSpectrogram(samples: audio, frameCount: frames))
        let tokenLimit = min(configuration.maximumFreeTokens,
                             configuration.freeTokensBase + Int(configuration.freeTokensPerSecond * Double(samples.count) / 16_000))
        let start = startTokens(after: prompt)
        let tunedModel = readsTuned ? parts.tuned : nil
        let readTuned = tunedModel.map { model -> @Sendable () throws -> DecisionFeatures.TunedReading in
            { [scoring] in
                try scoring.score(with: model, model.reusingEncoder(of: encoding), startTokens: start, grammarFlight: grammarFlight,
                                  freeTokenLimit: tokenLimit, cancellation: cancellation).tunedReading
            }
        }
        let tunedAlongside = configuration.readsDecodersConcurrently ? readTuned.map { JoinedThread(name: "FlightVoice.tuned-decoder", $0) } : nil
        defer { helperThreadCPUSeconds = tunedAlongside?.cpuSeconds ?? 0 }
        let stock: TodaysFlightScores
        let tunedReading: DecisionFeatures.TunedReading?
        do {
            stock = try scoring.score(with: parts.model, encoding, startTokens: start, grammarFlight: grammarFlight,
                                      freeTokenLimit: tokenLimit, cancellation: cancellation)
            if let tunedAlongside { tunedReading = try tunedAlongside.result() } else { tunedReading = try readTuned?() }
        } catch {
            _ = try? tunedAlongside?.result()
            throw error
        }
        let result = stock.result
        let freeTranscriptFlight = reader.read(stock.freeTranscript).todaysFlight
        let grammarFlightRank = grammarFlight.flatMap(result.rank(of:))
        let best = result.best
        func reading(offList: ScoredFlight?, skipped: Bool) -> DecisionFeatures.NeuralReading {
            DecisionFeatures.NeuralReading(
                flight: best?.flight, text: best?.best.candidate.text.trimmingCharacters(in: .whitespaces) ?? "",
                score: Double(best?.score ?? 0), margin: result.margin.map(Double.init), grammarFlightRank: grammarFlightRank,
                freeTranscript: stock.freeTranscript, freeTranscriptFlight: freeTranscriptFlight,
                offListFlight: offList?.flight, offListMargin: best.flatMap { best in offList.map { Double(best.score - $0.score) } },
                offListSkipped: skipped, tuned: tunedReading)
        }
        guard let best else { return reading(offList: nil, skipped: false) }
        let withoutNeighbours = reading(offList: nil, skipped: true)
        guard scoresOffList(withoutNeighbours) else { return withoutNeighbours }
        let neighbours = TokenTrie(candidates: offListNeighbours.candidates(around: best.best.candidate), tokenizer: parts.tokenizer)
        return reading(offList: try TodaysFlightsScoring.scoring { try stock.scorer.score(neighbours, with: stock.nextTokenScorer, after: stock.prefix).best },
                       skipped: false)
    }
}

/// One decoder's scores of today's flights on an utterance's encoding, and what scores more on the same audio.
private struct TodaysFlightScores {
    let result: TrieScoringResult
    /// The decoder's free transcript of the utterance.
    let freeTranscript: String
    /// The carrier phrase fed before every candidate (`FlightCandidateTree.Plan.prefix`).
    let prefix: [Int]
    let scorer: TrieScorer
    let nextTokenScorer: WhisperNextTokenScorer

    /// The reading as the tuned decoder's (`DecisionFeatures.TunedReading`).
    var tunedReading: DecisionFeatures.TunedReading {
        DecisionFeatures.TunedReading(flight: result.best?.flight, score: Double(result.best?.score ?? 0), margin: result.margin.map(Double.init))
    }
}

/// Today's flights as a decoder's walk reads them: the candidate tree, the same-number rivals, the tokenizer, the beam.
/// A `Sendable` value, so that the two decoders of a pass may walk it on two threads at once.
private struct TodaysFlightsScoring: Sendable {
    let candidates: FlightCandidateTree
    let sameNumberRivals: SameNumberRivals
    let tokenizer: WhisperTokenizer
    let trieConfiguration: TrieScoringConfiguration

    /// `body`, with its errors but cancellation named as the scoring's.
    static func scoring<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let cancelled as DecodeCancelled {
            throw cancelled
        } catch {
            throw RecognizerError(operation: "score today's flights with the neural model", context: "\(error)")
        }
    }

    /// `model`'s free transcript of the utterance and its scores of today's flights after `startTokens` (then of today's
    /// other flights with the best one's number, `SameNumberRivals`), `grammarFlight` kept in the beam.
    func score(with model: WhisperModel, _ encoding: WhisperEncoding, startTokens: [Int], grammarFlight: FlightNumber?,
               freeTokenLimit: Int, cancellation: DecodeCancellation?) throws -> TodaysFlightScores {
        let startStep = model.feed(encoding, tokens: startTokens)
        var freeDecode = GreedyFreeDecode(after: startStep, maximumTokenCount: freeTokenLimit, contextLength: model.dimensions.textContextLength)
        // The free decode goes on alone only while its transcript may still start with a carrier phrase, which
        // decides the ending and what to feed before the tree; past that, its tokens ride in the walk's batches.
        while !freeDecode.isFinished, candidates.mayNeedCarrier(freeTranscriptStart: tokenizer.decode(freeDecode.tokens)) {
            freeDecode.stepAlone(with: model, encoding)
        }
        let plan = candidates.plan(forFreeTranscript: freeDecode.isFinished ? transcript(freeDecode.tokens) : nil)
        let scorer = TrieScorer(configuration: trieConfiguration)
        let nextTokenScorer = WhisperNextTokenScorer(model: model, encoding: encoding, startStep: startStep, freeDecode: freeDecode,
                                                     cancellation: cancellation)
        var result = try Self.scoring {
            try scorer.score(candidates.trie, with: nextTokenScorer, after: plan.prefix, ending: plan.ending, keeping: Set([grammarFlight].compactMap { $0 }))
        }
        // The free transcript is done before the neighbours are asked about: whether they are worth scoring depends on it.
        let freeTranscript = transcript(nextTokenScorer.finishFreeDecode())
        if let best = result.best {
            let rivals = sameNumberRivals.candidates(around: best.best.candidate)
            if !rivals.isEmpty {
                let trie = TokenTrie(candidates: rivals, tokenizer: tokenizer)
                result = result.merging(try Self.scoring { try scorer.score(trie, with: nextTokenScorer, after: plan.prefix) })
            }
        }
        return TodaysFlightScores(result: result, freeTranscript: freeTranscript, prefix: plan.prefix, scorer: scorer, nextTokenScorer: nextTokenScorer)
    }

    private func transcript(_ tokens: [Int]) -> String {
        tokenizer.decode(tokens).trimmingCharacters(in: .whitespaces)
    }
}

/// The neural model's read-only parts, loaded once per folder and process and shared by every worker's pass.
final class NeuralModelParts: Sendable {
    let model: WhisperModel
    /// `model` with its decoder tuned (`RecognizerConfiguration.neuralDecoderAdaptation`); nil without one.
    let tuned: WhisperModel?
    let tokenizer: WhisperTokenizer

    private init(folder: String, decoderAdaptation: String?, blasThreadCount: Int) throws {
        let model: WhisperModel
        do {
            model = try WhisperModel(folder: URL(fileURLWithPath: folder), blasThreadCount: blasThreadCount)
            tokenizer = try WhisperTokenizer(contentsOf: folder + "/tokenizer.json")
        } catch {
            throw RecognizerError(operation: "load the neural model", context: "\(folder): \(error)")
        }
        self.model = model
        do {
            tuned = try decoderAdaptation.map { path throws(WhisperModelError) in try model.adapted(by: CTranslate2ModelFile(path: path)) }
        } catch {
            throw RecognizerError(operation: "load the tuned decoder", context: "\(error)")
        }
    }

    private static let loaded = Mutex<[String: NeuralModelParts]>([:])

    /// The parts in `folder` (with `decoderAdaptation`), loading them on first use.
    static func shared(folder: String, decoderAdaptation: String?, blasThreadCount: Int) throws -> NeuralModelParts {
        try loaded.withLock { loaded in
            let key = folder + "\u{0}" + (decoderAdaptation ?? "")
            if let parts = loaded[key] { return parts }
            let parts = try NeuralModelParts(folder: folder, decoderAdaptation: decoderAdaptation, blasThreadCount: blasThreadCount)
            loaded[key] = parts
            return parts
        }
    }
}
