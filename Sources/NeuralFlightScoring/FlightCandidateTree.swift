import FlightCore

/// Today's candidates ready to score: their token tree, built once per schedule, and the choice per utterance of the
/// ending and the carrier-phrase tokens to score it with, from what the free decode heard. `Sendable`: share it
/// across workers.
///
/// Whisper ends a flight said alone or after a statement with "." (" LX 40.") and one after a question with "?";
/// the tree holds every candidate once, its ending a slot (`TokenTrie.endingSlot`) that the walk fills. A carrier
/// phrase is not copied into the tree (each phrase would copy all of it); the phrase the free transcript starts with
/// is fed before the tree instead (`TrieScorer.score(_:with:after:ending:)`), which tokenises the same as the whole
/// text would (checked for every phrase of the grammar, and for every candidate with each ending).
public struct FlightCandidateTree: Sendable {
    /// Every candidate, its text without the ending, its tokens ending in the slot.
    public let trie: TokenTrie
    /// " LX 40."
    public let statementEnding: CandidateEnding
    /// " LX 40?"
    public let questionEnding: CandidateEnding
    /// The carrier phrases looked for at the start of a free transcript (`CarrierPhrase.grammarPhrases`).
    public let carrierPhrases: [CarrierPhrase]
    private let tokenizer: WhisperTokenizer

    /// How to score the tree for one utterance.
    public struct Plan: Sendable {
        /// The candidates' ending.
        public let ending: CandidateEnding
        /// The carrier phrase the free transcript starts with; nil when none.
        public let carrier: CarrierPhrase?
        /// Its tokens (" What's the gate for"), to feed before the tree; empty when none.
        public let prefix: [Int]
    }

    /// The tree of `flights` written with `options` (its carriers are replaced by a bare flight without ending), and
    /// the carrier phrases to look for.
    public init(flights: [FlightNumber], airlines: AirlineDirectory, tokenizer: WhisperTokenizer,
                options: CandidateWritingOptions = .standard, carrierPhrases: [CarrierPhrase]) {
        var bare = options
        bare.carriers = [CarrierPhrase(before: "", ending: "")]
        let candidates = FlightCandidateWriter(airlines: airlines, options: bare).candidates(for: flights)
        trie = TokenTrie(candidates: candidates.map { TokenizedCandidate(candidate: $0, tokens: tokenizer.encode($0.text) + [TokenTrie.endingSlot]) },
                         endToken: tokenizer.endOfText)
        // Punctuation after a letter or digit is a token of its own in Whisper's byte-level BPE (its pre-tokenizer
        // splits there), so these never fail.
        statementEnding = CandidateEnding(CarrierPhrase.statementEnding, tokenizer: tokenizer)!
        questionEnding = CandidateEnding(CarrierPhrase.questionEnding, tokenizer: tokenizer)!
        self.carrierPhrases = carrierPhrases
        self.tokenizer = tokenizer
    }

    /// The ending and prefix for an utterance whose free transcript is `freeTranscript` (nil: not decoded): the
    /// carrier phrase it starts with and its ending, else a statement's ending alone.
    public func plan(forFreeTranscript freeTranscript: String?) -> Plan {
        guard let freeTranscript, let carrier = CarrierPhrase.matching(freeTranscript: freeTranscript, among: carrierPhrases) else {
            return Plan(ending: statementEnding, carrier: nil, prefix: [])
        }
        return Plan(ending: carrier.ending == CarrierPhrase.questionEnding ? questionEnding : statementEnding,
                    carrier: carrier, prefix: tokenizer.encode(" " + carrier.before))
    }

    /// False when a free transcript beginning with `start` will get the bare statement's plan however it ends
    /// (`CarrierPhrase.mayMatch`): then the tree can be scored while the free decode goes on.
    public func mayNeedCarrier(freeTranscriptStart start: String) -> Bool {
        CarrierPhrase.mayMatch(freeTranscriptStart: start, among: carrierPhrases)
    }
}
