import CVectorMath
import COpenBLAS
import Foundation
import Synchronization

/// A dense matrix of `Float` in row-major order: row `r` is `values[r * columns ..< (r + 1) * columns]`.
///
/// Thread rule: a value type; share and copy freely.
public struct Matrix: Sendable, Equatable {
    /// Number of rows.
    public let rows: Int
    /// Number of columns.
    public let columns: Int
    /// The elements, row after row.
    public internal(set) var values: [Float]

    /// A matrix over the given elements (row-major; `values.count` must be `rows * columns`).
    public init(rows: Int, columns: Int, values: [Float]) {
        precondition(values.count == rows * columns, "a \(rows)×\(columns) matrix needs \(rows * columns) values, not \(values.count)")
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// A matrix of zeros.
    public init(zeros rows: Int, columns: Int) {
        self.init(rows: rows, columns: columns, values: [Float](repeating: 0, count: rows * columns))
    }

    /// The element at (`row`, `column`).
    public subscript(row: Int, column: Int) -> Float {
        get { values[row * columns + column] }
        set { values[row * columns + column] = newValue }
    }

    /// One row's elements.
    public func row(_ row: Int) -> ArraySlice<Float> {
        values[row * columns..<(row + 1) * columns]
    }

    /// The first `count` rows.
    func prefix(rows count: Int) -> Matrix {
        Matrix(rows: count, columns: columns, values: Array(values[0..<count * columns]))
    }

    /// Adds `other` element by element (a residual connection).
    static func += (left: inout Matrix, right: Matrix) {
        precondition(left.rows == right.rows && left.columns == right.columns)
        let count = left.values.count
        left.values.withUnsafeMutableBufferPointer { l in
            right.values.withUnsafeBufferPointer { r in
                for i in 0..<count { l[i] += r[i] }
            }
        }
    }

    /// GELU, the exact form: x · Φ(x) = ½ x (1 + erf(x / √2)), element by element (`flightvoice_gelu`).
    mutating func applyGELU() {
        let count = values.count
        values.withUnsafeMutableBufferPointer { flightvoice_gelu($0.baseAddress!, count) }
    }

    /// Replaces each row by its softmax.
    mutating func applySoftmaxToRows() {
        let columns = columns
        values.withUnsafeMutableBufferPointer { v in
            for row in 0..<rows { softmax(v.baseAddress! + row * columns, count: columns) }
        }
    }
}

/// In-place softmax of `count` floats.
@inline(__always)
func softmax(_ x: UnsafeMutablePointer<Float>, count: Int) {
    var maximum = -Float.infinity
    for i in 0..<count where x[i] > maximum { maximum = x[i] }
    var sum: Float = 0
    for i in 0..<count {
        let e = expf(x[i] - maximum)
        x[i] = e
        sum += e
    }
    let inverse = 1 / sum
    for i in 0..<count { x[i] *= inverse }
}

/// A fully connected layer, y = x · Wᵀ + b, with W (outputs × inputs) as CTranslate2 and PyTorch store it.
struct Linear: Sendable {
    /// (outputs × inputs).
    let weight: PackedMatrix
    /// One per output.
    let bias: [Float]
    /// A fine-tuned change to `weight`, added at run time (`WhisperModel.adapted(by:)`); nil for the model file's own.
    var update: LowRankUpdate? = nil

    var outputCount: Int { weight.rows }

    /// x (n × inputs) → n × outputs.
    func callAsFunction(_ x: Matrix) -> Matrix {
        var result = weight.product(x, adding: bias)
        update?.add(x, to: &result)
        return result
    }
}

/// A change to a weight of the form up · down, of a few columns and rows: a fine-tuned layer's change cut to its
/// largest directions (an SVD). Added to the product at run time, so an adapted model shares the base weights.
///
/// Thread rule: an immutable value; share it freely.
struct LowRankUpdate: Sendable {
    /// rank × inputs.
    let down: Matrix
    /// outputs × rank.
    let up: Matrix

    /// result (n × outputs) += x (n × inputs) · downᵀ · upᵀ.
    func add(_ x: Matrix, to result: inout Matrix) {
        precondition(x.columns == down.columns && result.columns == up.rows && result.rows == x.rows && down.rows == up.columns)
        guard x.rows > 0 else { return }
        let rank = down.rows
        var projected = Matrix(zeros: x.rows, columns: rank)
        x.values.withUnsafeBufferPointer { input in
            down.values.withUnsafeBufferPointer { d in
                projected.values.withUnsafeMutableBufferPointer { p in
                    BLAS.multiply(rows: x.rows, columns: rank, inner: x.columns, a: input.baseAddress!, aStride: x.columns,
                                  b: d.baseAddress!, bStride: down.columns, transposeB: true, c: p.baseAddress!, cStride: rank)
                }
            }
        }
        let outputs = result.columns
        projected.values.withUnsafeBufferPointer { p in
            up.values.withUnsafeBufferPointer { u in
                result.values.withUnsafeMutableBufferPointer { r in
                    BLAS.multiply(rows: x.rows, columns: outputs, inner: rank, a: p.baseAddress!, aStride: rank,
                                  b: u.baseAddress!, bStride: rank, transposeB: true, c: r.baseAddress!, cStride: outputs, accumulate: true)
                }
            }
        }
    }
}

/// Layer normalization over each row: (x − mean) / √(variance + ε) · γ + β.
struct LayerNorm: Sendable {
    /// CTranslate2's (and PyTorch's) default ε.
    static let epsilon: Float = 1e-5

    let gamma: [Float]
    let beta: [Float]

    func callAsFunction(_ x: Matrix) -> Matrix {
        precondition(x.columns == gamma.count)
        var result = x
        let columns = x.columns
        result.values.withUnsafeMutableBufferPointer { v in
            gamma.withUnsafeBufferPointer { g in
                beta.withUnsafeBufferPointer { b in
                    for row in 0..<x.rows {
                        let r = v.baseAddress! + row * columns
                        var mean: Float = 0
                        for i in 0..<columns { mean += r[i] }
                        mean /= Float(columns)
                        var variance: Float = 0
                        for i in 0..<columns {
                            let d = r[i] - mean
                            variance += d * d
                        }
                        variance /= Float(columns)
                        let scale = 1 / (variance + Self.epsilon).squareRoot()
                        for i in 0..<columns { r[i] = (r[i] - mean) * scale * g[i] + b[i] }
                    }
                }
            }
        }
        return result
    }
}

/// The BLAS calls, and the process's thread count for matrix products.
///
/// Thread rule: the products may run on any number of threads at once; the thread count and the kernels
/// (`coreName`) are one setting for the whole process, made once before workers start.
public enum BLAS {
    /// Sets the threads a product may use, for the whole process (`PackedMatrix.product`). Workers are the
    /// parallelism, so one thread each is the default (`WhisperModel` sets it when loaded); two workers with two
    /// threads each oversubscribe two cores. OpenBLAS keeps one thread: only the attention's small products are left
    /// to it, and its idle threads spin after each call, on the core the packed products' second thread needs.
    public static func setThreadCount(_ count: Int) {
        _ = coreName
        openblas_set_num_threads(1)
        threads.store(max(1, count), ordering: .relaxed)
    }

    /// The threads a `PackedMatrix` product may use (`setThreadCount`).
    static var threadCount: Int { threads.load(ordering: .relaxed) }
    private static let threads = Atomic<Int>(1)

    /// C (rows × columns) = A (rows × inner) · B (inner × columns), or · Bᵀ when `transposeB` (B stored columns × inner);
    /// with `accumulate`, C += instead of C =. Strides are row strides in elements (sub-matrices of wider rows allowed).
    @inline(__always)
    static func multiply(rows: Int, columns: Int, inner: Int, alpha: Float = 1,
                         a: UnsafePointer<Float>, aStride: Int,
                         b: UnsafePointer<Float>, bStride: Int, transposeB: Bool,
                         c: UnsafeMutablePointer<Float>, cStride: Int, accumulate: Bool = false) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
                    Int32(rows), Int32(columns), Int32(inner), alpha,
                    a, Int32(aStride), b, Int32(bStride), accumulate ? 1 : 0, c, Int32(cStride))
    }
}
