/// A written candidate with its token ids (without the end token).
public struct TokenizedCandidate: Sendable, Hashable {
    public let candidate: WrittenFlightCandidate
    /// The text's ids, as `WhisperTokenizer.encode` gives them, perhaps with `TokenTrie.endingSlot` last; the tree adds
    /// the end token.
    public let tokens: [Int]

    public init(candidate: WrittenFlightCandidate, tokens: [Int]) {
        self.candidate = candidate
        self.tokens = tokens
    }
}

/// The candidates' token sequences, each followed by the end token, merged on common prefixes: candidates that start
/// alike share nodes, so a decoder walking the tree evaluates each shared prefix once.
///
/// Node 0 is the root (the decoder's start sequence, no token of its own); nodes are numbered breadth first, a node's
/// children in the order their first candidate came, so each node's children are consecutive numbers; every path
/// from the root ends in an end-token leaf that lists the candidates it completes (several when texts tokenise
/// alike). Immutable and `Sendable`.
///
/// Stored flat, in 32-bit arrays indexed by node: a day's tree holds about 120,000 nodes, and with a struct per node
/// holding arrays of its children and candidates a worker's peak RSS was 3.8 MB larger (45,000 nodes, 2026-12-06).
public struct TokenTrie: Sendable {
    /// The index of the root.
    public static let root = 0

    /// Stands last in a candidate's tokens for its ending, which each walk chooses (`TrieScorer.score(_:with:after:ending:)`):
    /// one tree of today's flights serves statements (" LX 40.") and questions (" LX 40?"), which differ in that one
    /// token. No tokenizer's id.
    public static let endingSlot = -2

    /// The candidates, in the order given; each one's tokens are the path to its leaf.
    public let candidates: [WrittenFlightCandidate]
    /// The token that ends every path (Whisper's `<|endoftext|>`).
    public let endToken: Int
    /// Whether some candidate's tokens end in `endingSlot`: then a walk needs an ending.
    public let hasEndingSlot: Bool

    /// By node: the token on the edge from its parent (−1 for the root), its parent (−1 for the root), its depth.
    private let nodeTokens: [Int32]
    private let nodeParents: [Int32]
    private let nodeDepths: [Int32]
    /// By node, and one more: node n's children are `childStarts[n]..<childStarts[n + 1]`.
    private let childStarts: [Int32]
    /// By node, and one more: leaf n completes `completedCandidates[candidateStarts[n]..<candidateStarts[n + 1]]`.
    private let candidateStarts: [Int32]
    private let completedCandidates: [Int32]
    /// By candidate: its leaf.
    private let leaves: [Int32]

    /// The tree of `candidates`, each followed by `endToken`.
    public init(candidates: [TokenizedCandidate], endToken: Int) {
        // Built in the order nodes are first reached, children as linked lists, then numbered breadth first.
        var token: [Int32] = [-1], parent: [Int32] = [-1]
        var firstChild: [Int32] = [-1], lastChild: [Int32] = [-1], nextSibling: [Int32] = [-1]
        var childByEdge: [Int: Int32] = [:]
        var leafByCandidate: [Int32] = []
        leafByCandidate.reserveCapacity(candidates.count)
        for candidate in candidates {
            var node = Int32(Self.root)
            for next in candidate.tokens + [endToken] {
                let edge = Int(node) << 32 | Int(UInt32(bitPattern: Int32(next)))
                if let child = childByEdge[edge] {
                    node = child
                    continue
                }
                let child = Int32(token.count)
                token.append(Int32(next))
                parent.append(node)
                firstChild.append(-1)
                lastChild.append(-1)
                nextSibling.append(-1)
                if lastChild[Int(node)] < 0 { firstChild[Int(node)] = child } else { nextSibling[Int(lastChild[Int(node)])] = child }
                lastChild[Int(node)] = child
                childByEdge[edge] = child
                node = child
            }
            leafByCandidate.append(node)
        }
        childByEdge = [:]

        var order: [Int32] = [Int32(Self.root)]  // old index, breadth first
        order.reserveCapacity(token.count)
        var position = 0
        while position < order.count {
            var child = firstChild[Int(order[position])]
            while child >= 0 {
                order.append(child)
                child = nextSibling[Int(child)]
            }
            position += 1
        }
        var renumbered = [Int32](repeating: 0, count: token.count)
        for (new, old) in order.enumerated() { renumbered[Int(old)] = Int32(new) }

        var nodeTokens: [Int32] = [], nodeParents: [Int32] = [], nodeDepths: [Int32] = []
        var childStarts: [Int32] = []
        nodeTokens.reserveCapacity(order.count)
        nodeParents.reserveCapacity(order.count)
        nodeDepths.reserveCapacity(order.count)
        childStarts.reserveCapacity(order.count + 1)
        var nextChild: Int32 = 1  // breadth first, the children of node n follow those of node n − 1
        for old in order {
            let oldParent = parent[Int(old)]
            nodeTokens.append(token[Int(old)])
            nodeParents.append(oldParent < 0 ? -1 : renumbered[Int(oldParent)])
            nodeDepths.append(oldParent < 0 ? 0 : nodeDepths[Int(renumbered[Int(oldParent)])] + 1)
            childStarts.append(nextChild)
            var child = firstChild[Int(old)]
            while child >= 0 {
                nextChild += 1
                child = nextSibling[Int(child)]
            }
        }
        childStarts.append(nextChild)

        let leaves = leafByCandidate.map { renumbered[Int($0)] }
        var candidateCounts = [Int32](repeating: 0, count: order.count + 1)
        for leaf in leaves { candidateCounts[Int(leaf) + 1] += 1 }
        var candidateStarts = candidateCounts
        for node in 0..<order.count { candidateStarts[node + 1] += candidateStarts[node] }
        var completedCandidates = [Int32](repeating: 0, count: leaves.count)
        var filled = candidateStarts
        for (index, leaf) in leaves.enumerated() {
            completedCandidates[Int(filled[Int(leaf)])] = Int32(index)
            filled[Int(leaf)] += 1
        }

        self.candidates = candidates.map(\.candidate)
        self.endToken = endToken
        hasEndingSlot = candidates.contains { $0.tokens.last == Self.endingSlot }
        self.nodeTokens = nodeTokens
        self.nodeParents = nodeParents
        self.nodeDepths = nodeDepths
        self.childStarts = childStarts
        self.candidateStarts = candidateStarts
        self.completedCandidates = completedCandidates
        self.leaves = leaves
    }

    /// The tree of `candidates` tokenised by `tokenizer`, ended by its `<|endoftext|>`.
    public init(candidates: [WrittenFlightCandidate], tokenizer: WhisperTokenizer) {
        self.init(candidates: candidates.map { TokenizedCandidate(candidate: $0, tokens: tokenizer.encode($0.text)) },
                  endToken: tokenizer.endOfText)
    }

    /// Nodes, the root included.
    public var nodeCount: Int { nodeTokens.count }

    /// Every node's index, the root's first.
    public var nodeIndices: Range<Int> { 0..<nodeCount }

    /// The token on the edge from `node`'s parent (perhaps `endingSlot`); nil for the root.
    public func token(of node: Int) -> Int? { nodeTokens[node] == -1 ? nil : Int(nodeTokens[node]) }

    /// `node`'s parent; nil for the root.
    public func parent(of node: Int) -> Int? { nodeParents[node] < 0 ? nil : Int(nodeParents[node]) }

    /// Tokens from the root to `node`: 0 for the root, 1 for its children.
    public func depth(of node: Int) -> Int { Int(nodeDepths[node]) }

    /// `node`'s children, in the order their first candidate came.
    public func children(of node: Int) -> Range<Int> { Int(childStarts[node])..<Int(childStarts[node + 1]) }

    /// Whether `node` is an end-token leaf.
    public func isLeaf(_ node: Int) -> Bool { childStarts[node] == childStarts[node + 1] }

    /// For an end-token leaf, the indices in `candidates` of the candidates it completes, in order; else empty.
    public func candidates(completedAt node: Int) -> [Int] {
        completedCandidates[Int(candidateStarts[node])..<Int(candidateStarts[node + 1])].map(Int.init)
    }

    /// The end-token leaf that completes `candidates[index]`.
    public func leaf(ofCandidate index: Int) -> Int { Int(leaves[index]) }

    /// Nodes with children, the root included: the next-token distributions a full walk needs, i.e. the decoder
    /// evaluations of an exact score (end-token leaves need none).
    public var interiorNodeCount: Int { nodeIndices.lazy.filter { !isLeaf($0) }.count }

    /// The longest path in tokens, the end token included.
    public var maximumDepth: Int { Int(nodeDepths.max() ?? 0) }

    /// Nodes at each depth, the root's (1) first: the widest depth bounds a batch of an exact walk.
    public var nodeCountsByDepth: [Int] {
        var counts = [Int](repeating: 0, count: maximumDepth + 1)
        for depth in nodeDepths { counts[Int(depth)] += 1 }
        return counts
    }

    /// The nodes from the root's child to `node`, in order (empty for the root).
    public func path(to node: Int) -> [Int] {
        var path: [Int] = []
        var current: Int? = node
        while let index = current, index != Self.root {
            path.append(index)
            current = parent(of: index)
        }
        return path.reversed()
    }

    /// The tokens from the root to `node`, in order.
    public func tokens(to node: Int) -> [Int] { path(to: node).map { token(of: $0)! } }
}

/// What a walk puts in place of `TokenTrie.endingSlot`: "." after a statement, "?" after a question, as one token.
public struct CandidateEnding: Sendable, Hashable {
    /// The punctuation, appended to the text of each scored candidate.
    public let text: String
    /// Its token.
    public let token: Int

    /// `text` as `tokenizer` writes it; nil unless that is one token.
    public init?(_ text: String, tokenizer: WhisperTokenizer) {
        let tokens = tokenizer.encode(text)
        guard tokens.count == 1 else { return nil }
        self.text = text
        token = tokens[0]
    }

    public init(text: String, token: Int) {
        self.text = text
        self.token = token
    }
}
