import CPocketSphinx

/// A parsed JSGF grammar (`jsgf_t`).
///
/// Thread rule: not `Sendable`; used only while a search is compiled.
final class ParsedJSGF {
    let handle: OpaquePointer

    /// Takes over a grammar `jsgf_parse_string` returned.
    init(taking handle: OpaquePointer) {
        self.handle = handle
    }

    deinit { jsgf_grammar_free(handle) }
}

/// A word-level grammar automaton (`fsg_model_t`), as the decoder's grammar search reads it.
///
/// Thread rule: not `Sendable`; used only while a search is compiled (the search keeps its own reference).
final class GrammarAutomaton {
    let model: UnsafeMutablePointer<fsg_model_t>

    /// Takes over a model the library built (`jsgf_build_fsg`, `jsgf_build_fsg_raw`).
    init(taking model: UnsafeMutablePointer<fsg_model_t>) {
        self.model = model
    }

    /// Builds `graph` as a model named `name`, every arc with probability 1. With `alternates` (a word's other
    /// pronunciations in the dictionary, "forty" → ["forty(2)"], in the order the dictionary chains them), every arc
    /// reading a word is doubled for each of them, as the grammar search's `fsg_model_add_alt` would double it: the
    /// same words, arcs and arc order, without its scan of every state of the grammar for each alternate (about a
    /// fifth of compiling a day's grammar, callgrind).
    init(_ graph: WordGraph, name: String, logMath: OpaquePointer, languageWeight: Float, alternates: [String: [String]] = [:]) {
        model = fsg_model_init(name, logMath, languageWeight, Int32(graph.stateCount))
        model.pointee.start_state = Int32(graph.start)
        model.pointee.final_state = Int32(graph.final)
        let ids = graph.words.map { fsg_model_word_add(model, $0) }
        var arcsReading = Array(repeating: [WordGraph.Arc](), count: graph.words.count)
        for arc in graph.arcs {
            if let word = arc.word {
                fsg_model_trans_add(model, Int32(arc.from), Int32(arc.to), 0, ids[word])
                arcsReading[word].append(arc)
            } else {
                _ = fsg_model_null_trans_add(model, Int32(arc.from), Int32(arc.to), 0)
            }
        }
        var alternateIDs: [Int32] = []
        for (word, base) in graph.words.enumerated() {
            for alternate in alternates[base] ?? [] {
                let id = fsg_model_word_add(model, alternate)
                alternateIDs.append(id)
                for arc in arcsReading[word] { fsg_model_trans_add(model, Int32(arc.from), Int32(arc.to), 0, id) }
            }
        }
        if !alternateIDs.isEmpty { flightvoice_fsg_mark_alternates(model, alternateIDs, Int32(alternateIDs.count)) }
    }

    deinit { _ = fsg_model_free(model) }

    /// The automaton as a `WordGraph`, or nil when an arc carries a probability other than 1 (a weighted JSGF
    /// alternative), which `WordGraph` does not keep.
    var wordGraph: WordGraph? {
        let fsg = model.pointee
        let words = (0..<Int(fsg.n_word)).map { String(cString: fsg.vocab[$0]!) }
        var arcs: [WordGraph.Arc] = []
        for state in 0..<fsg.n_state {
            var iterator = fsg_model_arcs(model, state)
            while let current = iterator {
                if let link = fsg_arciter_get(current)?.pointee {
                    guard link.logs2prob == 0 else {
                        fsg_arciter_free(current)
                        return nil
                    }
                    arcs.append(WordGraph.Arc(from: Int(link.from_state), to: Int(link.to_state),
                                              word: link.wid >= 0 ? Int(link.wid) : nil))
                }
                iterator = fsg_arciter_next(current)
            }
        }
        return WordGraph(words: words, stateCount: Int(fsg.n_state), start: Int(fsg.start_state), final: Int(fsg.final_state),
                         arcs: arcs)
    }
}
