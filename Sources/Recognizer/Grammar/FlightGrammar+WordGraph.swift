extension FlightGrammar {
    /// The word that stands for the airline rules in `frameJSGF`.
    static let airlineSlot = "flightvoice-airline-slot"

    /// The shared rules with every airline rule replaced by the single word `airlineSlot`: the library builds this
    /// frame (the carrier phrases around a flight) once, and `wordGraph(frame:)` puts the airline rules in it.
    var frameJSGF: String {
        base.text + "\n\n<flight> = \(Self.airlineSlot);\n"
    }

    /// The word sequences of `jsgf` as a graph built here from the airline rules, inside `frame` (the library's graph
    /// of `frameJSGF`): the same sequences as the library's graph of `jsgf` (tested), without writing, parsing and
    /// expanding a whole day's grammar text, which with building the grammar was two thirds of the instructions of the
    /// rival pass that needs a new grammar after each decode (callgrind). Nil when a letter or digit rule is not a
    /// one-line list of words (`ruleAlternatives`): the library then builds it from `jsgf`.
    func wordGraph(frame: WordGraph) -> WordGraph? {
        guard let slot = frame.words.firstIndex(of: Self.airlineSlot) else { return nil }
        var builder = WordGraphBuilder(stateCount: frame.stateCount)
        for arc in frame.arcs where arc.word != slot {
            builder.arcs.append(WordGraph.Arc(from: arc.from, to: arc.to, word: arc.word.map { builder.index(of: frame.words[$0]) }))
        }
        for slotArc in frame.arcs where slotArc.word == slot {
            for rule in airlineRules {
                let named = builder.newState()
                for name in rule.names {
                    guard builder.read(name, from: slotArc.from, to: named, rules: base.rules) else { return nil }
                }
                let numberStart = builder.newState()
                builder.read([Self.flightWord], from: named, to: numberStart)
                builder.read([], from: named, to: numberStart)
                // The forms merged on common prefixes, as `<number_CODE>` writes them.
                var children: [Int: [GrammarToken: Int]] = [:]
                var ends = Set<Int>()
                for form in rule.forms {
                    var node = numberStart
                    for token in form {
                        if let child = children[node]?[token] {
                            node = child
                            continue
                        }
                        let child = builder.newState()
                        guard builder.read([token], from: node, to: child, rules: base.rules) else { return nil }
                        children[node, default: [:]][token] = child
                        node = child
                    }
                    ends.insert(node)
                }
                for end in ends.sorted() { builder.read([], from: end, to: slotArc.to) }
            }
        }
        return WordGraph(words: builder.words, stateCount: builder.stateCount, start: frame.start, final: frame.final, arcs: builder.arcs)
    }
}

/// Collects the states, words and arcs of a `WordGraph` being built.
private struct WordGraphBuilder {
    var stateCount: Int
    private(set) var words: [String] = []
    private var indices: [String: Int] = [:]
    var arcs: [WordGraph.Arc] = []

    init(stateCount: Int) {
        self.stateCount = stateCount
    }

    mutating func newState() -> Int {
        stateCount += 1
        return stateCount - 1
    }

    mutating func index(of word: String) -> Int {
        if let known = indices[word] { return known }
        indices[word] = words.count
        words.append(word)
        return words.count - 1
    }

    /// Arcs from `from` to `to` that read `sequence` (nothing when it is empty).
    mutating func read(_ sequence: [String], from: Int, to: Int) {
        guard let last = sequence.last else {
            arcs.append(WordGraph.Arc(from: from, to: to, word: nil))
            return
        }
        var state = from
        for word in sequence.dropLast() {
            let next = newState()
            arcs.append(WordGraph.Arc(from: state, to: next, word: index(of: word)))
            state = next
        }
        arcs.append(WordGraph.Arc(from: state, to: to, word: index(of: last)))
    }

    /// Arcs from `from` to `to` that read every way `tokens` can be said; false when a token's rule has no
    /// alternatives in `rules`.
    mutating func read(_ tokens: [GrammarToken], from: Int, to: Int, rules: [String: [[String]]]) -> Bool {
        var state = from
        for (position, token) in tokens.enumerated() {
            let spellings = token.spellings(in: rules)
            guard !spellings.isEmpty else { return false }
            let next = position == tokens.count - 1 ? to : newState()
            for spelling in spellings { read(spelling, from: state, to: next) }
            state = next
        }
        if tokens.isEmpty { read([], from: from, to: to) }
        return true
    }
}
