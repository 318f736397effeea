import FlightCore
import Foundation
import Testing
@testable import NeuralFlightScoring

/// A made-up language model over a small vocabulary: log-softmax of logits drawn from a hash of (context, token), or
/// taken from `preferred` where a context has a favourite next token. Counts its evaluations and its largest batch.
final class TableLanguageModel: NextTokenScorer, @unchecked Sendable {
    typealias State = [Int]

    let vocabularySize: Int
    /// Context → (token → logit), overriding the hashed logits.
    let preferred: [[Int]: [Int: Float]]
    private(set) var evaluations = 0
    private(set) var largestBatch = 0
    /// Make `logProbabilities` return one value too few (to test the contract check).
    var dropsAValue = false

    init(vocabularySize: Int = 12, preferred: [[Int]: [Int: Float]] = [:]) {
        self.vocabularySize = vocabularySize
        self.preferred = preferred
    }

    /// log P(token | context), the same whether asked by the walk or by brute force.
    func logProbability(of token: Int, after context: [Int]) -> Float {
        let logits = (0..<vocabularySize).map { logit(of: $0, after: context) }
        let largest = logits.max()!
        let logSum = largest + log(logits.reduce(Float(0)) { $0 + exp($1 - largest) })
        return logits[token] - logSum
    }

    private func logit(of token: Int, after context: [Int]) -> Float {
        if let value = preferred[context]?[token] { return value }
        var hash: UInt64 = 1469598103934665603
        for value in context + [-1, token] { hash = (hash ^ UInt64(bitPattern: Int64(value))) &* 1099511628211 }
        return Float(hash % 1000) / 250  // 0...4
    }

    func start(scoring next: [Int]) throws -> (state: [Int], logProbabilities: [Float]) {
        evaluations += 1
        return ([], scores(next, after: []))
    }

    func extend(_ states: [[Int]], by tokens: [Int], scoring next: [[Int]]) throws -> [(state: [Int], logProbabilities: [Float])] {
        evaluations += states.count
        largestBatch = max(largestBatch, states.count)
        return zip(zip(states, tokens), next).map { pair, next in
            let state = pair.0 + [pair.1]
            return (state, scores(next, after: state))
        }
    }

    private func scores(_ tokens: [Int], after state: [Int]) -> [Float] {
        let values = tokens.map { logProbability(of: $0, after: state) }
        return dropsAValue ? Array(values.dropLast()) : values
    }
}

@Suite("Scoring the token tree")
struct TrieScorerTests {
    static let end = 11

    /// Many candidates over tokens 0...10 with shared prefixes, several per flight.
    static let candidates = madeUpCandidates([
        ("LX40", [1, 2, 3]), ("LX40", [4, 5, 2, 3]), ("LX41", [1, 2, 6]), ("LX41", [4, 5, 2, 6]), ("BA287", [7, 8, 9, 10]),
        ("BA287", [7, 8]), ("BA288", [7, 8, 9, 0]), ("AF1", [0]), ("AF1", [0, 1]), ("AF2", [0, 2]), ("EY536", [3, 3, 3, 3, 3]),
        ("EY536", [3, 3, 4]), ("LH400", [1, 2]), ("LH400", [2, 1]),
    ])

    /// The sum of log-probabilities of `tokens` then the end token, one token at a time.
    static func bruteForce(_ model: TableLanguageModel, _ tokens: [Int]) -> Float {
        let sequence = tokens + [end]
        return sequence.indices.reduce(Float(0)) { $0 + model.logProbability(of: sequence[$1], after: Array(sequence[..<$1])) }
    }

    @Test("exact scores equal the brute-force sums, and evaluations equal the tree's interior nodes", arguments: [
        LengthNormalization.none, .meanPerToken, .lengthPenalty(alpha: 0.6),
    ])
    func exactEqualsBruteForce(normalization: LengthNormalization) throws {
        let model = TableLanguageModel()
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let result = try TrieScorer(configuration: .init(lengthNormalization: normalization)).score(trie, with: model)
        #expect(result.candidates.count == Self.candidates.count)
        for scored in result.candidates {
            let expected = Self.bruteForce(model, scored.tokens)
            #expect(abs(scored.logProbability - expected) < 1e-4, "\(scored.tokens)")
            #expect(abs(scored.tokenLogProbabilities.reduce(0, +) - expected) < 1e-4)
            #expect(scored.tokenLogProbabilities.count == scored.tokens.count + 1)
            #expect(scored.score == normalization.normalized(scored.logProbability, tokenCount: scored.tokens.count))
        }
        #expect(result.evaluations == trie.interiorNodeCount)
        #expect(model.evaluations == trie.interiorNodeCount)
        #expect(model.evaluations < Self.candidates.reduce(0) { $0 + $1.tokens.count + 1 }, "fewer than one per token of every candidate")
        // The ranking: one entry per flight, best first, each flight's best candidate.
        #expect(Set(result.ranking.map(\.flight)) == Set(Self.candidates.map(\.candidate.flight)))
        #expect(zip(result.ranking, result.ranking.dropFirst()).allSatisfy { $0.score >= $1.score })
        for entry in result.ranking {
            let best = result.candidates.filter { $0.candidate.flight == entry.flight }.map(\.score).max()!
            #expect(entry.score == best)
        }
        #expect(result.margin == result.ranking[0].score - result.ranking[1].score)
        #expect(result.margin! >= 0)
    }

    @Test("after a prefix: scores are the candidates' own, conditioned on it; the prefix costs one evaluation a token")
    func prefix() throws {
        let model = TableLanguageModel()
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let prefix = [6, 6, 0]
        let result = try TrieScorer().score(trie, with: model, after: prefix)
        for scored in result.candidates {
            let whole = Self.bruteForce(model, prefix + scored.tokens)
            let prefixAlone = prefix.indices.reduce(Float(0)) { $0 + model.logProbability(of: prefix[$1], after: Array(prefix[..<$1])) }
            #expect(abs(scored.logProbability - (whole - prefixAlone)) < 1e-4, "\(scored.tokens)")
            #expect(scored.tokenLogProbabilities.count == scored.tokens.count + 1)
        }
        #expect(result.evaluations == trie.interiorNodeCount + prefix.count)
        #expect(model.evaluations == result.evaluations)
    }

    @Test("a beam of at least the node count is exact")
    func wideBeamIsExact() throws {
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let exact = try TrieScorer().score(trie, with: TableLanguageModel())
        let wide = try TrieScorer(configuration: .init(beamWidth: trie.nodeCount)).score(trie, with: TableLanguageModel())
        #expect(wide == exact)
    }

    @Test("two exact walks merged rank as one walk of both trees: each flight's better entry, the evaluations of both")
    func mergingTwoWalks() throws {
        let (first, second) = (Array(Self.candidates.prefix(9)), Array(Self.candidates.dropFirst(9)))
        let model = TableLanguageModel()
        func walk(_ candidates: [TokenizedCandidate]) throws -> TrieScoringResult {
            try TrieScorer().score(TokenTrie(candidates: candidates, endToken: Self.end), with: model)
        }
        let (one, merged) = (try walk(Self.candidates), try walk(first).merging(try walk(second)))
        #expect(merged.ranking.map(\.flight) == one.ranking.map(\.flight))
        #expect(merged.ranking.map(\.best.candidate) == one.ranking.map(\.best.candidate))
        #expect(zip(merged.ranking, one.ranking).allSatisfy { abs($0.score - $1.score) < 1e-5 })
        #expect(merged.candidates.map(\.candidate) == one.candidates.map(\.candidate))
        #expect(merged.evaluations == (try walk(first)).evaluations + (try walk(second)).evaluations)
        #expect(merged.margin == one.margin)
    }

    @Test("a narrow beam keeps the best path and prunes the rest")
    func beamKeepsTheBest() throws {
        // The model strongly prefers 7 8 9 10 (BA287); with a beam of 1 only that path goes on at each depth.
        let preferred: [[Int]: [Int: Float]] = [[]: [7: 20], [7]: [8: 20], [7, 8]: [9: 20], [7, 8, 9]: [10: 20], [7, 8, 9, 10]: [Self.end: 20]]
        let model = TableLanguageModel(preferred: preferred)
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let result = try TrieScorer(configuration: .init(beamWidth: 1)).score(trie, with: model)
        #expect(result.best?.flight == FlightNumber(parsing: "BA287"))
        #expect(result.best?.best.tokens == [7, 8, 9, 10])
        #expect(result.candidates.count < Self.candidates.count)
        #expect(result.evaluations <= 1 + trie.maximumDepth)
        #expect(model.evaluations == result.evaluations)
        // The kept candidates' scores are still exact.
        for scored in result.candidates { #expect(abs(scored.logProbability - Self.bruteForce(model, scored.tokens)) < 1e-4) }
        // A beam of 2 keeps more, and still the best.
        let wider = try TrieScorer(configuration: .init(beamWidth: 2)).score(trie, with: TableLanguageModel(preferred: preferred))
        #expect(wider.best?.flight == FlightNumber(parsing: "BA287"))
        #expect(wider.candidates.count > result.candidates.count)
    }

    @Test("the beam keeps the paths to a flight it is told to keep, and ranks it")
    func keepsAFlight() throws {
        let preferred: [[Int]: [Int: Float]] = [[]: [7: 20], [7]: [8: 20], [7, 8]: [9: 20], [7, 8, 9]: [10: 20], [7, 8, 9, 10]: [Self.end: 20]]
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let narrow = try TrieScorer(configuration: .init(beamWidth: 1)).score(trie, with: TableLanguageModel(preferred: preferred))
        let eyFlight = FlightNumber(parsing: "EY536")!
        #expect(narrow.rank(of: eyFlight) == nil && narrow.score(of: eyFlight) == nil)
        let model = TableLanguageModel(preferred: preferred)
        let kept = try TrieScorer(configuration: .init(beamWidth: 1)).score(trie, with: model, keeping: [eyFlight])
        #expect(kept.best?.flight == FlightNumber(parsing: "BA287"))
        let rank = try #require(kept.rank(of: eyFlight))
        #expect(rank > 0 && kept.ranking[rank].flight == eyFlight)
        // Both EY 536 candidates are scored, exactly.
        let eyCandidates = kept.candidates.filter { $0.candidate.flight == eyFlight }
        #expect(eyCandidates.count == 2)
        for scored in eyCandidates { #expect(abs(scored.logProbability - Self.bruteForce(model, scored.tokens)) < 1e-4) }
        #expect(kept.score(of: eyFlight)?.score == eyCandidates.map(\.score).max())
    }

    @Test("at most keptPathWidth paths to a kept flight go on beside the beam at each depth, the likeliest")
    func keptPathWidth() throws {
        let preferred: [[Int]: [Int: Float]] = [[]: [7: 20], [7]: [8: 20], [7, 8]: [9: 20], [7, 8, 9]: [10: 20], [7, 8, 9, 10]: [Self.end: 20]]
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let eyFlight = FlightNumber(parsing: "EY536")!
        let every = try TrieScorer(configuration: .init(beamWidth: 1)).score(trie, with: TableLanguageModel(preferred: preferred), keeping: [eyFlight])
        let model = TableLanguageModel(preferred: preferred)
        let one = try TrieScorer(configuration: .init(beamWidth: 1, keptPathWidth: 1)).score(trie, with: model, keeping: [eyFlight])
        #expect(one.evaluations < every.evaluations)
        #expect(one.best?.flight == FlightNumber(parsing: "BA287") && one.rank(of: eyFlight) != nil)
        // EY 536's candidates, 3 3 3 3 3 and 3 3 4, part at the third token: only the likelier path goes on there.
        func logProbability(_ tokens: [Int]) -> Float {
            tokens.indices.reduce(Float(0)) { $0 + model.logProbability(of: tokens[$1], after: Array(tokens[..<$1])) }
        }
        let likelier = [[3, 3, 3], [3, 3, 4]].max { logProbability($0) < logProbability($1) }
        let scored = one.candidates.filter { $0.candidate.flight == eyFlight }
        #expect(scored.count == 1 && scored.first.map { Array($0.tokens.prefix(3)) } == likelier)
        #expect(every.candidates.filter { $0.candidate.flight == eyFlight }.count == 2)
    }

    @Test("length normalisation decides between a short and a long candidate")
    func lengthNormalisation() throws {
        // "AF1" is one token at -2 then the end at -2 (sum -4); "LX40" is five tokens at -1 then the end at -1 (sum -6).
        let short = madeUpCandidates([("AF1", [1])]), long = madeUpCandidates([("LX40", [2, 3, 4, 5, 6])])
        let model = FixedLogProbabilityModel(values: [[]: [1: -2, 2: -1], [1]: [Self.end: -2], [2]: [3: -1], [2, 3]: [4: -1],
                                                      [2, 3, 4]: [5: -1], [2, 3, 4, 5]: [6: -1], [2, 3, 4, 5, 6]: [Self.end: -1]])
        let trie = TokenTrie(candidates: short + long, endToken: Self.end)
        let plain = try TrieScorer(configuration: .init(lengthNormalization: LengthNormalization.none)).score(trie, with: model)
        #expect(plain.best?.flight == FlightNumber(parsing: "AF1"))
        #expect(plain.margin == 2)
        let mean = try TrieScorer(configuration: .init(lengthNormalization: .meanPerToken)).score(trie, with: model)
        #expect(mean.best?.flight == FlightNumber(parsing: "LX40"))
        #expect(mean.best?.score == Float(-6) / 5)
        #expect(mean.ranking.last?.score == -4)
        #expect(mean.margin == Float(-6) / 5 + 4)
    }

    @Test("length penalty follows ((5 + length) / 6)^alpha")
    func lengthPenaltyFormula() {
        #expect(LengthNormalization.lengthPenalty(alpha: 1).normalized(-12, tokenCount: 7) == -6)
        #expect(LengthNormalization.lengthPenalty(alpha: 0).normalized(-12, tokenCount: 7) == -12)
        #expect(LengthNormalization.meanPerToken.normalized(-12, tokenCount: 0) == -12)
        #expect(LengthNormalization.none.normalized(-12, tokenCount: 7) == -12)
    }

    @Test("ties rank the flight whose candidate came first, with a margin of zero")
    func ties() throws {
        let candidates = madeUpCandidates([("LX41", [2]), ("LX40", [1])])
        let model = FixedLogProbabilityModel(values: [[]: [1: -1, 2: -1], [1]: [Self.end: -1], [2]: [Self.end: -1]])
        let result = try TrieScorer().score(TokenTrie(candidates: candidates, endToken: Self.end), with: model)
        #expect(result.ranking.map(\.flight.canonical) == ["LX41", "LX40"])
        #expect(result.margin == 0)
    }

    @Test("no candidates: nothing ranked, no evaluation")
    func empty() throws {
        let model = TableLanguageModel()
        let result = try TrieScorer().score(TokenTrie(candidates: [], endToken: Self.end), with: model)
        #expect(result.ranking.isEmpty && result.candidates.isEmpty && result.best == nil && result.margin == nil)
        #expect(result.evaluations == 0 && model.evaluations == 0)
    }

    @Test("one flight: ranked, no margin")
    func oneFlight() throws {
        let result = try TrieScorer().score(TokenTrie(candidates: madeUpCandidates([("LX40", [1, 2]), ("LX40", [3])]), endToken: Self.end),
                                            with: TableLanguageModel())
        #expect(result.ranking.count == 1 && result.candidates.count == 2 && result.margin == nil)
    }

    @Test("batches stay within the configured size and give the same result")
    func batches() throws {
        let trie = TokenTrie(candidates: Self.candidates, endToken: Self.end)
        let small = TableLanguageModel()
        let batched = try TrieScorer(configuration: .init(maximumBatchSize: 2)).score(trie, with: small)
        #expect(small.largestBatch == 2)
        #expect(batched == (try TrieScorer().score(trie, with: TableLanguageModel())))
    }

    @Test("a tree with an ending slot scores as the trees with each ending in its place, candidates ending as chosen")
    func endingSlot() throws {
        let slot = TokenTrie.endingSlot
        let shared = TokenTrie(candidates: Self.candidates.map { TokenizedCandidate(candidate: $0.candidate, tokens: $0.tokens + [slot]) },
                               endToken: Self.end)
        #expect(shared.hasEndingSlot && !TokenTrie(candidates: Self.candidates, endToken: Self.end).hasEndingSlot)
        // Ending tokens no candidate holds (as "." and "?" in a flight's text): the trees then have the same shape.
        for ending in [CandidateEnding(text: ".", token: 12), CandidateEnding(text: "?", token: 13)] {
            let written = TokenTrie(candidates: Self.candidates.map { TokenizedCandidate(candidate: $0.candidate, tokens: $0.tokens + [ending.token]) },
                                    endToken: Self.end)
            let fromSlot = try TrieScorer().score(shared, with: TableLanguageModel(vocabularySize: 14), ending: ending)
            let fromWritten = try TrieScorer().score(written, with: TableLanguageModel(vocabularySize: 14))
            #expect(fromSlot.candidates.map(\.tokens) == fromWritten.candidates.map(\.tokens))
            #expect(fromSlot.candidates.map(\.tokenLogProbabilities) == fromWritten.candidates.map(\.tokenLogProbabilities))
            #expect(fromSlot.ranking.map(\.flight) == fromWritten.ranking.map(\.flight) && fromSlot.evaluations == fromWritten.evaluations)
            #expect(zip(fromSlot.candidates, fromWritten.candidates).allSatisfy { $0.candidate.text == $1.candidate.text + ending.text })
        }
        #expect(throws: TrieScoringError.self) { try TrieScorer().score(shared, with: TableLanguageModel(vocabularySize: 14)) }
    }

    @Test("a scorer that breaks the contract is an error, not a crash")
    func contract() {
        let model = TableLanguageModel()
        model.dropsAValue = true
        #expect(throws: TrieScoringError.self) {
            try TrieScorer().score(TokenTrie(candidates: Self.candidates, endToken: Self.end), with: model)
        }
    }
}

/// A model that gives each (context, token) a fixed log-probability from a table (not normalised: for exact arithmetic).
struct FixedLogProbabilityModel: NextTokenScorer {
    let values: [[Int]: [Int: Float]]
    func start(scoring next: [Int]) throws -> (state: [Int], logProbabilities: [Float]) {
        ([], next.map { values[[]]?[$0] ?? -100 })
    }
    func extend(_ states: [[Int]], by tokens: [Int], scoring next: [[Int]]) throws -> [(state: [Int], logProbabilities: [Float])] {
        zip(zip(states, tokens), next).map { pair, next in
            let state = pair.0 + [pair.1]
            return (state, next.map { values[state]?[$0] ?? -100 })
        }
    }
}

/// A model over any token ids: log P from a hash of (context, token), in -5...0 (not normalised), counting evaluations.
final class HashedLogProbabilityModel: NextTokenScorer, @unchecked Sendable {
    private(set) var evaluations = 0
    func start(scoring next: [Int]) throws -> (state: [Int], logProbabilities: [Float]) {
        evaluations += 1
        return ([], scores(next, after: []))
    }
    func extend(_ states: [[Int]], by tokens: [Int], scoring next: [[Int]]) throws -> [(state: [Int], logProbabilities: [Float])] {
        evaluations += states.count
        return zip(zip(states, tokens), next).map { pair, next in
            let state = pair.0 + [pair.1]
            return (state, scores(next, after: state))
        }
    }
    private func scores(_ tokens: [Int], after state: [Int]) -> [Float] {
        tokens.map { token in
            var hash: UInt64 = 1469598103934665603
            for value in state + [-1, token] { hash = (hash ^ UInt64(bitPattern: Int64(value))) &* 1099511628211 }
            return -Float(hash % 1000) / 200
        }
    }
}

@Suite("Scoring the seed day's tree")
struct SeedDayScoringTests {
    @Test("a beam bounds the evaluations by its width per depth; the exact walk makes one per interior node", arguments: [nil, 16, 64, 256] as [Int?])
    func beamBoundsEvaluations(width: Int?) throws {
        let day = SeedDay.day
        let trie = TokenTrie(candidates: FlightCandidateWriter(airlines: day.airlines).candidates(for: day.flights), tokenizer: SourceTree.tokenizer)
        let model = HashedLogProbabilityModel()
        let result = try TrieScorer(configuration: .init(beamWidth: width)).score(trie, with: model)
        #expect(result.evaluations == model.evaluations)
        if let width {
            #expect(result.evaluations <= 1 + width * (trie.maximumDepth - 1))
        } else {
            #expect(result.evaluations == trie.interiorNodeCount)
            #expect(result.ranking.count == day.flights.count)
        }
        print("seed day, beam \(width.map(String.init) ?? "none"): \(result.evaluations) evaluations, "
              + "\(result.candidates.count) candidates and \(result.ranking.count) flights scored")
    }
}
