import Foundation

/// One utterance's encoder output, with each decoder layer's cross-attention keys and values computed once from it.
///
/// Thread rule: an immutable value; any number of decoder steps, on any threads, may read it at once.
public struct WhisperEncoding: Sendable {
    /// Encoder positions (half the spectrogram's frames: 20 ms each).
    public var positionCount: Int { output.rows }
    /// The encoder's output after its final layer norm (positions × model width).
    public let output: Matrix
    /// Per decoder layer, the encoder output projected to keys and values side by side (positions × 2·width:
    /// keys in the first `width` columns, values in the rest).
    let crossKeysAndValues: [Matrix]
}

extension WhisperModel {
    /// Runs the encoder over a spectrogram of any even number of frames up to the full 30 s window (3000): the
    /// positional table's first `frameCount / 2` rows are used. Then projects the output to every decoder layer's
    /// cross-attention keys and values, once.
    public func encode(_ spectrogram: LogMelSpectrogram) -> WhisperEncoding {
        let output = encoderOutput(spectrogram)
        return WhisperEncoding(output: output, crossKeysAndValues: crossKeysAndValues(of: output))
    }

    /// `encoding`'s encoder output with this model's own cross-attention keys and values: the encoding of the same
    /// audio for a model that shares the encoder of the one that made it (`adapted(by:)`), without running it again.
    public func reusingEncoder(of encoding: WhisperEncoding) -> WhisperEncoding {
        WhisperEncoding(output: encoding.output, crossKeysAndValues: crossKeysAndValues(of: encoding.output))
    }

    private func crossKeysAndValues(of output: Matrix) -> [Matrix] {
        decoderLayers.map { $0.crossAttention.keyValue(output) }
    }

    /// conv1 + GELU, conv2 (stride 2) + GELU, + positions, the pre-norm transformer layers, the final layer norm.
    func encoderOutput(_ spectrogram: LogMelSpectrogram) -> Matrix {
        let frames = spectrogram.frameCount
        let width = dimensions.modelWidth
        let bands = dimensions.melBandCount
        let kernel = Self.convolutionKernel
        precondition(frames % 2 == 0 && frames / 2 <= dimensions.audioContextLength,
                     "the encoder takes an even number of frames up to \(2 * dimensions.audioContextLength), not \(frames)")
        // conv1 (stride 1, one frame of zero padding each side) as one GEMM over (band, tap) columns.
        var columns1 = Matrix(zeros: frames, columns: bands * kernel)
        spectrogram.values.withUnsafeBufferPointer { mel in
            columns1.values.withUnsafeMutableBufferPointer { c in
                for t in 0..<frames {
                    for band in 0..<bands {
                        for tap in 0..<kernel {
                            let source = t + tap - 1
                            if source >= 0 && source < frames { c[t * bands * kernel + band * kernel + tap] = mel[band * frames + source] }
                        }
                    }
                }
            }
        }
        var hidden1 = convolution1(columns1)
        hidden1.applyGELU()
        // conv2 (stride 2, one frame of zero padding each side).
        let positions = frames / 2
        var columns2 = Matrix(zeros: positions, columns: width * kernel)
        hidden1.values.withUnsafeBufferPointer { h in
            columns2.values.withUnsafeMutableBufferPointer { c in
                for t in 0..<positions {
                    for tap in 0..<kernel {
                        let source = 2 * t + tap - 1
                        guard source >= 0 && source < frames else { continue }
                        let row = c.baseAddress! + t * width * kernel
                        for channel in 0..<width { row[channel * kernel + tap] = h[source * width + channel] }
                    }
                }
            }
        }
        var x = convolution2(columns2)
        x.applyGELU()
        x += encoderPositions.prefix(rows: positions)
        for layer in encoderLayers {
            let attended = selfAttention(layer.attention.norm(x), layer.attention)
            x += attended
            let transformed = feedForward(x, layer.feedForward)
            x += transformed
        }
        return encoderNorm(x)
    }

    /// Full (unmasked) multi-head self-attention of the encoder: per head one GEMM for the scores and one for the mix.
    func selfAttention(_ x: Matrix, _ weights: AttentionWeights) -> Matrix {
        let width = dimensions.modelWidth
        let queryKeyValue = weights.queryKeyValue(x)
        var mixed = Matrix(zeros: x.rows, columns: width)
        queryKeyValue.values.withUnsafeBufferPointer { qkv in
            mixed.values.withUnsafeMutableBufferPointer { out in
                let base = qkv.baseAddress!
                attend(queries: base, queryStride: 3 * width, queryCount: x.rows,
                       keys: base + width, values: base + 2 * width, keyValueStride: 3 * width, keyCount: x.rows,
                       into: out.baseAddress!)
            }
        }
        return weights.output(mixed)
    }

    /// Scaled dot-product attention for every head: softmax(Q_h K_hᵀ / √d) V_h written to `output` (queryCount ×
    /// width). Queries, keys and values are sub-matrices of wider rows (their strides).
    func attend(queries: UnsafePointer<Float>, queryStride: Int, queryCount: Int,
                keys: UnsafePointer<Float>, values: UnsafePointer<Float>, keyValueStride: Int, keyCount: Int,
                into output: UnsafeMutablePointer<Float>) {
        let width = dimensions.modelWidth
        let headWidth = dimensions.headWidth
        let scale = 1 / Float(headWidth).squareRoot()
        let scores = UnsafeMutablePointer<Float>.allocate(capacity: queryCount * keyCount)
        defer { scores.deallocate() }
        for head in 0..<dimensions.headCount {
            let offset = head * headWidth
            BLAS.multiply(rows: queryCount, columns: keyCount, inner: headWidth, alpha: scale,
                          a: queries + offset, aStride: queryStride, b: keys + offset, bStride: keyValueStride, transposeB: true,
                          c: scores, cStride: keyCount)
            for row in 0..<queryCount { softmax(scores + row * keyCount, count: keyCount) }
            BLAS.multiply(rows: queryCount, columns: headWidth, inner: keyCount,
                          a: scores, aStride: keyCount, b: values + offset, bStride: keyValueStride, transposeB: false,
                          c: output + offset, cStride: width)
        }
    }

    /// The position-wise feed-forward block on the layer-normalised input: contract(GELU(expand(norm(x)))).
    func feedForward(_ x: Matrix, _ weights: FeedForwardWeights) -> Matrix {
        var hidden = weights.expand(weights.norm(x))
        hidden.applyGELU()
        return weights.contract(hidden)
    }
}
