import CPocketSphinx
import Foundation

/// One PocketSphinx decoder (`ps_decoder_t`) and the configuration (`cmd_ln_t`) it was built from.
///
/// Thread rule: not `Sendable`. Use one decoder per thread (or behind one owning actor); never share it.
final class PocketSphinxDecoder {
    /// The C handle; valid from `init` until `deinit`.
    let handle: OpaquePointer
    private let config: OpaquePointer
    /// The `strdup`ed argument strings `cmd_ln_parse_r` read; kept alive as long as the decoder.
    private var argumentStrings: [UnsafeMutablePointer<CChar>?]
    private let verbose: Bool
    /// The dictionary named by `-dict`, which the decoder loaded slim (see `PronunciationDictionary`).
    private let dictionary: PronunciationDictionary?

    /// A word of a hypothesis with its frame range (100 frames per second) and acoustic score.
    struct Segment {
        let word: String
        let startFrame: Int
        let endFrame: Int
        let acousticScore: Int32
        let languageScore: Int32

        /// Frames the segment spans, at least one.
        var frameCount: Int { max(startFrame, endFrame) - startFrame + 1 }
    }

    /// Builds a decoder from `-name value` pairs; throws with the library's messages when it refuses them.
    init(arguments: [(String, String)], verbose: Bool) throws {
        self.verbose = verbose
        let dictionary = try arguments.first { $0.0 == "-dict" }.map { try PronunciationDictionary.shared(path: $0.1) }
        self.dictionary = dictionary
        var strings: [UnsafeMutablePointer<CChar>?] = [strdup("flightvoice")]
        for (name, value) in arguments.map({ $0.0 == "-dict" ? ($0.0, dictionary!.decoderPath) : $0 }) {
            strings.append(strdup(name))
            strings.append(strdup(value))
        }
        argumentStrings = strings
        let parsed: OpaquePointer? = LibraryLog.capturing(verbose: verbose) {
            strings.withUnsafeMutableBufferPointer { buffer in
                cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
            }
        }
        guard let parsed else {
            strings.forEach { free($0) }
            throw RecognizerError(operation: "parse decoder configuration", libraryMessages: LibraryLog.takeLines(),
                                  context: arguments.map { "\($0.0) \($0.1)" }.joined(separator: " "))
        }
        config = parsed
        var lines: [String] = []
        let decoder: OpaquePointer? = LibraryLog.capturing(verbose: verbose) {
            defer { lines = LibraryLog.takeLines() }
            return ps_init(parsed)
        }
        guard let decoder else {
            cmd_ln_free_r(parsed)
            strings.forEach { free($0) }
            throw RecognizerError(operation: "initialize decoder", libraryMessages: lines,
                                  context: arguments.first { $0.0 == "-hmm" }.map { "acoustic model \($0.1)" })
        }
        handle = decoder
    }

    deinit {
        _ = ps_free(handle)
        _ = cmd_ln_free_r(config)
        argumentStrings.forEach { free($0) }
    }

    /// Runs a library call with its log captured; throws `RecognizerError` when `failed` says the result is a failure.
    private func call<T>(_ operation: String, context: String? = nil, code: (T) -> Int32? = { _ in nil },
                         failed: (T) -> Bool, _ body: () -> T) throws -> T {
        var lines: [String] = []
        let result = LibraryLog.capturing(verbose: verbose) {
            defer { lines = LibraryLog.takeLines() }
            return body()
        }
        if failed(result) {
            throw RecognizerError(operation: operation, returnCode: code(result), libraryMessages: lines, context: context)
        }
        return result
    }

    private func check(_ operation: String, context: String? = nil, _ body: () -> Int32) throws {
        _ = try call(operation, context: context, code: { $0 }, failed: { $0 < 0 }, body)
    }

    /// The pronunciation (space-separated phones) of `word` in the dictionary, or nil when it is missing.
    func pronunciation(of word: String) -> String? {
        LibraryLog.capturing(verbose: verbose) {
            guard let phones = ps_lookup_word(handle, word) else { return nil }
            defer { free(phones) }
            return String(cString: phones)
        }
    }

    /// `word`'s pronunciation in the decoder's dictionary, or else in the whole dictionary file it was given (not yet
    /// added to the decoder: see `PronunciationDictionary`).
    func knownPronunciation(of word: String) -> String? {
        pronunciation(of: word) ?? dictionary?.pronunciation(of: word)
    }

    /// Of `words`, those the decoder lacks: with their phones where its dictionary file defines them (what `addWords`
    /// must add before a grammar of them compiles), else unknown.
    func missingWords(_ words: [String]) -> (inDictionary: [(word: String, phones: String)], unknown: [String]) {
        var inDictionary: [(word: String, phones: String)] = [], unknown: [String] = []
        for word in words where pronunciation(of: word) == nil {
            if let phones = dictionary?.pronunciation(of: word) { inDictionary.append((word, phones)) } else { unknown.append(word) }
        }
        return (inDictionary, unknown)
    }

    /// Adds each word with its phones to the dictionary, rebuilding the active search after the last.
    func addWords(_ entries: [(word: String, phones: String)]) throws {
        for (index, entry) in entries.enumerated() {
            try check("add word to dictionary", context: "\(entry.word) = \(entry.phones)") {
                ps_add_word(handle, entry.word, entry.phones, index == entries.count - 1 ? 1 : 0)
            }
        }
    }

    /// Compiles `jsgf` as a new search called `name` and makes it the active search. With `minimized`, the automaton
    /// the library builds from the grammar is minimized first (`WordGraph`): the same word sequences in far fewer
    /// states, which the search visits on every frame.
    /// An alternative that carries a weight keeps the library's automaton, as `ps_set_jsgf_string` builds it.
    func useGrammar(_ jsgf: String, name: String, minimized: Bool) throws {
        if minimized, let graph = try minimizedGraph(of: jsgf, name: name) { return try useGraph(graph, name: name) }
        try use(try libraryAutomaton(of: jsgf, name: name), name: name)
    }

    /// Compiles `graph` (every arc with probability 1) as a new search called `name` and makes it the active search;
    /// the arcs of the words' alternate pronunciations are added with the graph's (`GrammarAutomaton`), unless not
    /// `addingAlternates`: the grammar search then adds them itself.
    func useGraph(_ graph: WordGraph, name: String, addingAlternates: Bool = true) throws {
        guard let logMath = ps_get_logmath(handle) else { throw RecognizerError(operation: "build grammar", context: "search \(name)") }
        let alternates = addingAlternates && cmd_ln_int_r(config, "-fsgusealtpron") != 0 ? alternatePronunciations(of: graph.words) : [:]
        try use(GrammarAutomaton(graph, name: name, logMath: logMath, languageWeight: Float(cmd_ln_float_r(config, "-lw")),
                                 alternates: alternates), name: name)
    }

    /// The dictionary's other pronunciations of each of `words` that has some ("forty" → ["forty(2)"]), in the order
    /// the dictionary chains them: the one added last first.
    func alternatePronunciations(of words: [String]) -> [String: [String]] {
        var alternates: [String: [String]] = [:]
        for word in words {
            var found: [String] = []
            while pronunciation(of: "\(word)(\(found.count + 2))") != nil { found.append("\(word)(\(found.count + 2))") }
            if !found.isEmpty { alternates[word] = found.reversed() }
        }
        return alternates
    }

    private func use(_ automaton: GrammarAutomaton, name: String) throws {
        try check("compile grammar", context: "search \(name)") { ps_set_fsg(handle, name, automaton.model) }
        try check("activate grammar", context: "search \(name)") { ps_set_search(handle, name) }
    }

    /// The minimal automaton of `jsgf`'s public rule, as `useGrammar(minimized: true)` installs it; nil when an
    /// alternative carries a weight. Minimized from the library's automaton before its closure of the arcs that read
    /// nothing: `WordGraph` takes that closure itself, and the minimal automaton of the same word sequences is the same.
    func minimizedGraph(of jsgf: String, name: String) throws -> WordGraph? {
        try libraryAutomaton(of: jsgf, name: name, closingEmptyArcs: false).wordGraph?.minimized()
    }

    /// The automaton the library builds from `jsgf`'s public rule: as `ps_set_jsgf_string` builds it, or without the
    /// closure of its arcs that read nothing (`jsgf_build_fsg_raw`; the same word sequences, for `WordGraph`).
    func libraryAutomaton(of jsgf: String, name: String, closingEmptyArcs: Bool = true) throws -> GrammarAutomaton {
        let context = "search \(name)"
        let parsed = ParsedJSGF(taking: try call("parse grammar", context: context, failed: { $0 == nil }) {
            jsgf_parse_string(jsgf, nil)
        }!)
        let rule = try call("find the grammar's public rule", context: context, failed: { $0 == nil }) {
            jsgf_get_public_rule(parsed.handle)
        }!
        guard let logMath = ps_get_logmath(handle) else { throw RecognizerError(operation: "build grammar", context: context) }
        let languageWeight = Float(cmd_ln_float_r(config, "-lw"))
        return GrammarAutomaton(taking: try call("build grammar", context: context, failed: { $0 == nil }) {
            closingEmptyArcs ? jsgf_build_fsg(parsed.handle, rule, logMath, languageWeight)
                : jsgf_build_fsg_raw(parsed.handle, rule, logMath, languageWeight)
        }!)
    }

    /// Makes the existing search `name` the active one.
    func activate(_ name: String) throws {
        try check("activate search", context: "search \(name)") { ps_set_search(handle, name) }
    }

    /// Removes a search that is no longer active.
    func removeSearch(_ name: String) {
        _ = LibraryLog.capturing(verbose: verbose) { ps_unset_search(handle, name) }
    }

    /// Starts an utterance. With `freshStream`, first resets the front end's noise and voice-activity estimates,
    /// which otherwise carry over from earlier utterances and make results depend on what was decoded before.
    func startUtterance(freshStream: Bool = true) throws {
        if freshStream { try check("start stream") { ps_start_stream(handle) } }
        try check("start utterance") { ps_start_utt(handle) }
    }

    /// Feeds 16 kHz 16-bit samples; `wholeUtterance` says they are the complete utterance (batch normalization).
    func process(_ samples: UnsafeBufferPointer<Int16>, wholeUtterance: Bool) throws {
        guard let base = samples.baseAddress, samples.count > 0 else { return }
        try check("process audio") { ps_process_raw(handle, base, samples.count, 0, wholeUtterance ? 1 : 0) }
    }

    /// The cepstra of a whole utterance of 16 kHz samples, computed by this decoder's front end as `process(_:wholeUtterance:
    /// true)` computes them after a fresh stream (the same calls in the same order), so that decoders built with the same
    /// front-end arguments can decode them with `process(_:)` instead of each computing them again. Leaves the front end
    /// mid-stream: `startUtterance()` starts a fresh one.
    func cepstra(of samples: UnsafeBufferPointer<Int16>) throws -> Cepstra {
        guard let frontEnd = ps_get_fe(handle) else { throw RecognizerError(operation: "compute cepstra", context: "the decoder has no front end") }
        let width = Int(fe_get_output_size(frontEnd))
        guard let base = samples.baseAddress, samples.count > 0 else { return Cepstra(width: width, values: []) }
        return try call("compute cepstra", failed: { $0 == nil }) { () -> Cepstra? in
            fe_start_stream(frontEnd)
            guard fe_start_utt(frontEnd) >= 0 else { return nil }
            var remaining = samples.count
            var frames: Int32 = 0
            guard fe_process_frames(frontEnd, nil, &remaining, nil, &frames, nil) >= 0 else { return nil }
            var values = [mfcc_t](repeating: 0, count: (Int(frames) + 1) * width)
            var tail: Int32 = 0
            let succeeded = values.withUnsafeMutableBufferPointer { buffer -> Bool in
                var rows: [UnsafeMutablePointer<mfcc_t>?] = (0...Int(frames)).map { buffer.baseAddress! + $0 * width }
                var next: UnsafePointer<Int16>? = base
                remaining = samples.count
                guard fe_start_utt(frontEnd) >= 0,
                      fe_process_frames(frontEnd, &next, &remaining, &rows, &frames, nil) >= 0 else { return false }
                return fe_end_utt(frontEnd, rows[Int(frames)], &tail) >= 0
            }
            guard succeeded else { return nil }
            return Cepstra(width: width, values: Array(values.prefix((Int(frames) + Int(tail)) * width)))
        }!
    }

    /// Feeds the cepstra of a whole utterance (see `cepstra(of:)`), normalized over the utterance like whole samples.
    func process(_ cepstra: Cepstra) throws {
        guard cepstra.frameCount > 0 else { return }
        // The library normalizes the cepstra in place, so it works on a copy of its own.
        var values = cepstra.values
        try values.withUnsafeMutableBufferPointer { buffer in
            var rows: [UnsafeMutablePointer<mfcc_t>?] = (0..<cepstra.frameCount).map { buffer.baseAddress! + $0 * cepstra.width }
            try check("process cepstra") { ps_process_cep(handle, &rows, Int32(cepstra.frameCount), 0, 1) }
        }
    }

    /// Ends the utterance; the hypothesis, segments and n-best are then final.
    func endUtterance() throws {
        try check("end utterance") { ps_end_utt(handle) }
    }

    /// For the frames fed next, normalizes with the running mean of the cepstra fed so far (`-cmn live`, to which
    /// incremental feeding switches), the mean of the utterances heard before counting as `priorFrames` frames when
    /// given (call with it once an utterance has begun). A fresh decoder has heard none: its running mean is the
    /// utterance's own from the first frame. The library itself moves that mean only every few seconds (see
    /// `RecognizerConfiguration.streamingMeanPriorFrames`).
    func followRunningMean(priorFrames: Int? = nil) {
        guard let features = ps_get_feat(handle), let normalization = features.pointee.cmn_struct else { return }
        let running = normalization.pointee
        guard running.nframe > 0 else { return }
        if let priorFrames, priorFrames > 0 {
            let scale = Float(priorFrames) / Float(running.nframe)
            for index in 0..<Int(running.veclen) { running.sum[index] *= scale }
            normalization.pointee.nframe = Int32(priorFrames)
        }
        let frames = Float(normalization.pointee.nframe)
        for index in 0..<Int(running.veclen) { running.cmn_mean[index] = running.sum[index] / frames }
    }

    /// True while the voice-activity detector hears speech.
    var inSpeech: Bool { ps_get_in_speech(handle) != 0 }

    /// Frames (1/100 s) decoded so far in this utterance.
    var frameCount: Int { Int(ps_get_n_frames(handle)) }

    /// The current best hypothesis and its path score, or nil when there is none.
    func hypothesis() -> (text: String, score: Int32)? {
        LibraryLog.capturing(verbose: verbose) {
            var score: Int32 = 0
            guard let text = ps_get_hyp(handle, &score) else { return nil }
            return (String(cString: text), score)
        }
    }

    /// The words of the best hypothesis, fillers and silences included, with frames and scores.
    func segments() -> [Segment] {
        LibraryLog.capturing(verbose: verbose) {
            var result: [Segment] = []
            var iterator = ps_seg_iter(handle)
            while let segment = iterator {
                var start: Int32 = 0, end: Int32 = 0, acoustic: Int32 = 0, language: Int32 = 0, back: Int32 = 0
                ps_seg_frames(segment, &start, &end)
                _ = ps_seg_prob(segment, &acoustic, &language, &back)
                let word = ps_seg_word(segment).map { String(cString: $0) } ?? ""
                result.append(Segment(word: word, startFrame: Int(start), endFrame: Int(end), acousticScore: acoustic, languageScore: language))
                iterator = ps_seg_next(segment)
            }
            return result
        }
    }

    /// Up to `limit` distinct n-best hypotheses with their path scores, best first, reading at most `maximumVisited`.
    func nbest(limit: Int, maximumVisited: Int) -> [(text: String, score: Int32)] {
        LibraryLog.capturing(verbose: verbose) {
            var result: [(String, Int32)] = []
            var seen = Set<String>()
            guard var iterator = ps_nbest(handle) else { return [] }
            var visited = 0
            while visited < maximumVisited, result.count < limit {
                visited += 1
                var score: Int32 = 0
                if let text = ps_nbest_hyp(iterator, &score) {
                    let words = String(cString: text)
                    if seen.insert(words).inserted { result.append((words, score)) }
                }
                guard let next = ps_nbest_next(iterator) else { return result }
                iterator = next
            }
            ps_nbest_free(iterator)
            return result
        }
    }
}

/// The cepstral vectors of one utterance (one row of `width` values per 10 ms frame): what every decoding pass of the
/// utterance starts from, computed once (`PocketSphinxDecoder.cepstra(of:)`).
struct Cepstra: Sendable {
    /// Values per frame.
    let width: Int
    /// The frames' values, row after row.
    let values: [Float]

    /// Frames held.
    var frameCount: Int { width > 0 ? values.count / width : 0 }
}
