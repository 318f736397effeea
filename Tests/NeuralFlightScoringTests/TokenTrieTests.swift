import FlightCore
import Testing
@testable import NeuralFlightScoring

/// Candidates with made-up token sequences, one flight each unless told.
func madeUpCandidates(_ sequences: [(String, [Int])]) -> [TokenizedCandidate] {
    sequences.map { flight, tokens in
        TokenizedCandidate(candidate: WrittenFlightCandidate(flight: FlightNumber(parsing: flight)!, form: .code, text: "\(tokens)"), tokens: tokens)
    }
}

extension TokenTrie {
    /// Each candidate's tokens, read off the path to its leaf, the end token left out.
    var candidateTokens: [[Int]] { candidates.indices.map { Array(tokens(to: leaf(ofCandidate: $0)).dropLast()) } }
}

@Suite("Token prefix tree")
struct TokenTrieTests {
    static let end = 99

    @Test("shared prefixes share nodes; every path ends in an end-token leaf")
    func sharesPrefixes() {
        let trie = TokenTrie(candidates: madeUpCandidates([("LX40", [1, 2, 3]), ("LX41", [1, 2, 4]), ("BA7", [5]), ("LX4", [1, 2])]), endToken: Self.end)
        // root; 1, 2 shared; 3, 4 and their ends; 5 and its end; the end after 1 2.
        #expect(trie.nodeCount == 1 + 2 + 2 + 2 + 2 + 1)
        #expect(trie.interiorNodeCount == 1 + 2 + 2 + 1)
        #expect(trie.maximumDepth == 4)
        let leaves = trie.nodeIndices.filter(trie.isLeaf)
        #expect(leaves.count == 4)
        #expect(leaves.allSatisfy { trie.token(of: $0) == Self.end && trie.candidates(completedAt: $0).count == 1 })
        #expect(Set(leaves.map { trie.tokens(to: $0) }) == [[1, 2, 3, Self.end], [1, 2, 4, Self.end], [5, Self.end], [1, 2, Self.end]])
        #expect(trie.token(of: TokenTrie.root) == nil && trie.parent(of: TokenTrie.root) == nil && trie.depth(of: TokenTrie.root) == 0)
        #expect(trie.children(of: TokenTrie.root).count == 2)
        #expect((0..<4).map { trie.leaf(ofCandidate: $0) }.allSatisfy(leaves.contains))
    }

    @Test("nodes are numbered breadth first: each node's children are consecutive, in the order their first candidate came")
    func breadthFirst() {
        let trie = TokenTrie(candidates: madeUpCandidates([("LX40", [1, 2, 3]), ("BA7", [5]), ("LX41", [1, 2, 4]), ("LX4", [1, 2])]), endToken: Self.end)
        #expect(trie.nodeIndices.map(trie.depth(of:)) == trie.nodeIndices.map(trie.depth(of:)).sorted())
        #expect(trie.children(of: TokenTrie.root).map { trie.token(of: $0) } == [1, 5])
        let two = trie.children(of: trie.children(of: TokenTrie.root).first!).first!
        #expect(trie.token(of: two) == 2 && trie.children(of: two).map { trie.token(of: $0) } == [3, 4, Self.end])
        for node in trie.nodeIndices {
            #expect(trie.children(of: node).allSatisfy { trie.parent(of: $0) == node && trie.depth(of: $0) == trie.depth(of: node) + 1 })
        }
    }

    @Test("candidates that tokenise alike end at one leaf that lists both")
    func duplicates() {
        let trie = TokenTrie(candidates: madeUpCandidates([("LX40", [1, 2]), ("LX41", [1, 2])]), endToken: Self.end)
        #expect(trie.nodeCount == 4)
        #expect(trie.candidates(completedAt: 3) == [0, 1] && trie.leaf(ofCandidate: 0) == 3 && trie.leaf(ofCandidate: 1) == 3)
    }

    @Test("no candidates: the root alone")
    func empty() {
        let trie = TokenTrie(candidates: [], endToken: Self.end)
        #expect(trie.nodeCount == 1 && trie.interiorNodeCount == 0 && trie.maximumDepth == 0)
    }

    @Test("the seed day's tree: every candidate's path spells its tokens and the end token")
    func seedDay() {
        let tokenizer = SourceTree.tokenizer
        let day = SeedDay.day
        let candidates = FlightCandidateWriter(airlines: day.airlines).candidates(for: day.flights)
        let trie = TokenTrie(candidates: candidates, tokenizer: tokenizer)
        var found = 0
        for leaf in trie.nodeIndices where trie.isLeaf(leaf) {
            for index in trie.candidates(completedAt: leaf) {
                #expect(trie.tokens(to: leaf) == tokenizer.encode(candidates[index].text) + [tokenizer.endOfText])
                #expect(tokenizer.decode(trie.tokens(to: leaf)) == candidates[index].text)
                found += 1
            }
        }
        #expect(found == candidates.count)
        let tokenTotal = candidates.reduce(0) { $0 + tokenizer.encode($1.text).count + 1 }
        // Measured: 117,424 nodes for 254,435 tokens; the airline's first tokens and its numbers' first digits are shared.
        #expect(trie.nodeCount - 1 < tokenTotal * 3 / 5, "prefix sharing saves at least two nodes in five")
        #expect(trie.nodeCountsByDepth.reduce(0, +) == trie.nodeCount && trie.nodeCountsByDepth.first == 1)
        print("seed day: \(day.flights.count) flights, \(candidates.count) candidates, \(trie.nodeCount) nodes "
              + "(\(trie.interiorNodeCount) with children, \(tokenTotal) tokens unshared), depth \(trie.maximumDepth), "
              + "by depth \(trie.nodeCountsByDepth)")
    }

    /// The seed day's figures per option set (printed for the record): each added way of writing adds candidates and nodes.
    @Test("each added way of writing adds candidates and nodes")
    func optionSets() {
        let day = SeedDay.day
        let sets: [(String, CandidateWritingOptions)] = [
            ("digits only", .init(numberStyles: [], flightWordAfterAirline: false)),
            ("digits and round number words", .init(numberStyles: [.roundNumberWords], flightWordAfterAirline: false)),
            ("digits together and apart, round number words", .init(numberStyles: [.roundNumberWords, .separateDigits], flightWordAfterAirline: false)),
            ("and leading zeros, together and apart", .init(numberStyles: [.roundNumberWords, .separateDigits, .leadingZeros], flightWordAfterAirline: false)),
            ("and runs said double or triple", .init(numberStyles: [.roundNumberWords, .separateDigits, .leadingZeros, .repeatedDigits], flightWordAfterAirline: false)),
            ("and numbers said with hundred or thousand, in words", .init(flightWordAfterAirline: false)),
            ("standard (and \"Flight\" between the airline and the number)", .standard),
            ("standard with \"Flight\" before the airline too", .init(carriers: [.bare, .flightWord])),
        ]
        var previous: (candidates: Int, nodes: Int)?
        for (name, options) in sets {
            let candidates = FlightCandidateWriter(airlines: day.airlines, options: options).candidates(for: day.flights)
            let trie = TokenTrie(candidates: candidates, tokenizer: SourceTree.tokenizer)
            if let previous {
                #expect(candidates.count > previous.candidates && trie.nodeCount > previous.nodes, "\(name)")
            }
            previous = (candidates.count, trie.nodeCount)
            print("seed day, \(name): \(candidates.count) candidates, \(trie.nodeCount) nodes, \(trie.interiorNodeCount) with children, "
                  + "depth \(trie.maximumDepth), widest depth \(trie.nodeCountsByDepth.max() ?? 0) nodes")
        }
    }
}

@Suite("Today's candidate tree and the plan per utterance")
struct FlightCandidateTreeTests {
    static let tree = FlightCandidateTree(flights: SeedDay.day.flights, airlines: SeedDay.day.airlines, tokenizer: SourceTree.tokenizer,
                                          carrierPhrases: CarrierPhrase.grammarPhrases(inJSGF: SourceTree.grammar))

    @Test("one tree of the candidates without their ending: with either ending in the slot, each tokenises as its whole text")
    func oneTreeForBothEndings() {
        let tokenizer = SourceTree.tokenizer
        let trie = Self.tree.trie
        let written = FlightCandidateWriter(airlines: SeedDay.day.airlines).candidates(for: SeedDay.day.flights)
        #expect(trie.candidates.map { $0.text + "." } == written.map(\.text))
        let tokens = trie.candidateTokens
        #expect(tokens.allSatisfy { $0.last == TokenTrie.endingSlot })
        for ending in [Self.tree.statementEnding, Self.tree.questionEnding] {
            let mismatches = zip(trie.candidates, tokens).filter { $1.dropLast() + [ending.token] != tokenizer.encode($0.text + ending.text) }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(3).map(\.0.text))")
        }
        #expect([Self.tree.statementEnding.text, Self.tree.questionEnding.text] == [".", "?"])
    }

    @Test("a free transcript with a question: the question's ending after the phrase's tokens, which with a candidate's are the whole text's")
    func question() throws {
        let plan = Self.tree.plan(forFreeTranscript: " What's the gate for Alex 40?")
        #expect(plan.carrier == CarrierPhrase(before: "What's the gate for", ending: "?"))
        #expect(plan.ending == Self.tree.questionEnding)
        let tokenizer = SourceTree.tokenizer
        #expect(tokenizer.decode(plan.prefix) == " What's the gate for")
        let candidate = try #require(Self.tree.trie.candidates.firstIndex { $0.text == " LX 40" })
        #expect(plan.prefix + Self.tree.trie.candidateTokens[candidate].dropLast() + [plan.ending.token]
                == tokenizer.encode(" What's the gate for LX 40?"))
    }

    @Test("a statement, the word flight, nothing heard", arguments: [
        (" I'm on Swiss 40.", " I'm on"), ("Flight LX 40.", " Flight"), (" Alex 40", ""), ("", ""),
    ])
    func statements(transcript: String, prefix: String) {
        let plan = Self.tree.plan(forFreeTranscript: transcript)
        #expect(SourceTree.tokenizer.decode(plan.prefix) == prefix)
        #expect(plan.ending == Self.tree.statementEnding)
        #expect((plan.carrier == nil) == prefix.isEmpty)
    }

    @Test("no free transcript: a statement's ending alone")
    func noTranscript() {
        let plan = Self.tree.plan(forFreeTranscript: nil)
        #expect(plan.prefix.isEmpty && plan.carrier == nil && plan.ending == Self.tree.statementEnding)
    }
}
