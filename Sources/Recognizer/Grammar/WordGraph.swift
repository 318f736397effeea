/// A finite-state grammar over words: states, a start and a final state, and arcs that read a word or nothing.
///
/// Why it exists: the library's grammar search visits every state of the grammar for every phone on every frame
/// (`fsg_history_end_frame`), whether or not a path is active there, so its cost grows with the state count, not with
/// what is heard; on today's grammar that bookkeeping was about half of each pass's instructions (callgrind). The
/// library builds a JSGF grammar into an automaton with a state for every word of every rule reference and many that
/// only join alternatives (2,712 states for a day of 719 flight numbers); `minimized()` gives the smallest
/// deterministic automaton of the same word sequences (1,089 for that day). Every arc of a JSGF grammar without
/// weights has probability 1, so both accept the same sequences at the same cost; the search still prunes differently
/// in the smaller graph, so a decode can read other words (docs/accuracy-and-decisions.md, "How a spoken answer is decided"). Pure; `Sendable`.
struct WordGraph: Sendable, Equatable {
    struct Arc: Sendable, Hashable {
        let from: Int
        let to: Int
        /// The word read, an index into `words`; nil for an arc that reads nothing.
        let word: Int?
    }

    let words: [String]
    let stateCount: Int
    let start: Int
    let final: Int
    let arcs: [Arc]

    /// The smallest deterministic graph of the same word sequences: no arcs that read nothing except from accepting
    /// states into one final state (the library's graphs have a single final state), one arc per word out of a state,
    /// and no two states from which the same sequences continue. States are numbered breadth-first from the start.
    func minimized() -> WordGraph {
        let (transitions, accepting) = determinized()
        let classes = Self.acyclicEquivalenceClasses(transitions: transitions, accepting: accepting)
            ?? Self.equivalenceClasses(transitions: transitions, accepting: accepting)

        // One representative per class, numbered breadth-first from the start's class.
        var number: [Int: Int] = [classes[0]: 0]
        var representative: [Int] = [0]
        var index = 0
        while index < representative.count {
            for arc in transitions[representative[index]] where number[classes[arc.to]] == nil {
                number[classes[arc.to]] = representative.count
                representative.append(arc.to)
            }
            index += 1
        }
        // A state that accepts and reads nothing more can be the final state itself; any other accepting state
        // reaches the final one without reading a word.
        let sink = representative.firstIndex { accepting[$0] && transitions[$0].isEmpty }
        let final = sink ?? representative.count
        var arcs: [Arc] = []
        for (state, member) in representative.enumerated() {
            for arc in transitions[member] { arcs.append(Arc(from: state, to: number[classes[arc.to]]!, word: arc.word)) }
            if accepting[member] && state != final { arcs.append(Arc(from: state, to: final, word: nil)) }
        }
        return WordGraph(words: words, stateCount: sink == nil ? representative.count + 1 : representative.count,
                         start: 0, final: final, arcs: arcs)
    }

    /// The same graph with only the words its arcs read, in alphabetical order: `minimized()` numbers states in the
    /// order of the words they read, so two graphs of the same word sequences minimize to the same graph only when
    /// their words are in the same order (the library's order follows the grammar text).
    func withWordsSorted() -> WordGraph {
        let used = Set(arcs.compactMap(\.word))
        let sorted = used.map { words[$0] }.sorted()
        let position = Dictionary(uniqueKeysWithValues: sorted.enumerated().map { ($1, $0) })
        return WordGraph(words: sorted, stateCount: stateCount, start: start, final: final,
                         arcs: arcs.map { Arc(from: $0.from, to: $0.to, word: $0.word.map { position[words[$0]]! }) })
    }

    /// The graph in the library's FSG file format (`fsg_model_readfile`, `pocketsphinx_batch -fsg`), every arc with
    /// probability 1.
    func fsgText(name: String) -> String {
        var lines = ["FSG_BEGIN \(name)", "NUM_STATES \(stateCount)", "START_STATE \(start)", "FINAL_STATE \(final)"]
        for arc in arcs { lines.append("TRANSITION \(arc.from) \(arc.to) 1.0" + (arc.word.map { " " + words[$0] } ?? "")) }
        lines.append("FSG_END")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Subset construction over the closure of the arcs that read nothing: for each reachable set of states (the start's
    /// first), its word arcs sorted by word, and whether it holds the final state.
    private func determinized() -> (transitions: [[(word: Int, to: Int)]], accepting: [Bool]) {
        var wordArcs = Array(repeating: [(word: Int, to: Int)](), count: stateCount)
        var emptyArcs = Array(repeating: [Int](), count: stateCount)
        for arc in arcs {
            if let word = arc.word { wordArcs[arc.from].append((word, arc.to)) } else { emptyArcs[arc.from].append(arc.to) }
        }
        // Sets of states are built with a mark per state instead of hashing: a state is in the set being built when
        // its mark equals the current generation.
        var mark = Array(repeating: 0, count: stateCount)
        var generation = 0
        var closures = Array(repeating: [Int](), count: stateCount)
        for state in 0..<stateCount {
            generation += 1
            mark[state] = generation
            var members = [state]
            var next = 0
            while next < members.count {
                for target in emptyArcs[members[next]] where mark[target] != generation {
                    mark[target] = generation
                    members.append(target)
                }
                next += 1
            }
            closures[state] = members.sorted()
        }
        func closure<S: Sequence<Int>>(of states: S) -> [Int] {
            generation += 1
            var members: [Int] = []
            for state in states {
                for member in closures[state] where mark[member] != generation {
                    mark[member] = generation
                    members.append(member)
                }
            }
            return members.sorted()
        }

        var subsets: [[Int]] = [closures[start]]
        var numbered: [[Int]: Int] = [subsets[0]: 0]
        var transitions: [[(word: Int, to: Int)]] = []
        var accepting: [Bool] = []
        var index = 0
        while index < subsets.count {
            let subset = subsets[index]
            accepting.append(subset.contains(final))
            var reads: [(word: Int, to: Int)] = []
            for state in subset { reads += wordArcs[state] }
            reads.sort { $0.word < $1.word }
            var row: [(word: Int, to: Int)] = []
            var first = 0
            while first < reads.count {
                var last = first
                while last + 1 < reads.count && reads[last + 1].word == reads[first].word { last += 1 }
                let target = closure(of: reads[first...last].lazy.map(\.to))
                let number = numbered[target] ?? subsets.count
                if number == subsets.count {
                    numbered[target] = number
                    subsets.append(target)
                }
                row.append((reads[first].word, number))
                first = last + 1
            }
            transitions.append(row)
            index += 1
        }
        return (transitions, accepting)
    }

    /// The classes of states from which the same sequences continue, in one pass from the last states to the first;
    /// nil when the graph has a loop.
    private static func acyclicEquivalenceClasses(transitions: [[(word: Int, to: Int)]], accepting: [Bool]) -> [Int]? {
        // Depth-first post-order: a state comes after every state it reaches. 1: on the path, 2: done.
        var visit = Array(repeating: 0, count: transitions.count)
        var order: [Int] = []
        var stack: [(state: Int, next: Int)] = [(0, 0)]
        visit[0] = 1
        while let top = stack.last {
            if top.next < transitions[top.state].count {
                stack[stack.count - 1].next += 1
                let target = transitions[top.state][top.next].to
                if visit[target] == 1 { return nil }
                if visit[target] == 0 {
                    visit[target] = 1
                    stack.append((target, 0))
                }
            } else {
                visit[top.state] = 2
                order.append(top.state)
                stack.removeLast()
            }
        }
        var classes = Array(repeating: -1, count: transitions.count)
        var signatures: [[Int]: Int] = [:]
        for state in order {
            let signature = Self.signature(of: transitions[state], classes: classes, first: accepting[state] ? 1 : 0)
            if let known = signatures[signature] {
                classes[state] = known
            } else {
                classes[state] = signatures.count
                signatures[signature] = signatures.count
            }
        }
        return classes
    }

    /// Moore's partition refinement: states that accept alike and whose arcs read the same words into the same classes
    /// share a class, until no class splits. For graphs with loops.
    private static func equivalenceClasses(transitions: [[(word: Int, to: Int)]], accepting: [Bool]) -> [Int] {
        var classes = accepting.map { $0 ? 1 : 0 }
        var classCount = Set(classes).count
        while true {
            var signatures: [[Int]: Int] = [:]
            let refined = transitions.indices.map { state -> Int in
                let signature = Self.signature(of: transitions[state], classes: classes, first: classes[state])
                if let known = signatures[signature] { return known }
                signatures[signature] = signatures.count
                return signatures.count - 1
            }
            if signatures.count == classCount { return refined }
            classes = refined
            classCount = signatures.count
        }
    }

    /// What a state's class is decided on: `first`, then each arc's word and the class it leads to, in word order.
    private static func signature(of arcs: [(word: Int, to: Int)], classes: [Int], first: Int) -> [Int] {
        var signature = [first]
        signature.reserveCapacity(1 + 2 * arcs.count)
        for arc in arcs {
            signature.append(arc.word)
            signature.append(classes[arc.to])
        }
        return signature
    }
}
