/// A language model that can be walked token by token: what `TrieScorer` needs of Whisper's decoder.
///
/// A state is a decoder position: the tokens fed so far (their self-attention keys and values). One evaluation feeds
/// one token and computes the next-token distribution after it, a log-softmax over the whole vocabulary; since the
/// tree's walk knows which tokens can follow (the node's children), the evaluation returns only their
/// log-probabilities, and the state need not keep the distribution. Every child of a node thus reads its
/// log-probability from the node's one distribution, and a walk costs one evaluation per node with children
/// (`TokenTrie.interiorNodeCount`), not one per candidate or per child; end-token leaves cost none.
///
/// Calls come in batches — the kept nodes of one depth of the tree, at most `TrieScoringConfiguration.maximumBatchSize`
/// at a time — so an implementation can run them as one matrix product. The walk drops the states of a depth once the
/// next depth is made; a state may share its ancestors' keys and values (say, by a reference to its parent).
public protocol NextTokenScorer {
    /// A decoder position; an implementation may share the keys and values of a common prefix between states.
    associatedtype State

    /// The state after the start sequence (for tiny.en: start of transcript, no timestamps) and the natural
    /// log-probabilities of each of `next` as the token after it: one evaluation. The result has the count of `next`.
    func start(scoring next: [Int]) throws -> (state: State, logProbabilities: [Float])

    /// For each `i`, the state after feeding `tokens[i]` at `states[i]` and the log-probabilities of each of `next[i]`
    /// as the token after that: one evaluation per `i`. `states`, `tokens` and `next` have one count, and the result
    /// has it too, in the same order; each result's log-probabilities have the count of its `next[i]`.
    func extend(_ states: [State], by tokens: [Int], scoring next: [[Int]]) throws -> [(state: State, logProbabilities: [Float])]
}
