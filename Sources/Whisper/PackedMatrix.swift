import CVectorMath
import Dispatch

/// A weight matrix W (rows × width, row-major as the model stores it) held once as the 16-row panels of half floats
/// that the product kernel reads (`flightvoice_multiply_packed`): x · Wᵀ for the output projection (the token
/// embeddings) and every linear layer. A BLAS copied (packed) W on every call, which cost more than the products
/// for a decoder step's few rows; half floats are the model file's own values, at half the memory of floats.
///
/// Thread rule: immutable after init; share it freely.
final class PackedMatrix: @unchecked Sendable {
    let rows: Int
    let width: Int
    private let panels: UnsafeMutablePointer<UInt16>

    /// Packs a `rows` × `width` matrix of half floats (bit patterns), asking `read` for one panel's rows (row-major) at
    /// a time: the whole matrix is never held twice.
    init<Failure: Error>(rows: Int, width: Int, readingRows read: (Range<Int>) throws(Failure) -> [UInt16]) throws(Failure) {
        self.rows = rows
        self.width = width
        panels = .allocate(capacity: flightvoice_packed_size(rows, width))
        let panelRows = Int(flightvoice_panel_rows)
        do {
            for first in stride(from: 0, to: rows, by: panelRows) {
                let count = min(panelRows, rows - first)
                let block = try read(first..<(first + count))
                precondition(block.count == count * width, "\(block.count) values for \(count) rows of \(width)")
                block.withUnsafeBufferPointer { flightvoice_pack_panels($0.baseAddress!, count, width, panels + first * width) }
            }
        } catch {
            panels.deallocate()
            throw error
        }
    }

    /// Packs `values` (row-major `rows` × `width`), each rounded to the nearest half float.
    convenience init(packing values: [Float], rows: Int, width: Int) {
        precondition(values.count == rows * width, "\(values.count) floats for \(rows) × \(width)")
        self.init(rows: rows, width: width) { (block: Range<Int>) -> [UInt16] in
            values[(block.lowerBound * width)..<(block.upperBound * width)].map { Float16($0).bitPattern }
        }
    }

    deinit { panels.deallocate() }

    /// Row `index` of W, `width` floats, into `row`.
    func row(_ index: Int, into row: UnsafeMutablePointer<Float>) {
        flightvoice_unpack_row(panels, width, index, row)
    }

    /// x · Wᵀ (x.rows × rows), plus `bias` on every row when given. A product of at least `parallelWork`
    /// multiply-adds is split by panels over `BLAS.threadCount` threads; the result is the same either way.
    func product(_ x: Matrix, adding bias: [Float]? = nil) -> Matrix {
        precondition(x.columns == width, "rows of \(x.columns), not \(width)")
        var result = Matrix(zeros: x.rows, columns: rows)
        let panelCount = flightvoice_panel_count(rows)
        let threads = x.rows * rows * width >= Self.parallelWork ? min(BLAS.threadCount, panelCount) : 1
        x.values.withUnsafeBufferPointer { input in
            result.values.withUnsafeMutableBufferPointer { output in
                let product = PanelProduct(panels: panels, rows: rows, width: width, panelCount: panelCount,
                                           input: input.baseAddress!, count: x.rows, output: output.baseAddress!)
                if threads == 1 {
                    product.compute(part: 0, of: 1)
                } else {
                    DispatchQueue.concurrentPerform(iterations: threads) { product.compute(part: $0, of: threads) }
                }
            }
        }
        if let bias {
            precondition(bias.count == rows, "\(bias.count) biases for \(rows) outputs")
            result.values.withUnsafeMutableBufferPointer { values in
                for row in 0..<x.rows {
                    let target = values.baseAddress! + row * rows
                    for column in 0..<rows { target[column] += bias[column] }
                }
            }
        }
        return result
    }

    /// About a tenth of a millisecond of products: below it, waking a second thread costs more than it saves.
    static let parallelWork = 4_000_000
}

/// One product, for the threads that share it: each writes only the columns of its own panels.
private struct PanelProduct: @unchecked Sendable {
    let panels: UnsafePointer<UInt16>
    let rows: Int, width: Int, panelCount: Int
    let input: UnsafePointer<Float>
    let count: Int
    let output: UnsafeMutablePointer<Float>

    func compute(part: Int, of parts: Int) {
        flightvoice_multiply_packed(panels, rows, width, input, count, output, panelCount * part / parts, panelCount * (part + 1) / parts)
    }
}
