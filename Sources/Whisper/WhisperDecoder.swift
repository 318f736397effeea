import Foundation

/// One token position's self-attention keys and values for every decoder layer, linked to the positions before it.
/// A hypothesis is its newest entry; forking a hypothesis shares its whole past, so a prefix tree of candidates costs
/// one entry per node.
///
/// Thread rule: written only while the step that creates it runs, immutable once that step returns; then shared freely.
final class KeyValueEntry: @unchecked Sendable {
    let parent: KeyValueEntry?
    /// Layer `l`'s key is `storage[2·l·width ..< (2·l + 1)·width]`, its value the next `width` floats.
    let storage: UnsafeMutablePointer<Float>

    init(parent: KeyValueEntry?, layerCount: Int, width: Int) {
        self.parent = parent
        storage = .allocate(capacity: 2 * layerCount * width)
    }

    deinit { storage.deallocate() }
}

/// A decoding hypothesis: the tokens fed to the decoder so far, held as their cached self-attention keys and values.
/// Copying it is the fork: children made from one parent share the parent's cache.
///
/// Thread rule: an immutable value; share it freely.
public struct WhisperDecoderState: Sendable {
    /// Tokens fed so far, which is also the position the next token takes.
    public let length: Int
    let newest: KeyValueEntry?

    /// Nothing fed yet.
    public static let empty = WhisperDecoderState(length: 0, newest: nil)

    /// The cache entries, oldest first.
    func entries() -> [KeyValueEntry] {
        var result: [KeyValueEntry] = []
        result.reserveCapacity(length + 1)
        var entry = newest
        while let current = entry {
            result.append(current)
            entry = current.parent
        }
        return result.reversed()
    }
}

/// The result of one decoder step over a batch of hypotheses.
public struct WhisperDecoderStep: Sendable {
    /// Each input hypothesis advanced by its token, in input order.
    public let states: [WhisperDecoderState]
    /// Row `i`: the log-softmax over the whole vocabulary of the token following `states[i]`.
    public let logProbabilities: Matrix

    /// log P(`token` | hypothesis `index`).
    public func logProbability(of token: Int, hypothesis index: Int) -> Float {
        logProbabilities[index, token]
    }
}

extension WhisperModel {
    /// Advances each hypothesis by one token (`tokens[i]` is fed to `states[i]`) and returns each one's next-token
    /// log-probabilities. The whole batch shares one GEMM per weight, and the output projection is one GEMM.
    public func step(_ encoding: WhisperEncoding, states: [WhisperDecoderState], tokens: [Int]) -> WhisperDecoderStep {
        precondition(states.count == tokens.count, "\(states.count) hypotheses but \(tokens.count) tokens")
        precondition(tokens.allSatisfy { (0..<dimensions.vocabularySize).contains($0) }, "a token is outside the vocabulary")
        precondition(states.allSatisfy { $0.length < dimensions.textContextLength }, "a hypothesis is already \(dimensions.textContextLength) tokens long")
        let batch = states.count
        let width = dimensions.modelWidth
        let layerCount = dimensions.decoderLayerCount
        guard batch > 0 else {
            return WhisperDecoderStep(states: [], logProbabilities: Matrix(zeros: 0, columns: dimensions.vocabularySize))
        }
        // Token embedding + learned position.
        var x = Matrix(zeros: batch, columns: width)
        for (row, (state, token)) in zip(states, tokens).enumerated() {
            for column in 0..<width {
                x[row, column] = embeddings[token, column] + decoderPositions[state.length, column]
            }
        }
        let newEntries = states.map { KeyValueEntry(parent: $0.newest, layerCount: layerCount, width: width) }
        let histories = zip(states, newEntries).map { state, entry in state.entries() + [entry] }

        for (layerIndex, layer) in decoderLayers.enumerated() {
            let attended = cachedSelfAttention(x, layer.selfAttention, layer: layerIndex, histories: histories, newEntries: newEntries)
            x += attended
            let crossAttended = crossAttention(x, layer.crossAttention, keysAndValues: encoding.crossKeysAndValues[layerIndex])
            x += crossAttended
            let transformed = feedForward(x, layer.feedForward)
            x += transformed
        }
        var logProbabilities = decoderNorm(x).multipliedByTranspose(of: embeddings)
        logProbabilities.applyLogSoftmaxToRows()
        let advanced = zip(states, newEntries).map { WhisperDecoderState(length: $0.length + 1, newest: $1) }
        return WhisperDecoderStep(states: advanced, logProbabilities: logProbabilities)
    }

    /// Feeds several tokens to one hypothesis in turn (e.g. the start sequence) and returns the last step.
    public func feed(_ encoding: WhisperEncoding, state: WhisperDecoderState = .empty, tokens: [Int]) -> WhisperDecoderStep {
        precondition(!tokens.isEmpty, "feed needs at least one token")
        var current = state
        var result: WhisperDecoderStep!
        for token in tokens {
            result = step(encoding, states: [current], tokens: [token])
            current = result.states[0]
        }
        return result
    }

    /// Greedy free decoding: after `prefix`, the most probable token each step until `<|endoftext|>` or
    /// `maximumTokenCount` tokens. Returns the text tokens (neither the prefix nor `<|endoftext|>`).
    public func greedyTokens(_ encoding: WhisperEncoding, prefix: [Int] = WhisperTokens.startSequence,
                             maximumTokenCount: Int = 64) -> [Int] {
        var step = feed(encoding, tokens: prefix)
        var tokens: [Int] = []
        while tokens.count < maximumTokenCount && step.states[0].length < dimensions.textContextLength {
            let row = step.logProbabilities.row(0)
            let best = row.indices.max { row[$0] < row[$1] }! - row.startIndex
            if best == WhisperTokens.endOfText { break }
            tokens.append(best)
            step = self.step(encoding, states: step.states, tokens: [best])
        }
        return tokens
    }

    /// Masked (causal) self-attention with cached keys and values: writes this position's key and value into the new
    /// entries, then each hypothesis attends over its own history.
    private func cachedSelfAttention(_ x: Matrix, _ weights: AttentionWeights, layer: Int,
                                     histories: [[KeyValueEntry]], newEntries: [KeyValueEntry]) -> Matrix {
        let width = dimensions.modelWidth
        let headWidth = dimensions.headWidth
        let scale = 1 / Float(headWidth).squareRoot()
        let queryKeyValue = weights.queryKeyValue(weights.norm(x))
        var mixed = Matrix(zeros: x.rows, columns: width)
        let keyOffset = 2 * layer * width, valueOffset = (2 * layer + 1) * width
        queryKeyValue.values.withUnsafeBufferPointer { qkv in
            mixed.values.withUnsafeMutableBufferPointer { out in
                var scores = [Float](repeating: 0, count: histories.map(\.count).max() ?? 0)
                for row in 0..<x.rows {
                    let projected = qkv.baseAddress! + row * 3 * width
                    let entry = newEntries[row].storage
                    (entry + keyOffset).update(from: projected + width, count: width)
                    (entry + valueOffset).update(from: projected + 2 * width, count: width)
                    let history = histories[row]
                    let output = out.baseAddress! + row * width
                    scores.withUnsafeMutableBufferPointer { s in
                        for head in 0..<dimensions.headCount {
                            let offset = head * headWidth
                            let query = projected + offset
                            for (position, past) in history.enumerated() {
                                let key = past.storage + keyOffset + offset
                                var dot: Float = 0
                                for i in 0..<headWidth { dot += query[i] * key[i] }
                                s[position] = dot * scale
                            }
                            softmax(s.baseAddress!, count: history.count)
                            let headOutput = output + offset
                            for (position, past) in history.enumerated() {
                                let value = past.storage + valueOffset + offset
                                let weight = s[position]
                                for i in 0..<headWidth { headOutput[i] += weight * value[i] }
                            }
                        }
                    }
                }
            }
        }
        return weights.output(mixed)
    }

    /// Cross-attention of the whole batch over the utterance's precomputed keys and values: per head one GEMM for
    /// the scores and one for the mix.
    private func crossAttention(_ x: Matrix, _ weights: CrossAttentionWeights, keysAndValues: Matrix) -> Matrix {
        let width = dimensions.modelWidth
        let queries = weights.query(weights.norm(x))
        var mixed = Matrix(zeros: x.rows, columns: width)
        queries.values.withUnsafeBufferPointer { q in
            keysAndValues.values.withUnsafeBufferPointer { kv in
                mixed.values.withUnsafeMutableBufferPointer { out in
                    attend(queries: q.baseAddress!, queryStride: width, queryCount: x.rows,
                           keys: kv.baseAddress!, values: kv.baseAddress! + width, keyValueStride: 2 * width,
                           keyCount: keysAndValues.rows, into: out.baseAddress!)
                }
            }
        }
        return weights.output(mixed)
    }
}

extension Matrix {
    /// Replaces each row x by x − log Σ exp(x).
    mutating func applyLogSoftmaxToRows() {
        let columns = columns
        values.withUnsafeMutableBufferPointer { v in
            for row in 0..<rows {
                let r = v.baseAddress! + row * columns
                var maximum = -Float.infinity
                for i in 0..<columns where r[i] > maximum { maximum = r[i] }
                var sum: Float = 0
                for i in 0..<columns { sum += expf(r[i] - maximum) }
                let logSum = maximum + logf(sum)
                for i in 0..<columns { r[i] -= logSum }
            }
        }
    }
}
