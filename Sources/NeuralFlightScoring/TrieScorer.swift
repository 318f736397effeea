import FlightCore
import Foundation

/// How a candidate's log-probability is made comparable across candidates of different lengths.
///
/// Without it the shortest candidate wins whenever the audio fits none well (" AF 1." over " Lima X-ray 40."): every
/// token costs log-probability. The default, `meanPerToken`, is Whisper's own ranking of its beam candidates
/// (`length_penalty=None` in OpenAI's decoder): the sum divided by the number of text tokens. It keeps the scores on
/// the scale of one token (nats per token), so a margin reads the same for short and long candidates.
public enum LengthNormalization: Sendable, Hashable {
    /// The plain sum of log-probabilities.
    case none
    /// The sum divided by the number of text tokens (Whisper's default ranking).
    case meanPerToken
    /// The sum divided by ((5 + tokens) / 6)^alpha, Google's NMT length penalty (Wu et al., 2016), which Whisper
    /// offers as `length_penalty=alpha`: alpha 0 is `none`, alpha 1 nearly `meanPerToken`.
    case lengthPenalty(alpha: Float)

    /// The constant of Google's length penalty.
    public static let lengthPenaltyBase: Float = 5

    /// The normalised score of a sum of log-probabilities over `tokenCount` text tokens (the end token is in the sum,
    /// not in the count, as in Whisper's ranking); a count below 1 counts as 1.
    public func normalized(_ logProbability: Float, tokenCount: Int) -> Float {
        let length = Float(max(1, tokenCount))
        switch self {
        case .none: return logProbability
        case .meanPerToken: return logProbability / length
        case .lengthPenalty(let alpha):
            let base = Self.lengthPenaltyBase
            return logProbability / Float(pow(Double((base + length) / (base + 1)), Double(alpha)))
        }
    }
}

/// How `TrieScorer` walks the tree.
public struct TrieScoringConfiguration: Sendable, Hashable {
    /// The most partial paths kept at each depth, best first; nil keeps all (exact). Paths of one depth have the same
    /// length, so the raw and the normalised score rank them alike. A width of at least the tree's node count is exact.
    public var beamWidth: Int?
    /// With a beam, the most paths to candidates that must be kept (`TrieScorer.score(_:with:after:ending:keeping:)`)
    /// that go on beside it at each depth, best first; nil keeps them all.
    public var keptPathWidth: Int?
    /// How candidate scores are normalised for length before ranking.
    public var lengthNormalization: LengthNormalization
    /// The most states in one call to the scorer: bounds the memory of a batched decoder step.
    public var maximumBatchSize: Int

    /// The batch size of `standard`. Each state of a batch gets a row of log-probabilities over Whisper's whole
    /// vocabulary (51,864 floats, 207 KB), so a batch's rows, not its decoder positions (384 wide), set the memory:
    /// with 256, a walk's widest batches (the beam's 32 paths, those kept for the grammar's flight, the free decode's
    /// row) made a worker's peak RSS 12–13 MB larger than with 32, for the same readings (2026-12-06).
    public static let standardMaximumBatchSize = 32

    public init(beamWidth: Int? = nil, keptPathWidth: Int? = nil, lengthNormalization: LengthNormalization = .meanPerToken,
                maximumBatchSize: Int = standardMaximumBatchSize) {
        self.beamWidth = beamWidth
        self.keptPathWidth = keptPathWidth
        self.lengthNormalization = lengthNormalization
        self.maximumBatchSize = maximumBatchSize
    }

    /// Exact, mean log-probability per token.
    public static let standard = TrieScoringConfiguration()
}

/// A candidate with its score.
public struct ScoredCandidate: Sendable, Hashable {
    /// The candidate's index in `TokenTrie.candidates`.
    public let index: Int
    public let candidate: WrittenFlightCandidate
    /// The text tokens, without the end token.
    public let tokens: [Int]
    /// log P of each text token and of the end token, in order.
    public let tokenLogProbabilities: [Float]
    /// The sum of `tokenLogProbabilities`: the log-probability of the whole transcript, end included (nats).
    public let logProbability: Float
    /// `logProbability` normalised for length (`LengthNormalization`): the score candidates are ranked by.
    public let score: Float
}

/// A flight with its best candidate.
public struct ScoredFlight: Sendable, Hashable {
    public let flight: FlightNumber
    /// The flight's best-scored candidate.
    public let best: ScoredCandidate
    /// The best candidate's normalised score.
    public var score: Float { best.score }
    /// The best candidate's log-probability.
    public var logProbability: Float { best.logProbability }
}

/// What a walk of the tree found.
public struct TrieScoringResult: Sendable, Hashable {
    /// One entry per flight with a scored candidate, best first (ties: the flight whose candidate came first).
    public let ranking: [ScoredFlight]
    /// Every candidate the walk completed, best first; those the beam pruned are absent.
    public let candidates: [ScoredCandidate]
    /// Scorer evaluations made (`start` and each `extend` pair).
    public let evaluations: Int

    /// The best flight, if any candidate was scored.
    public var best: ScoredFlight? { ranking.first }
    /// The best flight's score less the runner-up flight's (normalised, ≥ 0); nil with fewer than two flights.
    public var margin: Float? { ranking.count >= 2 ? ranking[0].score - ranking[1].score : nil }

    /// The place of `flight` in `ranking` (0 for the best); nil when none of its candidates was scored.
    public func rank(of flight: FlightNumber) -> Int? { ranking.firstIndex { $0.flight == flight } }

    /// `flight`'s entry in `ranking`; nil when none of its candidates was scored.
    public func score(of flight: FlightNumber) -> ScoredFlight? { ranking.first { $0.flight == flight } }

    /// This walk's and `other`'s findings as one (another tree scored on the same audio after the same prefix): every
    /// candidate best first (ties: this walk's first), each flight ranked by its best, the evaluations of both.
    public func merging(_ other: TrieScoringResult) -> TrieScoringResult {
        let merged = (candidates + other.candidates).enumerated()
            .sorted { ($0.element.score, -$0.offset) > ($1.element.score, -$1.offset) }.map(\.element)
        return TrieScoringResult(bestFirst: merged, evaluations: evaluations + other.evaluations)
    }

    /// The result of `candidates`, already best first: each flight ranked by its first candidate.
    init(bestFirst candidates: [ScoredCandidate], evaluations: Int) {
        var seen = Set<FlightNumber>()
        ranking = candidates.filter { seen.insert($0.candidate.flight).inserted }.map { ScoredFlight(flight: $0.candidate.flight, best: $0) }
        self.candidates = candidates
        self.evaluations = evaluations
    }
}

/// The scorer broke `NextTokenScorer`'s contract.
public struct TrieScoringError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public var description: String { "next-token scorer: \(message)" }
}

/// Scores every candidate of a `TokenTrie` with a `NextTokenScorer`, breadth first, sharing prefixes: one evaluation
/// per kept node with children. Exact without a beam; with one, the best `beamWidth` partial paths of each depth go on.
public struct TrieScorer: Sendable {
    public let configuration: TrieScoringConfiguration

    public init(configuration: TrieScoringConfiguration = .standard) {
        self.configuration = configuration
    }

    /// Ranks the flights of `trie` by their best candidate under `scorer`, after feeding `prefix` (for instance the
    /// tokens of the carrier phrase the free decode heard, " What's the gate for": see `CarrierPhrase.matching`).
    /// The prefix costs one evaluation a token and is not part of any score: every candidate shares it.
    ///
    /// A tree with `TokenTrie.endingSlot` needs `ending`, which is scored in its place and ends each scored
    /// candidate's text and tokens.
    ///
    /// The beam does not prune the best `keptPathWidth` paths to candidates of `kept` (say, the grammar pass's flight,
    /// whose neural score and rank the decision wants): they go on beside the best `beamWidth`.
    public func score<Scorer: NextTokenScorer>(_ trie: TokenTrie, with scorer: Scorer, after prefix: [Int] = [],
                                               ending: CandidateEnding? = nil,
                                               keeping kept: Set<FlightNumber> = []) throws -> TrieScoringResult {
        guard !trie.candidates.isEmpty else { return TrieScoringResult(bestFirst: [], evaluations: 0) }
        guard ending != nil || !trie.hasEndingSlot else {
            throw TrieScoringError(message: "the tree's candidates end in a slot and no ending was given")
        }
        let slotToken = ending?.token ?? TokenTrie.endingSlot
        func token(_ node: Int) -> Int {
            let token = trie.token(of: node)!
            return token == TokenTrie.endingSlot ? slotToken : token
        }
        let protected = configuration.beamWidth == nil || kept.isEmpty ? [] : Self.nodes(of: kept, in: trie)
        let batchSize = max(1, configuration.maximumBatchSize)
        // log P of each node's token given its parent, and of the path to it, filled as the walk reaches it.
        var nodeLogProbabilities = [Float](repeating: 0, count: trie.nodeCount)
        var pathLogProbabilities = [Float](repeating: 0, count: trie.nodeCount)
        var completed: [Int] = []  // end-token leaves reached
        func childTokens(_ node: Int) -> [Int] { trie.children(of: node).map(token) }
        /// Records the log-probabilities of `node`'s children, computed with its state.
        func record(_ node: Int, _ values: [Float]) throws {
            let children = trie.children(of: node)
            guard values.count == children.count else {
                throw TrieScoringError(message: "\(values.count) log-probabilities for \(children.count) tokens")
            }
            for (child, value) in zip(children, values) {
                nodeLogProbabilities[child] = value
                pathLogProbabilities[child] = pathLogProbabilities[node] + value
                if trie.isLeaf(child) { completed.append(child) }
            }
        }

        // The start sequence, then the prefix: the root's children are scored after the last of them.
        var start = try scorer.start(scoring: prefix.isEmpty ? childTokens(TokenTrie.root) : [])
        for (position, token) in prefix.enumerated() {
            let scoring = position == prefix.count - 1 ? childTokens(TokenTrie.root) : []
            guard let next = try scorer.extend([start.state], by: [token], scoring: [scoring]).first else {
                throw TrieScoringError(message: "extend returned no state for the prefix")
            }
            start = next
        }
        try record(TokenTrie.root, start.logProbabilities)
        var frontier: [(node: Int, state: Scorer.State)] = [(TokenTrie.root, start.state)]
        var evaluations = 1 + prefix.count

        while !frontier.isEmpty {
            // The children that have children of their own go on; end-token leaves were completed by `record`.
            var next: [(node: Int, parent: Int)] = []  // parent: position in `frontier`
            for (position, entry) in frontier.enumerated() {
                for child in trie.children(of: entry.node) where !trie.isLeaf(child) { next.append((child, position)) }
            }
            // The beam: paths of one depth have one length, so the raw sum ranks them as the normalised score does.
            if let width = configuration.beamWidth, next.count > width {
                next.sort { (pathLogProbabilities[$0.node], $1.node) > (pathLogProbabilities[$1.node], $0.node) }
                let pruned = next[max(0, width)...].filter { protected.contains($0.node) }
                next.removeLast(next.count - max(0, width))
                next += pruned.prefix(configuration.keptPathWidth ?? pruned.count)
            }
            // One evaluation per kept node: its state, and its children's log-probabilities from its one distribution.
            var nextFrontier: [(node: Int, state: Scorer.State)] = []
            nextFrontier.reserveCapacity(next.count)
            for batchStart in stride(from: 0, to: next.count, by: batchSize) {
                let batch = next[batchStart..<min(batchStart + batchSize, next.count)]
                let results = try scorer.extend(batch.map { frontier[$0.parent].state }, by: batch.map { token($0.node) },
                                                scoring: batch.map { childTokens($0.node) })
                guard results.count == batch.count else {
                    throw TrieScoringError(message: "extend returned \(results.count) states for \(batch.count) tokens")
                }
                evaluations += batch.count
                for (entry, result) in zip(batch, results) {
                    try record(entry.node, result.logProbabilities)
                    nextFrontier.append((entry.node, result.state))
                }
            }
            frontier = nextFrontier
        }
        return rank(trie, token: token, ending: ending, completed: completed, nodeLogProbabilities: nodeLogProbabilities,
                    pathLogProbabilities: pathLogProbabilities, evaluations: evaluations)
    }

    /// Every node on a path from the root to a candidate of `flights`.
    private static func nodes(of flights: Set<FlightNumber>, in trie: TokenTrie) -> Set<Int> {
        var nodes = Set<Int>()
        for (index, candidate) in trie.candidates.enumerated() where flights.contains(candidate.flight) {
            var current: Int? = trie.leaf(ofCandidate: index)
            while let node = current, nodes.insert(node).inserted { current = trie.parent(of: node) }
        }
        return nodes
    }

    /// The completed candidates, best first, and the best of each flight; each node's token as `token` gives it, and
    /// `ending` after the text of a candidate whose tokens end in the slot.
    private func rank(_ trie: TokenTrie, token: (Int) -> Int, ending: CandidateEnding?, completed: [Int], nodeLogProbabilities: [Float],
                      pathLogProbabilities: [Float], evaluations: Int) -> TrieScoringResult {
        var scored: [ScoredCandidate] = []
        for leaf in completed {
            let path = trie.path(to: leaf)
            let tokenLogProbabilities = path.map { nodeLogProbabilities[$0] }
            let textNodes = path.dropLast()  // the leaf's token is the end token
            let tokens = textNodes.map(token)
            let endsInSlot = textNodes.last.map { trie.token(of: $0) == TokenTrie.endingSlot } ?? false
            for index in trie.candidates(completedAt: leaf) {
                var candidate = trie.candidates[index]
                if let ending, endsInSlot {
                    candidate = WrittenFlightCandidate(flight: candidate.flight, form: candidate.form, text: candidate.text + ending.text)
                }
                let logProbability = pathLogProbabilities[leaf]
                scored.append(ScoredCandidate(
                    index: index, candidate: candidate, tokens: tokens,
                    tokenLogProbabilities: tokenLogProbabilities, logProbability: logProbability,
                    score: configuration.lengthNormalization.normalized(logProbability, tokenCount: tokens.count)))
            }
        }
        scored.sort { ($0.score, $1.index) > ($1.score, $0.index) }
        return TrieScoringResult(bestFirst: scored, evaluations: evaluations)
    }
}
