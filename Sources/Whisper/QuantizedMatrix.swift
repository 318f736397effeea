import CVectorMath

/// A weight matrix quantised to 12 bits per value, one scale per row, for products x · Wᵀ summed exactly in integers
/// (`flightvoice_multiply_quantized`) and for looking up its rows: the token embeddings, which are both the decoder's
/// inputs and its output projection (two thirds of a decoder step in half floats). One copy serves both: a half-float
/// copy beside it would add 40 MB to every worker.
///
/// Thread rule: immutable after init; share it freely.
final class QuantizedMatrix: @unchecked Sendable {
    let rows: Int
    let width: Int
    private let panels: UnsafeMutablePointer<Int16>
    private let scales: [Float]

    /// Quantises a `rows` × `width` matrix of half floats (bit patterns), asking `read` for a block of rows (row-major)
    /// at a time: the whole matrix is never held in another form.
    init<Failure: Error>(rows: Int, width: Int, readingRows read: (Range<Int>) throws(Failure) -> [UInt16]) throws(Failure) {
        self.rows = rows
        self.width = width
        let size = flightvoice_quantized_size(rows, width)
        let panels = UnsafeMutablePointer<Int16>.allocate(capacity: size)
        panels.initialize(repeating: 0, count: size)
        var scales = [Float](repeating: 0, count: rows)
        var row = [Float](repeating: 0, count: width)
        do {
            try HalfFloatRows.forEachBlock(rows: rows, width: width, blockRows: 256, read: read) { first, count, block in
                for index in 0..<count {
                    flightvoice_halves_to_floats(block.baseAddress! + index * width, width, &row)
                    flightvoice_quantize_row(row, width, first + index, panels, &scales[first + index])
                }
            }
        } catch {
            panels.deallocate()
            throw error
        }
        self.panels = panels
        self.scales = scales
    }

    /// Quantises `values` (row-major `rows` × `width`), each first rounded to the nearest half float as a model file holds it.
    convenience init(quantizing values: [Float], rows: Int, width: Int) {
        self.init(rows: rows, width: width, readingRows: HalfFloatRows.rounding(values, rows: rows, width: width))
    }

    deinit { panels.deallocate() }

    /// Row `index` of W as quantised (scale · q), `width` floats, into `row`.
    func row(_ index: Int, into row: UnsafeMutablePointer<Float>) {
        scales.withUnsafeBufferPointer { flightvoice_dequantize_row(panels, $0.baseAddress!, width, index, row) }
    }

    /// x · Wᵀ (x.rows × rows), split by panels over threads (`PanelSplit`).
    func product(_ x: Matrix) -> Matrix {
        precondition(x.columns == width, "rows of \(x.columns), not \(width)")
        var result = Matrix(zeros: x.rows, columns: rows)
        x.values.withUnsafeBufferPointer { input in
            result.values.withUnsafeMutableBufferPointer { output in
                scales.withUnsafeBufferPointer { scales in
                    PanelSplit.run(rows: rows, multiplyAdds: x.rows * rows * width) { firstPanel, endPanel in
                        flightvoice_multiply_quantized(panels, scales.baseAddress!, rows, width, input.baseAddress!, x.rows,
                                                       output.baseAddress!, firstPanel, endPanel)
                    }
                }
            }
        }
        return result
    }
}
