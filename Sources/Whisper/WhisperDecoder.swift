import CVectorMath
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
///
/// Thread rule: an immutable value; share it freely.
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

/// The result of feeding whole token sequences to a batch of hypotheses in one pass.
///
/// Thread rule: an immutable value; share it freely.
public struct WhisperFeedResult: Sendable {
    /// Each input hypothesis advanced by all of its sequence's tokens, in input order.
    public let states: [WhisperDecoderState]
    /// Log-softmax rows over the whole vocabulary: with `allPositions`, one per fed token (sequence after sequence),
    /// row `rowOffsets[s] + i` being the distribution of the token that follows token `i` of sequence `s`; otherwise
    /// one per sequence, after its last token.
    public let logProbabilities: Matrix
    /// Where each sequence's rows start in `logProbabilities`.
    public let rowOffsets: [Int]

    /// log P(`token` | sequence `sequence`'s hypothesis after its tokens 0 ... `position`); `position` must be the
    /// last one unless all positions were asked for.
    public func logProbability(of token: Int, sequence: Int, position: Int) -> Float {
        logProbabilities[row(sequence: sequence, position: position), token]
    }

    /// The whole distribution after tokens 0 ... `position` of sequence `sequence`.
    public func distribution(sequence: Int, position: Int) -> ArraySlice<Float> {
        logProbabilities.row(row(sequence: sequence, position: position))
    }

    /// The distribution after the last token of every sequence, as a step would give it.
    public var lastStep: WhisperDecoderStep {
        let ends = rowOffsets.indices.map { sequence in
            sequence + 1 < rowOffsets.count ? rowOffsets[sequence + 1] - 1 : logProbabilities.rows - 1
        }
        var values: [Float] = []
        values.reserveCapacity(ends.count * logProbabilities.columns)
        for row in ends { values += logProbabilities.row(row) }
        return WhisperDecoderStep(states: states, logProbabilities: Matrix(rows: ends.count, columns: logProbabilities.columns, values: values))
    }

    private func row(sequence: Int, position: Int) -> Int {
        let start = rowOffsets[sequence]
        let end = sequence + 1 < rowOffsets.count ? rowOffsets[sequence + 1] : logProbabilities.rows
        precondition(start + position < end, "position \(position) of sequence \(sequence) has no row (only the last position was asked for?)")
        return start + position
    }
}

extension WhisperModel {
    /// Advances each hypothesis by one token (`tokens[i]` is fed to `states[i]`) and returns each one's next-token
    /// log-probabilities. The whole batch shares one GEMM per weight, and the output projection is one GEMM.
    public func step(_ encoding: WhisperEncoding, states: [WhisperDecoderState], tokens: [Int]) -> WhisperDecoderStep {
        precondition(states.count == tokens.count, "\(states.count) hypotheses but \(tokens.count) tokens")
        let fed = feed(encoding, states: states, sequences: tokens.map { [$0] })
        return WhisperDecoderStep(states: fed.states, logProbabilities: fed.logProbabilities)
    }

    /// Feeds `sequences[i]` (one or more tokens) to `states[i]`, all in one pass: every token of every sequence is a
    /// row of the same GEMMs, attending causally to its own hypothesis's past. With `allPositions`, returns the
    /// distribution after every fed token (teacher forcing: a whole candidate scored at once); otherwise only after
    /// each sequence's last token (a prefix such as the start sequence).
    public func feed(_ encoding: WhisperEncoding, states: [WhisperDecoderState], sequences: [[Int]],
                     allPositions: Bool = true) -> WhisperFeedResult {
        precondition(states.count == sequences.count, "\(states.count) hypotheses but \(sequences.count) sequences")
        precondition(sequences.allSatisfy { !$0.isEmpty }, "every sequence needs at least one token")
        precondition(sequences.joined().allSatisfy { (0..<dimensions.vocabularySize).contains($0) }, "a token is outside the vocabulary")
        precondition(zip(states, sequences).allSatisfy { $0.length + $1.count <= dimensions.textContextLength },
                     "a hypothesis would pass the decoder's \(dimensions.textContextLength) positions")
        let width = dimensions.modelWidth
        let layerCount = dimensions.decoderLayerCount
        // One row per fed token: its position, token, new cache entry and the entries it attends to.
        var positions: [Int] = [], tokens: [Int] = [], newEntries: [KeyValueEntry] = [], histories: [[KeyValueEntry]] = []
        var finalStates: [WhisperDecoderState] = [], rowOffsets: [Int] = [], outputRows: [Int] = []
        for (state, sequence) in zip(states, sequences) {
            rowOffsets.append(allPositions ? tokens.count : rowOffsets.count)
            var history = state.entries()
            var newest = state.newest
            for (index, token) in sequence.enumerated() {
                let entry = KeyValueEntry(parent: newest, layerCount: layerCount, width: width)
                history.append(entry)
                if allPositions || index == sequence.count - 1 { outputRows.append(tokens.count) }
                positions.append(state.length + index)
                tokens.append(token)
                newEntries.append(entry)
                histories.append(history)
                newest = entry
            }
            finalStates.append(WhisperDecoderState(length: state.length + sequence.count, newest: newest))
        }
        let rowCount = tokens.count
        guard rowCount > 0 else {
            return WhisperFeedResult(states: [], logProbabilities: Matrix(zeros: 0, columns: dimensions.vocabularySize), rowOffsets: [])
        }
        // Token embedding + learned position.
        var x = Matrix(zeros: rowCount, columns: width)
        x.values.withUnsafeMutableBufferPointer { out in
            decoderPositions.values.withUnsafeBufferPointer { position in
                for row in 0..<rowCount {
                    let target = out.baseAddress! + row * width
                    embeddings.row(tokens[row], into: target)
                    let place = position.baseAddress! + positions[row] * width
                    for column in 0..<width { target[column] += place[column] }
                }
            }
        }
        for (layerIndex, layer) in decoderLayers.enumerated() {
            let attended = cachedSelfAttention(x, layer.selfAttention, layer: layerIndex, histories: histories, newEntries: newEntries)
            x += attended
            let crossAttended = crossAttention(x, layer.crossAttention, keysAndValues: encoding.crossKeysAndValues[layerIndex])
            x += crossAttended
            let transformed = feedForward(x, layer.feedForward)
            x += transformed
        }
        let outputs = outputRows.count == rowCount ? x : x.selectingRows(outputRows)
        var logProbabilities = embeddings.product(decoderNorm(outputs))
        logProbabilities.applyLogSoftmaxToRows()
        return WhisperFeedResult(states: finalStates, logProbabilities: logProbabilities, rowOffsets: rowOffsets)
    }

    /// Feeds tokens to one hypothesis (e.g. the start sequence) in one pass and returns the step after the last.
    public func feed(_ encoding: WhisperEncoding, state: WhisperDecoderState = .empty, tokens: [Int]) -> WhisperDecoderStep {
        feed(encoding, states: [state], sequences: [tokens], allPositions: false).lastStep
    }

    /// Greedy free decoding: after `prefix`, the most probable token each step until `<|endoftext|>` or
    /// `maximumTokenCount` tokens. Returns the text tokens (neither the prefix nor `<|endoftext|>`).
    public func greedyTokens(_ encoding: WhisperEncoding, prefix: [Int] = WhisperTokens.startSequence,
                             maximumTokenCount: Int = 64) -> [Int] {
        var decode = GreedyFreeDecode(after: feed(encoding, tokens: prefix), maximumTokenCount: maximumTokenCount,
                                      contextLength: dimensions.textContextLength)
        decode.finish(with: self, encoding)
        return decode.tokens
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

/// Greedy free decoding taken one step at a time, so that a caller can feed its next token in a batch of other
/// hypotheses (say, a walk of today's candidates) instead of in a decoder step of its own: `pending` is the token to
/// feed and the hypothesis to feed it to, `advance` takes the distribution that followed.
///
/// Thread rule: a value; use it on one thread.
public struct GreedyFreeDecode: Sendable {
    /// The text tokens chosen so far (no prefix, no `<|endoftext|>`).
    public private(set) var tokens: [Int] = []
    /// The token chosen last and the hypothesis before it; nil once the decode has finished.
    public private(set) var pending: (state: WhisperDecoderState, token: Int)?
    private let maximumTokenCount: Int
    private let contextLength: Int

    /// Starts from the step after the prefix (its row `row`): chooses the first token.
    public init(after step: WhisperDecoderStep, row: Int = 0, maximumTokenCount: Int, contextLength: Int) {
        self.maximumTokenCount = maximumTokenCount
        self.contextLength = contextLength
        choose(after: step.states[row], step, row: row)
    }

    /// True once `<|endoftext|>` came, or the token limit or the decoder's context was reached.
    public var isFinished: Bool { pending == nil }

    /// Takes the step that fed `pending` (its row `row`) and chooses the next token.
    public mutating func advance(with step: WhisperDecoderStep, row: Int = 0) {
        precondition(pending != nil, "the free decode has finished")
        choose(after: step.states[row], step, row: row)
    }

    /// Feeds `pending` in a decoder step of its own and chooses the next token; nothing once finished.
    public mutating func stepAlone(with model: WhisperModel, _ encoding: WhisperEncoding) {
        guard let pending else { return }
        advance(with: model.step(encoding, states: [pending.state], tokens: [pending.token]))
    }

    /// Feeds the remaining tokens one decoder step each, until the decode finishes.
    public mutating func finish(with model: WhisperModel, _ encoding: WhisperEncoding) {
        while !isFinished { stepAlone(with: model, encoding) }
    }

    private mutating func choose(after state: WhisperDecoderState, _ step: WhisperDecoderStep, row: Int) {
        pending = nil
        guard tokens.count < maximumTokenCount, state.length < contextLength else { return }
        let distribution = step.logProbabilities.row(row)
        let best = distribution.indices.max { distribution[$0] < distribution[$1] }! - distribution.startIndex
        guard best != WhisperTokens.endOfText else { return }
        tokens.append(best)
        // The last token a limit allows is not fed: nothing would be chosen after it.
        if tokens.count < maximumTokenCount, state.length + 1 < contextLength { pending = (state, best) }
    }
}

extension Matrix {
    /// The given rows, in order.
    func selectingRows(_ indices: [Int]) -> Matrix {
        var values: [Float] = []
        values.reserveCapacity(indices.count * columns)
        for index in indices { values += row(index) }
        return Matrix(rows: indices.count, columns: columns, values: values)
    }

    /// Replaces each row x by x − log Σ exp(x).
    mutating func applyLogSoftmaxToRows() {
        let columns = columns
        values.withUnsafeMutableBufferPointer { v in
            for row in 0..<rows { flightvoice_log_softmax(v.baseAddress! + row * columns, columns) }
        }
    }
}
