import CVectorMath
import Dispatch

/// A weight matrix W (rows × width, row-major as the model stores it) held once as the 16-row panels of half floats
/// that the product kernel reads (`flightvoice_multiply_packed`): x · Wᵀ for every linear layer. A BLAS copied
/// (packed) W on every call, which cost more than the products for a decoder step's few rows; half floats are the
/// model file's own values, at half the memory of floats.
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
        do {
            try HalfFloatRows.forEachBlock(rows: rows, width: width, blockRows: Int(flightvoice_panel_rows), read: read) { first, count, block in
                flightvoice_pack_panels(block.baseAddress!, count, width, panels + first * width)
            }
        } catch {
            panels.deallocate()
            throw error
        }
    }

    /// Packs `values` (row-major `rows` × `width`), each rounded to the nearest half float.
    convenience init(packing values: [Float], rows: Int, width: Int) {
        self.init(rows: rows, width: width, readingRows: HalfFloatRows.rounding(values, rows: rows, width: width))
    }

    deinit { panels.deallocate() }

    /// x · Wᵀ (x.rows × rows), plus `bias` on every row when given, split by panels over threads (`PanelSplit`).
    func product(_ x: Matrix, adding bias: [Float]? = nil) -> Matrix {
        precondition(x.columns == width, "rows of \(x.columns), not \(width)")
        var result = Matrix(zeros: x.rows, columns: rows)
        x.values.withUnsafeBufferPointer { input in
            result.values.withUnsafeMutableBufferPointer { output in
                PanelSplit.run(rows: rows, multiplyAdds: x.rows * rows * width) { firstPanel, endPanel in
                    flightvoice_multiply_packed(panels, rows, width, input.baseAddress!, x.rows, output.baseAddress!, firstPanel, endPanel)
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
}

/// A matrix of half floats (bit patterns) read a block of rows at a time, as a model file is read: what `PackedMatrix`
/// and `QuantizedMatrix` are built from.
enum HalfFloatRows {
    /// Asks `read` for `rows` × `width` values `blockRows` rows at a time (the last block may be shorter) and hands each
    /// block, row-major, to `body` with its first row and its row count.
    static func forEachBlock<Failure: Error>(rows: Int, width: Int, blockRows: Int, read: (Range<Int>) throws(Failure) -> [UInt16],
                                             _ body: (_ first: Int, _ count: Int, _ block: UnsafeBufferPointer<UInt16>) -> Void) throws(Failure) {
        for first in stride(from: 0, to: rows, by: blockRows) {
            let count = min(blockRows, rows - first)
            let block = try read(first..<(first + count))
            precondition(block.count == count * width, "\(block.count) values for \(count) rows of \(width)")
            block.withUnsafeBufferPointer { body(first, count, $0) }
        }
    }

    /// A `read` for `forEachBlock` over `values` (row-major `rows` × `width`), each rounded to the nearest half float.
    static func rounding(_ values: [Float], rows: Int, width: Int) -> (Range<Int>) -> [UInt16] {
        precondition(values.count == rows * width, "\(values.count) floats for \(rows) × \(width)")
        return { block in values[(block.lowerBound * width)..<(block.upperBound * width)].map { Float16($0).bitPattern } }
    }
}

/// A product computed panel by panel, split by panels over `BLAS.threadCount` threads when it is at least
/// `parallelWork` multiply-adds; each thread writes only the columns of its own panels, so the result is the same
/// either way.
enum PanelSplit {
    /// About a tenth of a millisecond of products: below it, waking a second thread costs more than it saves.
    static let parallelWork = 4_000_000

    /// Calls `compute(firstPanel, endPanel)` over the panels of a `rows`-row matrix, in parts.
    static func run(rows: Int, multiplyAdds: Int, _ compute: (Int, Int) -> Void) {
        let panelCount = flightvoice_panel_count(rows)
        let threads = multiplyAdds >= parallelWork ? min(BLAS.threadCount, panelCount) : 1
        guard threads > 1 else { return compute(0, panelCount) }
        withoutActuallyEscaping(compute) { compute in
            let parts = Parts(compute: compute)
            DispatchQueue.concurrentPerform(iterations: threads) { part in
                parts.compute(panelCount * part / threads, panelCount * (part + 1) / threads)
            }
        }
    }

    /// The work the threads share: each part touches only its own panels' columns.
    private struct Parts: @unchecked Sendable {
        let compute: (Int, Int) -> Void
    }
}
