import CVectorMath

/// Whisper's token embeddings (vocabulary × width), which are also its output projection, held once as the panels
/// the projection kernel reads (`flightvoice_multiply_packed`): a BLAS copied (packed) all 80 MB of them on every
/// decoder step, which cost more than the products for a step's few rows.
///
/// Thread rule: immutable after init; share it freely.
final class OutputProjection: @unchecked Sendable {
    let vocabularySize: Int
    let width: Int
    private let panels: UnsafeMutablePointer<Float>

    /// Packs `embeddings`, row-major `vocabularySize` × `width`.
    init(packing embeddings: [Float], vocabularySize: Int, width: Int) {
        precondition(embeddings.count == vocabularySize * width, "\(embeddings.count) floats for \(vocabularySize) × \(width)")
        self.vocabularySize = vocabularySize
        self.width = width
        let size = flightvoice_packed_size(vocabularySize, width)
        panels = .allocate(capacity: size)
        embeddings.withUnsafeBufferPointer { flightvoice_pack_panels($0.baseAddress!, vocabularySize, width, panels) }
    }

    deinit { panels.deallocate() }

    /// Token `token`'s embedding, `width` floats, into `row`.
    func embedding(of token: Int, into row: UnsafeMutablePointer<Float>) {
        flightvoice_unpack_row(panels, width, token, row)
    }

    /// x · embeddingsᵀ: each row's logit of every token (x.rows × vocabularySize).
    func logits(_ x: Matrix) -> Matrix {
        precondition(x.columns == width, "rows of \(x.columns), not \(width)")
        var result = Matrix(zeros: x.rows, columns: vocabularySize)
        x.values.withUnsafeBufferPointer { input in
            result.values.withUnsafeMutableBufferPointer { output in
                flightvoice_multiply_packed(panels, vocabularySize, width, input.baseAddress!, x.rows, output.baseAddress!)
            }
        }
        return result
    }
}
