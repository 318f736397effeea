/// How the neural pass listens: how much audio its encoder sees, how widely it searches today's candidates, how long
/// its free transcript may grow. Pure value; `Sendable`.
public struct NeuralPassConfiguration: Sendable, Hashable {
    /// Seconds of Whisper's zero padding encoded after the utterance, instead of the 30 s window it was trained on.
    /// The encoder's cost grows with its input (30 s: about 1.1 s of CPU; a 2 s clip plus 1 s: about 0.07 s), and the
    /// window changes token scores by up to about 1 nat, so this is a measured trade (docs/experiments.md).
    public var encoderMarginSeconds: Double = 1.0
    /// Partial candidates kept per token depth of today's candidate tree (`TrieScoringConfiguration.beamWidth`): each
    /// kept node costs one decoder row, most of it the 384 × 51,864 output projection.
    public var beamWidth: Int = 32
    /// Paths to the grammar's flight kept per depth beside the beam, best first (`TrieScoringConfiguration.keptPathWidth`),
    /// so that its neural rank and score are known. All of them were a quarter of a walk's decoder rows (77 of 320 on 58
    /// human dev clips, 2026-12-06), the best 4 a twelfth (20 of 242), with the same readings on those clips but for one
    /// grammar flight's rank (12 → 13).
    public var keptPathWidth: Int = 4
    /// Text the decoder is given as what came before (Whisper's prompt, `<|startofprev|>` …), for every candidate and
    /// the free transcript alike; "" for none; nil: the prompt of the decision's neural check
    /// (`DecisionModel.NeuralCheck.prompt`, whose model was fitted on readings made after it), none without a check.
    /// Set it only to measure another (`eval --neural-prompt`).
    public var prompt: String?
    /// Longest free transcript, in tokens, whatever the audio's length.
    public var maximumFreeTokens: Int = 32
    /// The free transcript's token limit for an utterance is this plus `freeTokensPerSecond` per second of audio: a
    /// decode stuck repeating itself ("W, okay, 47, W, okay, 47, …") stops there instead of at `maximumFreeTokens`, at
    /// about 17 ms a token. Flight numbers spelled letter by letter, the longest queries, run to about 5 tokens a second.
    public var freeTokensBase: Int = 6
    public var freeTokensPerSecond: Double = 5
    /// Threads a large matrix product may use, for the process (`BLAS.setThreadCount`): 1, since workers are the
    /// parallelism.
    public var blasThreadCount: Int = 1
    /// Reads the tuned decoder's reading on a thread of its own beside the stock decoder's (`NeuralPass.read`), for a
    /// recognizer listening alone (`RecognizerConfiguration.listeningAlone`). Not for batch workers, which are the
    /// parallelism: one worker on two cores answered 24% sooner with it, but the two walks' logits held at once took its
    /// peak RSS from 398 to 407 MB, over the 400 MB a worker may use.
    var readsDecodersConcurrently: Bool = false

    public init() {}
}
