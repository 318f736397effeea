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
/// Node 0 is the root (the decoder's start sequence, no token of its own); a node's children are in the order their
/// first candidate came; every path from the root ends in an end-token leaf that lists the candidates it completes
/// (several when texts tokenise alike). Immutable and `Sendable`.
public struct TokenTrie: Sendable {
    /// One node: the token that leads to it from its parent.
    ///
    /// Token, parent and depth are kept in 32 bits (−1 for the root's none): a day's tree holds about 45,000 nodes,
    /// and 56 bytes a node instead of 32 is 1 MB of every worker's memory.
    public struct Node: Sendable, Hashable {
        private let storedToken: Int32
        private let storedParent: Int32
        private let storedDepth: Int32
        /// The children's indices.
        public fileprivate(set) var children: [Int]
        /// For an end-token leaf, the indices in `TokenTrie.candidates` of the candidates it completes; else empty.
        public fileprivate(set) var candidates: [Int]

        fileprivate init(token: Int?, parent: Int?, depth: Int) {
            storedToken = Int32(token ?? -1)
            storedParent = Int32(parent ?? -1)
            storedDepth = Int32(depth)
            children = []
            candidates = []
        }

        /// The token on the edge from the parent (perhaps `TokenTrie.endingSlot`); nil for the root.
        public var token: Int? { storedToken == -1 ? nil : Int(storedToken) }
        /// The parent's index; nil for the root.
        public var parent: Int? { storedParent < 0 ? nil : Int(storedParent) }
        /// Tokens from the root: 0 for the root, 1 for its children.
        public var depth: Int { Int(storedDepth) }
    }

    /// The index of the root.
    public static let root = 0

    /// Stands last in a candidate's tokens for its ending, which each walk chooses (`TrieScorer.score(_:with:after:ending:)`):
    /// one tree of today's flights serves statements (" LX 40.") and questions (" LX 40?"), which differ in that one
    /// token. No tokenizer's id.
    public static let endingSlot = -2

    /// All nodes; `nodes[TokenTrie.root]` is the root.
    public let nodes: [Node]
    /// The candidates, in the order given; each one's tokens are the path to its leaf.
    public let candidates: [WrittenFlightCandidate]
    /// The token that ends every path (Whisper's `<|endoftext|>`).
    public let endToken: Int
    /// Whether some candidate's tokens end in `endingSlot`: then a walk needs an ending.
    public let hasEndingSlot: Bool

    /// The tree of `candidates`, each followed by `endToken`.
    public init(candidates: [TokenizedCandidate], endToken: Int) {
        var nodes = [Node(token: nil, parent: nil, depth: 0)]
        var childByToken: [[Int: Int]] = [[:]]
        for (index, candidate) in candidates.enumerated() {
            var node = Self.root
            for token in candidate.tokens + [endToken] {
                if let child = childByToken[node][token] {
                    node = child
                } else {
                    let child = nodes.count
                    nodes.append(Node(token: token, parent: node, depth: nodes[node].depth + 1))
                    childByToken.append([:])
                    nodes[node].children.append(child)
                    childByToken[node][token] = child
                    node = child
                }
            }
            nodes[node].candidates.append(index)
        }
        self.nodes = nodes
        self.candidates = candidates.map(\.candidate)
        self.endToken = endToken
        hasEndingSlot = candidates.contains { $0.tokens.last == Self.endingSlot }
    }

    /// The tree of `candidates` tokenised by `tokenizer`, ended by its `<|endoftext|>`.
    public init(candidates: [WrittenFlightCandidate], tokenizer: WhisperTokenizer) {
        self.init(candidates: candidates.map { TokenizedCandidate(candidate: $0, tokens: tokenizer.encode($0.text)) },
                  endToken: tokenizer.endOfText)
    }

    /// Nodes, the root included.
    public var nodeCount: Int { nodes.count }

    /// Nodes with children, the root included: the next-token distributions a full walk needs, i.e. the decoder
    /// evaluations of an exact score (end-token leaves need none).
    public var interiorNodeCount: Int { nodes.lazy.filter { !$0.children.isEmpty }.count }

    /// The longest path in tokens, the end token included.
    public var maximumDepth: Int { nodes.map(\.depth).max() ?? 0 }

    /// Nodes at each depth, the root's (1) first: the widest depth bounds a batch of an exact walk.
    public var nodeCountsByDepth: [Int] {
        var counts = [Int](repeating: 0, count: maximumDepth + 1)
        for node in nodes { counts[node.depth] += 1 }
        return counts
    }

    /// The tokens from the root to `node`, in order.
    public func tokens(to node: Int) -> [Int] {
        var tokens: [Int] = []
        var current: Int? = node
        while let index = current, let token = nodes[index].token {
            tokens.append(token)
            current = nodes[index].parent
        }
        return tokens.reversed()
    }
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
