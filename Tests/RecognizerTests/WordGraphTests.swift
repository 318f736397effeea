import FlightCore
import FlightStore
import CPocketSphinx
@testable import Recognizer
import Testing

@Suite("Minimized grammar automata")
struct WordGraphTests {
    /// "[please] (l x | lima x-ray) (forty | four zero)", built the way the library builds JSGF: a state per word of each
    /// alternative and arcs that read nothing to join them.
    static let spelled: WordGraph = {
        let words = ["please", "l", "x", "lima", "x-ray", "forty", "four", "zero"]
        func arc(_ from: Int, _ to: Int, _ word: String?) -> WordGraph.Arc {
            WordGraph.Arc(from: from, to: to, word: word.map { words.firstIndex(of: $0)! })
        }
        let arcs = [arc(0, 1, "please"), arc(0, 1, nil),
                    arc(1, 2, nil), arc(2, 3, "l"), arc(3, 4, "x"), arc(4, 7, nil),
                    arc(1, 5, "lima"), arc(5, 6, "x-ray"), arc(6, 7, nil),
                    arc(7, 8, "forty"), arc(8, 11, nil),
                    arc(7, 9, "four"), arc(9, 10, "zero"), arc(10, 11, nil)]
        return WordGraph(words: words, stateCount: 12, start: 0, final: 11, arcs: arcs)
    }()

    @Test("minimizing keeps exactly the word sequences, in fewer states, one arc per word out of a state")
    func keepsTheLanguage() {
        let minimized = Self.spelled.minimized()
        #expect(Self.sentences(of: minimized) == Self.sentences(of: Self.spelled))
        #expect(Self.sentences(of: minimized).count == 8)
        #expect(minimized.stateCount == 7)
        #expect(Self.isDeterministic(minimized))
        #expect(minimized.minimized() == minimized)
    }

    @Test("an accepting state that reads on reaches the single final state without reading a word")
    func singleFinalState() {
        // "forty [please]": the state after "forty" both accepts and reads "please".
        let graph = WordGraph(words: ["forty", "please"], stateCount: 3, start: 0, final: 2,
                              arcs: [.init(from: 0, to: 1, word: 0), .init(from: 1, to: 2, word: 1), .init(from: 1, to: 2, word: nil)])
        let minimized = graph.minimized()
        #expect(Self.sentences(of: minimized) == [["forty"], ["forty", "please"]])
        #expect(minimized.arcs.filter { $0.word == nil }.allSatisfy { $0.to == minimized.final })
        #expect(minimized.arcs.filter { $0.from == minimized.final }.isEmpty)
    }

    @Test("a grammar with a loop is minimized too")
    func loops() {
        // "x-ray+": 0 -x-ray-> 1, 1 -nothing-> 0, 1 final; and a redundant copy of the loop through state 2.
        let graph = WordGraph(words: ["x-ray"], stateCount: 3, start: 0, final: 1,
                              arcs: [.init(from: 0, to: 1, word: 0), .init(from: 1, to: 0, word: nil),
                                     .init(from: 0, to: 2, word: 0), .init(from: 2, to: 1, word: nil)])
        let minimized = graph.minimized()
        #expect(Self.sentences(of: minimized, longest: 3) == [["x-ray"], ["x-ray", "x-ray"], ["x-ray", "x-ray", "x-ray"]])
        #expect(minimized.stateCount <= 3)
        #expect(Self.isDeterministic(minimized))
    }

    @Test("today's grammar as the library builds it and its minimized automaton accept the same word sequences")
    func todaysGrammar() throws {
        let configuration = RecognizerConfiguration()
        let decoder = try PocketSphinxDecoder(arguments: configuration.commonArguments, verbose: false)
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary)
        let automaton = try decoder.libraryAutomaton(of: grammar.jsgf, name: "test")
        let built = try #require(automaton.wordGraph)
        let minimized = built.minimized()
        #expect(minimized.stateCount * 3 < built.stateCount * 2)
        #expect(Self.equivalent(built, minimized))
        // Built back into the library's form, the minimized graph reads as itself.
        let rebuilt = GrammarAutomaton(minimized, name: "test", logMath: try #require(automaton.model.pointee.lmath),
                                       languageWeight: automaton.model.pointee.lw)
        #expect(rebuilt.wordGraph.map(Self.canonical) == Self.canonical(minimized))
    }

    /// The library's graph of `grammar`'s text, and the one built in the frame, each with its words sorted, minimized.
    static func bothBuilds(of grammar: FlightGrammar, decoder: PocketSphinxDecoder) throws -> (library: WordGraph, built: WordGraph) {
        let library = try #require(try decoder.libraryAutomaton(of: grammar.jsgf, name: "library", closingEmptyArcs: false).wordGraph)
        let frame = try #require(try decoder.libraryAutomaton(of: grammar.frameJSGF, name: "frame", closingEmptyArcs: false).wordGraph)
        let built = try #require(grammar.wordGraph(frame: frame))
        return (library.withWordsSorted().minimized(), built.withWordsSorted().minimized())
    }

    @Test("a grammar built in the frame of the shared rules is the library's graph of its text, for a whole day and less its flights")
    func builtInFrame() throws {
        let decoder = try PocketSphinxDecoder(arguments: RecognizerConfiguration().commonArguments, verbose: false)
        let store = try FlightStore.inMemory()
        let today = FlightGrammar(vocabulary: try FlightVocabulary(dataSource: store))
        #expect(today.airlineRules.count > 20)
        let rivals = [today.excluding([FlightNumber(parsing: "LX40")!]),
                      today.excluding(Set(today.airlineRules.first { $0.numbers.count == 1 }.map { [FlightNumber(airline: $0.code, number: $0.numbers[0])!] } ?? [])),
                      FlightGrammar(vocabulary: TestFlights.vocabulary).excluding([FlightNumber(parsing: "BA287")!])]
        for grammar in [today] + rivals {
            let (library, built) = try Self.bothBuilds(of: grammar, decoder: decoder)
            #expect(built == library)
        }
        // Byte for byte: the same automaton is what the decoder searches either way.
        let (library, built) = try Self.bothBuilds(of: today, decoder: decoder)
        #expect(built.fsgText(name: "today") == library.fsgText(name: "today"))
    }

    @Test("a letter rule that is not a list of words leaves the grammar to the library")
    func frameNeedsWordLists() throws {
        let decoder = try PocketSphinxDecoder(arguments: RecognizerConfiguration().commonArguments, verbose: false)
        let base = FlightGrammar.baseGrammar.replacingOccurrences(of: "<letter_x> = x | x-ray;", with: "<letter_x> = x | (x-ray);")
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary, baseGrammar: base)
        let frame = try #require(try decoder.libraryAutomaton(of: grammar.frameJSGF, name: "frame", closingEmptyArcs: false).wordGraph)
        #expect(grammar.wordGraph(frame: frame) == nil)
    }

    @Test("alternate pronunciations added with the graph give the arcs the grammar search adds, in its order, and the same decodes")
    func alternatePronunciations() throws {
        let decoder = try PocketSphinxDecoder(arguments: RecognizerConfiguration().commonArguments, verbose: false)
        let grammar = FlightGrammar(vocabulary: TestFlights.vocabulary)
        let pass = GrammarPass(decoder: decoder)
        var added: [String: String] = [:]
        try pass.utterance.install(grammar.jsgf, words: grammar.words, pronunciations: &added)
        let ours = try #require(pass.utterance.searchName)
        let graph = try #require(try decoder.minimizedGraph(of: grammar.jsgf, name: "graph"))
        #expect(decoder.alternatePronunciations(of: graph.words)["for"] == ["for(3)", "for(2)"], "the dictionary chains the one added last first")
        let automaton = GrammarAutomaton(graph, name: "built", logMath: try #require(ps_get_logmath(decoder.handle)), languageWeight: 1,
                                         alternates: decoder.alternatePronunciations(of: graph.words))
        #expect(automaton.model.pointee.altwords != nil, "built with its alternates, the search adds none")
        try decoder.useGraph(graph, name: "library", addingAlternates: false)
        func arcs(_ search: String) throws -> [String] {
            let model = try #require(ps_get_fsg(decoder.handle, search))
            var found: [String] = []
            for state in 0..<model.pointee.n_state {
                var iterator = fsg_model_arcs(model, state)
                while let current = iterator {
                    if let link = fsg_arciter_get(current)?.pointee {
                        found.append("\(link.from_state) \(link.to_state) \(link.wid >= 0 ? String(cString: model.pointee.vocab[Int(link.wid)]!) : "-")")
                    }
                    iterator = fsg_arciter_next(current)
                }
            }
            return found
        }
        let library = try arcs("library")
        #expect(library.count > graph.arcs.count)
        #expect(try arcs(ours) == library)
        for clip in ["lx40.wav", "ba287.wav", "where-exit.wav"] {
            let samples = try TestFlights.samples(clip)
            var readings: [String] = []
            for search in [ours, "library"] {
                try decoder.activate(search)
                _ = try pass.decode(samples)
                readings.append(SharedPassWorkTests.reading(of: decoder))
            }
            #expect(readings[0] == readings[1], "\(clip)")
        }
    }

    // MARK: Oracles

    /// Every word sequence of an acyclic graph (or of up to `longest` words).
    static func sentences(of graph: WordGraph, longest: Int = 50) -> Set<[String]> {
        var found = Set<[String]>()
        func walk(_ state: Int, _ words: [String]) {
            if state == graph.final { found.insert(words) }
            guard words.count <= longest else { return }
            for arc in graph.arcs where arc.from == state {
                if let word = arc.word {
                    if words.count < longest { walk(arc.to, words + [graph.words[word]]) }
                } else {
                    walk(arc.to, words)
                }
            }
        }
        walk(graph.start, [])
        return found
    }

    static func isDeterministic(_ graph: WordGraph) -> Bool {
        let reading = graph.arcs.filter { $0.word != nil }
        return Set(reading.map { [$0.from, $0.word!] }).count == reading.count
            && graph.arcs.allSatisfy { $0.word != nil || $0.to == graph.final }
    }

    /// Whether two graphs accept the same word sequences: walks both at once, each as the set of states it can be in.
    static func equivalent(_ a: WordGraph, _ b: WordGraph) -> Bool {
        func closure(_ graph: WordGraph, _ states: Set<Int>) -> Set<Int> {
            var seen = states
            var pending = Array(states)
            while let state = pending.popLast() {
                for arc in graph.arcs where arc.from == state && arc.word == nil && seen.insert(arc.to).inserted { pending.append(arc.to) }
            }
            return seen
        }
        func step(_ graph: WordGraph, _ states: Set<Int>) -> [String: Set<Int>] {
            var next: [String: Set<Int>] = [:]
            for arc in graph.arcs where states.contains(arc.from) {
                if let word = arc.word { next[graph.words[word], default: []].insert(arc.to) }
            }
            return next.mapValues { closure(graph, $0) }
        }
        var pending = [(closure(a, [a.start]), closure(b, [b.start]))]
        var visited = Set<[Set<Int>]>()
        while let (left, right) = pending.popLast() {
            guard visited.insert([left, right]).inserted else { continue }
            if left.contains(a.final) != right.contains(b.final) { return false }
            let leftNext = step(a, left), rightNext = step(b, right)
            guard Set(leftNext.keys) == Set(rightNext.keys) else { return false }
            for (word, states) in leftNext { pending.append((states, rightNext[word]!)) }
        }
        return true
    }

    /// The arcs by word, so that graphs whose word lists are numbered differently compare.
    static func canonical(_ graph: WordGraph) -> Set<String> {
        Set(graph.arcs.map { "\($0.from) \($0.to) \($0.word.map { graph.words[$0] } ?? "-")" })
    }
}
