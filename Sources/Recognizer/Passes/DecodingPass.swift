/// How a decoding pass takes an utterance's audio.
enum PassFeeding: Sendable {
    /// Samples fed are kept and decoded at `end` in one call: the decoder normalizes the features over the whole
    /// utterance. What every final result is decided on; feeding it in chunks gives the same result as feeding it whole.
    case wholeUtterance
    /// Samples are decoded as they are fed, with the library's running normalization: partial hypotheses and the
    /// voice-activity signal are available while the audio streams in, and `end` has little left to do. Results differ
    /// slightly from `wholeUtterance` (the running estimate starts from the previous utterance's).
    case incremental
}

/// One decode of an utterance with one job (today's grammar, the phone loop, the open grammar, the rival).
///
/// A pass is fed incrementally: `begin()`, `feed(_:)` any number of times with chunks of 16 kHz mono samples, then
/// `end()` for its output. A whole clip is `decode(_:)`: begin, feed all, end.
///
/// Thread rule: a pass owns its PocketSphinx decoder and is not `Sendable`; one thread at a time, between `begin` and
/// `end` on the same thread or handed over whole (see `ComparisonPasses`).
protocol DecodingPass: AnyObject {
    /// What the pass concludes about an utterance.
    associatedtype Output
    /// The decoder and the utterance in progress.
    var utterance: PassUtterance { get }
    /// Reads the output off the decoder once the utterance has ended.
    func readOutput() throws -> Output
}

extension DecodingPass {
    /// Starts an utterance, fed as `feeding` says.
    func begin(feeding: PassFeeding = .wholeUtterance) throws {
        try utterance.begin(feeding: feeding)
    }

    /// Takes the next chunk of the utterance.
    func feed(_ samples: ArraySlice<Int16>) throws {
        try utterance.feed(samples)
    }

    /// Ends the utterance and returns what the pass concluded.
    func end() throws -> Output {
        try utterance.end()
        return try readOutput()
    }

    /// Decodes a whole utterance: begin, feed all, end.
    func decode(_ samples: [Int16]) throws -> Output {
        try begin()
        try feed(samples[...])
        return try end()
    }

    /// Decodes a whole utterance from its cepstra, computed once for all passes (`PocketSphinxDecoder.cepstra(of:)`):
    /// the same output as `decode(_:)` of its samples, without this pass's decoder running its front end again.
    func decode(_ cepstra: Cepstra) throws -> Output {
        try begin()
        try utterance.end(with: cepstra)
        return try readOutput()
    }
}

/// A pass's decoder, its active grammar search and the utterance being fed to it.
///
/// Thread rule: not `Sendable`, as the decoder it owns.
final class PassUtterance {
    /// The decoder; only this pass uses it.
    let decoder: PocketSphinxDecoder
    /// The active search's name, nil before a grammar is installed (phone loop).
    private(set) var searchName: String?
    private var searchGeneration = 0
    private let searchPrefix: String
    private var feeding: PassFeeding?
    private var pending: [Int16] = []

    /// Owns `decoder`; grammar searches it installs are named `searchPrefix` and a running number.
    init(decoder: PocketSphinxDecoder, searchPrefix: String = "flights") {
        self.decoder = decoder
        self.searchPrefix = searchPrefix
    }

    /// True between `begin` and `end`.
    var isInUtterance: Bool { feeding != nil }

    /// Adds `words` missing from the dictionary (with pronunciations from `pronunciations`, or derived and recorded
    /// there) and activates `jsgf` under a new search name (reusing a name for a new grammar crashed this library
    /// version), dropping the previous search. `minimized`: see `PocketSphinxDecoder.useGrammar`.
    func install(_ jsgf: String, words: [String], pronunciations: inout [String: String], minimized: Bool = true) throws {
        let old = searchName
        _ = try installKeepingPrevious(jsgf, words: words, pronunciations: &pronunciations, minimized: minimized)
        if let old { decoder.removeSearch(old) }
    }

    /// `install`, but the previous search stays in the decoder (to `activate` again later, or `remove`); returns the
    /// new search's name.
    func installKeepingPrevious(_ jsgf: String, words: [String], pronunciations: inout [String: String],
                                minimized: Bool = true) throws -> String {
        try installKeepingPrevious(words: words, pronunciations: &pronunciations) { try $0.useGrammar(jsgf, name: $1, minimized: minimized) }
    }

    /// `installKeepingPrevious` of a grammar already built as a graph (see `PocketSphinxDecoder.useGraph`).
    func installKeepingPrevious(_ graph: WordGraph, words: [String], pronunciations: inout [String: String]) throws -> String {
        try installKeepingPrevious(words: words, pronunciations: &pronunciations) { try $0.useGraph(graph, name: $1) }
    }

    /// Adds the missing `words` and compiles a new search with `compile(decoder, name)`; returns its name.
    private func installKeepingPrevious(words: [String], pronunciations: inout [String: String],
                                        compile: (PocketSphinxDecoder, String) throws -> Void) throws -> String {
        try addMissing(words, pronunciations: &pronunciations)
        searchGeneration += 1
        let name = "\(searchPrefix)\(searchGeneration)"
        try compile(decoder, name)
        searchName = name
        return name
    }

    /// Adds the `words` missing from the decoder: those of its dictionary file with their phones there, the others
    /// with pronunciations from `pronunciations`, or derived and recorded there.
    func addMissing(_ words: [String], pronunciations: inout [String: String]) throws {
        var added: [String: String] = [:]
        let missing = decoder.missingWords(words)
        for word in missing.unknown {
            added[word] = pronunciations[word] ?? Pronouncer.phones(for: word) { decoder.knownPronunciation(of: $0) }
        }
        try decoder.addWords(missing.inDictionary + missing.unknown.map { ($0, added[$0]!) })
        pronunciations.merge(added) { _, new in new }
    }

    /// Makes a search kept by `installKeepingPrevious` the active one again.
    func activate(_ name: String) throws {
        try decoder.activate(name)
        searchName = name
    }

    /// Drops a kept search that is not the active one.
    func remove(_ name: String) {
        guard name != searchName else { return }
        decoder.removeSearch(name)
    }

    func begin(feeding: PassFeeding) throws {
        if isInUtterance { abandon() }
        try decoder.startUtterance()
        self.feeding = feeding
        pending = []
    }

    func feed(_ samples: ArraySlice<Int16>) throws {
        switch feeding {
        case .wholeUtterance?:
            pending.append(contentsOf: samples)
        case .incremental?:
            do {
                try samples.withUnsafeBufferPointer { try decoder.process($0, wholeUtterance: false) }
            } catch {
                abandon()
                throw error
            }
        case nil:
            throw RecognizerError(operation: "feed decoding pass", context: "no utterance begun")
        }
    }

    func end() throws {
        guard let feeding else { throw RecognizerError(operation: "end decoding pass", context: "no utterance begun") }
        if feeding == .wholeUtterance {
            do {
                try pending.withUnsafeBufferPointer { try decoder.process($0, wholeUtterance: true) }
            } catch {
                abandon()
                throw error
            }
        }
        self.feeding = nil
        pending = []
        try decoder.endUtterance()
    }

    /// Ends a whole-utterance decode begun without samples by decoding `cepstra` (see `DecodingPass.decode(_:)`).
    func end(with cepstra: Cepstra) throws {
        guard feeding == .wholeUtterance, pending.isEmpty else {
            throw RecognizerError(operation: "end decoding pass", context: "cepstra end a whole utterance begun without samples")
        }
        do {
            try decoder.process(cepstra)
        } catch {
            abandon()
            throw error
        }
        feeding = nil
        try decoder.endUtterance()
    }

    /// Ends an utterance in progress without reading it.
    func abandon() {
        guard isInUtterance else { return }
        feeding = nil
        pending = []
        try? decoder.endUtterance()
    }
}
