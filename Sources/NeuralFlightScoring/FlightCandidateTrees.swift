import FlightCore

/// Today's candidates ready to score: their token trees, built once per schedule, and the choice per utterance of the
/// tree and the carrier-phrase tokens to score it after, from what the free decode heard. `Sendable`: share it
/// across workers.
///
/// There are two trees, one per ending Whisper writes: " LX 40." after a statement or nothing, " LX 40?" after a
/// question. A carrier phrase is not copied into a tree (each phrase would copy all of it); the phrase the free
/// transcript starts with is fed before the tree instead (`TrieScorer.score(_:with:after:)`), which tokenises the
/// same as the whole text would (checked for every phrase of the grammar).
public struct FlightCandidateTrees: Sendable {
    /// The tree of every candidate ending in ".".
    public let statements: TokenTrie
    /// The tree of every candidate ending in "?".
    public let questions: TokenTrie
    /// The carrier phrases looked for at the start of a free transcript (`CarrierPhrase.grammarPhrases`).
    public let carrierPhrases: [CarrierPhrase]
    private let tokenizer: WhisperTokenizer

    /// The tree and what to feed before it for one utterance.
    public struct Plan: Sendable {
        /// The tree to score.
        public let trie: TokenTrie
        /// The carrier phrase the free transcript starts with; nil when none.
        public let carrier: CarrierPhrase?
        /// Its tokens (" What's the gate for"), to feed before the tree; empty when none.
        public let prefix: [Int]
    }

    /// The trees of `flights` written with `options` (its carriers are replaced by the two bare endings), and the
    /// carrier phrases to look for.
    public init(flights: [FlightNumber], airlines: AirlineDirectory, tokenizer: WhisperTokenizer,
                options: CandidateWritingOptions = .standard, carrierPhrases: [CarrierPhrase]) {
        func tree(_ ending: CarrierPhrase) -> TokenTrie {
            var bare = options
            bare.carriers = [ending]
            return TokenTrie(candidates: FlightCandidateWriter(airlines: airlines, options: bare).candidates(for: flights), tokenizer: tokenizer)
        }
        statements = tree(.bare)
        questions = tree(.bareQuestion)
        self.carrierPhrases = carrierPhrases
        self.tokenizer = tokenizer
    }

    /// The tree and prefix for an utterance whose free transcript is `freeTranscript` (nil: not decoded): the
    /// carrier phrase it starts with and the tree of its ending, else the statements' tree alone.
    public func plan(forFreeTranscript freeTranscript: String?) -> Plan {
        guard let freeTranscript, let carrier = CarrierPhrase.matching(freeTranscript: freeTranscript, among: carrierPhrases) else {
            return Plan(trie: statements, carrier: nil, prefix: [])
        }
        return Plan(trie: carrier.ending == CarrierPhrase.questionEnding ? questions : statements, carrier: carrier,
                    prefix: tokenizer.encode(" " + carrier.before))
    }

    /// False when a free transcript beginning with `start` will get the bare statements' plan however it ends
    /// (`CarrierPhrase.mayMatch`): then that tree can be scored while the free decode goes on.
    public func mayNeedCarrier(freeTranscriptStart start: String) -> Bool {
        CarrierPhrase.mayMatch(freeTranscriptStart: start, among: carrierPhrases)
    }
}
