import CVectorMath

/// A weight matrix quantised to 12 bits per value, one scale per row, for products x · Wᵀ summed exactly in integers
/// (`flightvoice_multiply_quantized`): the output projection, two thirds of a decoder step in half floats.
///
/// Thread rule: immutable after init; share it freely.
final class QuantizedMatrix: @unchecked Sendable {
    let rows: Int
    let width: Int
    private let panels: UnsafeMutablePointer<Int16>
    private let scales: [Float]

    /// Quantises every row of `matrix`.
    init(quantizing matrix: PackedMatrix) {
        rows = matrix.rows
        width = matrix.width
        let size = flightvoice_quantized_size(rows, width)
        panels = .allocate(capacity: size)
        panels.initialize(repeating: 0, count: size)
        var scales = [Float](repeating: 0, count: rows)
        let row = UnsafeMutablePointer<Float>.allocate(capacity: width)
        defer { row.deallocate() }
        for index in 0..<rows {
            matrix.row(index, into: row)
            flightvoice_quantize_row(row, width, index, panels, &scales[index])
        }
        self.scales = scales
    }

    deinit { panels.deallocate() }

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
