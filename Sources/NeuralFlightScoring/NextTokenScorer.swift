/// A language model that can be walked token by token: what `TrieScorer` needs of Whisper's decoder.
///
/// A state is a decoder position: the tokens fed so far (their self-attention keys and values) and the next-token
/// distribution computed when the last one was fed. Making a state is the one costly step — one decoder evaluation —
/// and every child of a tree node reads its log-probability from its parent's one distribution. A walk over a
/// `TokenTrie` therefore costs one evaluation per node with children (`TokenTrie.interiorNodeCount`), not one per
/// candidate or per child. Calls come in batches (all states of one depth of the tree, at most
/// `TrieScoringConfiguration.maximumBatchSize` at a time) so an implementation can run them as one matrix product.
/// The scorer releases the states of a depth when it has made the next one.
public protocol NextTokenScorer {
    /// A decoder position; an implementation may share the keys and values of a common prefix between states.
    associatedtype State

    /// The state after the start sequence (for tiny.en: start of transcript, no timestamps), with its next-token
    /// distribution: one evaluation.
    func initialState() throws -> State

    /// For each pair, the state after feeding `tokens[i]` at `states[i]`, with its next-token distribution: one
    /// evaluation per pair. `states` and `tokens` have the same count; the result must too, in the same order.
    func extend(_ states: [State], by tokens: [Int]) throws -> [State]

    /// For each state, the natural log-probability of each of `tokens[i]` being the next token after `states[i]`
    /// (a log-softmax over the whole vocabulary), read from the distribution computed with the state: no evaluation.
    /// The result has the counts of `tokens`, in the same order.
    func logProbabilities(after states: [State], of tokens: [[Int]]) throws -> [[Float]]
}
