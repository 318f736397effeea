import NeuralFlightScoring
import Whisper

/// Whisper's decoder over one utterance's encoding, as the `NextTokenScorer` that `TrieScorer` walks today's
/// candidates with: each state is a decoder position whose keys and values its children share.
///
/// Thread rule: a value over a shared immutable model; use it on one thread per utterance.
struct WhisperNextTokenScorer: NextTokenScorer {
    let model: WhisperModel
    let encoding: WhisperEncoding

    func start(scoring next: [Int]) throws -> (state: WhisperDecoderState, logProbabilities: [Float]) {
        let step = model.feed(encoding, tokens: WhisperTokens.startSequence)
        return (step.states[0], next.map { step.logProbability(of: $0, hypothesis: 0) })
    }

    func extend(_ states: [WhisperDecoderState], by tokens: [Int], scoring next: [[Int]]) throws
        -> [(state: WhisperDecoderState, logProbabilities: [Float])] {
        guard !states.isEmpty else { return [] }
        let limit = model.dimensions.textContextLength
        if let long = states.first(where: { $0.length >= limit }) {
            throw RecognizerError(operation: "score today's flights with the neural model", context: "a candidate reaches \(long.length + 1) tokens, past the decoder's \(limit)")
        }
        let step = model.step(encoding, states: states, tokens: tokens)
        return states.indices.map { index in
            (step.states[index], next[index].map { step.logProbability(of: $0, hypothesis: index) })
        }
    }
}
