import NeuralFlightScoring
import Whisper

/// Whisper's decoder over one utterance's encoding, as the `NextTokenScorer` that `TrieScorer` walks today's
/// candidates with: each state is a decoder position whose keys and values its children share.
///
/// A free decode can ride along (`freeDecode`): each batch of candidates also feeds its next token, one more row of
/// the same matrix products, instead of a decoder step of its own that reads the whole output projection for one row.
///
/// Thread rule: not `Sendable`; use it on one thread per utterance, over a shared immutable model.
final class WhisperNextTokenScorer: NextTokenScorer {
    let model: WhisperModel
    let encoding: WhisperEncoding
    /// The step after the start sequence, fed once and shared with the free decode.
    let startStep: WhisperDecoderStep
    /// The free decode riding in the batches; advanced by one token per `extend` until it finishes.
    private(set) var freeDecode: GreedyFreeDecode?
    /// Checked before each step: a read no longer wanted stops there (`DecodeCancelled`).
    let cancellation: DecodeCancellation?

    init(model: WhisperModel, encoding: WhisperEncoding, startStep: WhisperDecoderStep, freeDecode: GreedyFreeDecode? = nil,
         cancellation: DecodeCancellation? = nil) {
        self.model = model
        self.encoding = encoding
        self.startStep = startStep
        self.freeDecode = freeDecode
        self.cancellation = cancellation
    }

    func start(scoring next: [Int]) throws -> (state: WhisperDecoderState, logProbabilities: [Float]) {
        (startStep.states[0], next.map { startStep.logProbability(of: $0, hypothesis: 0) })
    }

    func extend(_ states: [WhisperDecoderState], by tokens: [Int], scoring next: [[Int]]) throws
        -> [(state: WhisperDecoderState, logProbabilities: [Float])] {
        guard !states.isEmpty else { return [] }
        try cancellation?.check()
        let limit = model.dimensions.textContextLength
        if let long = states.first(where: { $0.length >= limit }) {
            throw RecognizerError(operation: "score today's flights with the neural model", context: "a candidate reaches \(long.length + 1) tokens, past the decoder's \(limit)")
        }
        let rider = freeDecode?.pending
        let step = model.step(encoding, states: states + [rider?.state].compactMap { $0 }, tokens: tokens + [rider?.token].compactMap { $0 })
        if rider != nil { freeDecode?.advance(with: step, row: states.count) }
        return states.indices.map { index in
            (step.states[index], next[index].map { step.logProbability(of: $0, hypothesis: index) })
        }
    }

    /// The free decode's tokens, after finishing alone the steps no batch carried.
    func finishFreeDecode() -> [Int] {
        guard var decode = freeDecode else { return [] }
        decode.finish(with: model, encoding)
        freeDecode = decode
        return decode.tokens
    }
}
