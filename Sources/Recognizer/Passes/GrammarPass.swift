import FlightCore

/// Decodes an utterance against a flight grammar (today's flights): the words heard, where, and the path's score.
///
/// Fed incrementally (`PassFeeding.incremental`), it also gives partial hypotheses and the voice-activity signal while
/// the audio streams in. Thread rule: not `Sendable` (see `DecodingPass`).
final class GrammarPass: DecodingPass {
    let utterance: PassUtterance
    private let nbestLimit: Int
    private let nbestVisitLimit: Int

    /// Owns `decoder`; reads up to `nbestLimit` distinct n-best hypotheses (0: none), visiting at most `nbestVisitLimit`.
    init(decoder: PocketSphinxDecoder, nbestLimit: Int = 0, nbestVisitLimit: Int = 0, searchPrefix: String = "flights") {
        utterance = PassUtterance(decoder: decoder, searchPrefix: searchPrefix)
        self.nbestLimit = nbestLimit
        self.nbestVisitLimit = nbestVisitLimit
    }

    /// The best hypothesis so far ("" or nil before one forms).
    var partialText: String? { utterance.decoder.hypothesis()?.text }

    /// True while the decoder's voice-activity detector hears speech (incremental feeding).
    var inSpeech: Bool { utterance.decoder.inSpeech }

    func readOutput() -> GrammarReading {
        let decoder = utterance.decoder
        let hypothesis = decoder.hypothesis()
        let segments = decoder.segments()
        let words = segments.filter { FlightRecognizer.isWord($0.word) }
        let nbest = nbestLimit > 0 ? decoder.nbest(limit: nbestLimit, maximumVisited: nbestVisitLimit) : []
        return GrammarReading(
            text: hypothesis?.text ?? "", pathScore: hypothesis?.score ?? 0, words: words,
            phoneCounts: words.map { word in decoder.pronunciation(of: word.word).map { $0.split(separator: " ").count } },
            frameCount: decoder.frameCount, nbest: nbest.map { GrammarReading.Alternative(text: $0.text, pathScore: $0.score) })
    }
}

/// What a grammar pass heard in one utterance.
struct GrammarReading: Sendable {
    /// Another hypothesis of the n-best list and its path score.
    struct Alternative: Sendable {
        let text: String
        let pathScore: Int32
    }

    /// The best word sequence; "" when no path reached the grammar's end.
    let text: String
    /// The best path's score (the decoder's scaled log base; higher is better); 0 without a path.
    let pathScore: Int32
    /// The words of the best path, without silences and fillers, with frames (of the decoded audio) and scores.
    let words: [PocketSphinxDecoder.Segment]
    /// Phones of each word's pronunciation as decoded; nil when the dictionary does not know it.
    let phoneCounts: [Int?]
    /// Frames decoded.
    let frameCount: Int
    /// Distinct n-best hypotheses, best first (empty unless asked for).
    let nbest: [Alternative]

    /// True when a path through the grammar holds at least one word.
    var hasPath: Bool { !text.isEmpty && !words.isEmpty }
}

/// Decodes an utterance against today's grammar less the flights already heard: the nearest rival among today's flights.
///
/// Thread rule: not `Sendable` (see `DecodingPass`).
final class RivalPass: DecodingPass {
    let utterance: PassUtterance
    /// The grammar installed by the last `exclude`.
    private(set) var rivals: FlightGrammar?
    /// Searches compiled for recent exclusions, the most recently used last: the same flight heard again (a query
    /// repeated, two travellers taking turns) reuses its compiled search instead of building and compiling the grammar
    /// again, about a third of the rival pass's instructions (callgrind). Searches are independent of each other in
    /// the decoder, so a reused one decodes as a new one would.
    private var compiled: [(exclusion: Exclusion, search: String, grammar: FlightGrammar)] = []
    /// Compiled searches kept at most: each of a day's grammar holds about 24 MB (16 kept raised a worker's peak RSS
    /// from 305 to 683 MB), so only the active one and the one before it.
    static let compiledSearchLimit = 2

    /// What a rival grammar was built for.
    private struct Exclusion: Equatable {
        let flights: Set<FlightNumber>
        /// Today's grammar, by its text.
        let today: String
    }

    /// The library's graph of the shared rules around the airline rules (`FlightGrammar.frameJSGF`), by that text.
    private var frame: (jsgf: String, graph: WordGraph?)?

    /// Owns `decoder`.
    init(decoder: PocketSphinxDecoder) {
        utterance = PassUtterance(decoder: decoder, searchPrefix: "rivals")
    }

    /// Installs `today` less `flights`; call before `begin`.
    func exclude(_ flights: [FlightNumber], from today: FlightGrammar, pronunciations: inout [String: String]) throws {
        let exclusion = Exclusion(flights: Set(flights), today: today.jsgf)
        if let index = compiled.firstIndex(where: { $0.exclusion == exclusion }) {
            let entry = compiled.remove(at: index)
            try utterance.activate(entry.search)
            compiled.append(entry)
            rivals = entry.grammar
            return
        }
        let grammar = today.excluding(exclusion.flights)
        let search: String
        if let graph = try graph(of: grammar) {
            search = try utterance.installKeepingPrevious(graph, words: grammar.words, pronunciations: &pronunciations)
        } else {
            search = try utterance.installKeepingPrevious(grammar.jsgf, words: grammar.words, pronunciations: &pronunciations)
        }
        compiled.append((exclusion, search, grammar))
        if compiled.count > Self.compiledSearchLimit { utterance.remove(compiled.removeFirst().search) }
        rivals = grammar
    }

    /// Does ahead what the first `exclude` from `today` would: adds its words to the dictionary and builds the frame
    /// its rivals are built in, so that a query's rival is not slowed by them (the first unpredicted rival of a day
    /// took about 0.2 s more than the next).
    func prepare(for today: FlightGrammar, pronunciations: inout [String: String]) throws {
        try utterance.addMissing(today.words, pronunciations: &pronunciations)
        _ = try frameGraph(of: today)
    }

    /// The minimal graph of `grammar`, built in its frame (`FlightGrammar.wordGraph(frame:)`), its words in
    /// alphabetical order; nil when it must be built from its text.
    private func graph(of grammar: FlightGrammar) throws -> WordGraph? {
        try frameGraph(of: grammar).flatMap(grammar.wordGraph(frame:))?.withWordsSorted().minimized()
    }

    /// The library's graph of `grammar.frameJSGF`, built once per text; nil when it carries weights.
    private func frameGraph(of grammar: FlightGrammar) throws -> WordGraph? {
        let frameJSGF = grammar.frameJSGF
        if frame?.jsgf != frameJSGF {
            frame = (frameJSGF, try utterance.decoder.libraryAutomaton(of: frameJSGF, name: "frame", closingEmptyArcs: false).wordGraph)
        }
        return frame?.graph
    }

    func readOutput() -> RivalPath {
        guard let best = utterance.decoder.hypothesis(), !best.text.isEmpty else { return RivalPath(text: "", flight: nil, pathScore: nil) }
        return RivalPath(text: best.text, flight: rivals?.flights(in: best.text).first, pathScore: best.score)
    }
}

/// The best path among today's other flights.
struct RivalPath: Sendable {
    /// Its words ("" without a path).
    let text: String
    /// The flight they name.
    let flight: FlightNumber?
    /// Its path score; nil without a path.
    let pathScore: Int32?
}

/// Decodes an utterance with a free phone loop: what the audio sounds like when no words are forced on it.
///
/// Thread rule: not `Sendable` (see `DecodingPass`).
final class PhoneLoopPass: DecodingPass {
    let utterance: PassUtterance

    /// Owns `decoder`, which must have been built with `-allphone`.
    init(decoder: PocketSphinxDecoder) {
        utterance = PassUtterance(decoder: decoder)
    }

    /// The phones of the best path with their frames and acoustic scores.
    func readOutput() -> [PocketSphinxDecoder.Segment] {
        utterance.decoder.segments()
    }
}

/// Decodes an utterance against `OpenFlightGrammar` (any flight-number shape): a second opinion on which flight was said.
///
/// Thread rule: not `Sendable` (see `DecodingPass`).
final class OpenGrammarPass: DecodingPass {
    let utterance: PassUtterance

    /// Owns `decoder`.
    init(decoder: PocketSphinxDecoder) {
        utterance = PassUtterance(decoder: decoder)
    }

    /// The open grammar's words and their segments (none when it found no path).
    func readOutput() -> (text: String, segments: [PocketSphinxDecoder.Segment]) {
        let text = utterance.decoder.hypothesis()?.text ?? ""
        return (text, text.isEmpty ? [] : utterance.decoder.segments())
    }
}
