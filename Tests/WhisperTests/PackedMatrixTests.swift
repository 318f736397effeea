import CVectorMath
import Testing
@testable import Whisper

@Suite("Products with weights packed as half-float panels")
struct PackedMatrixTests {
    /// Row counts that are no multiple of the panel width, like Whisper's 51,864 = 16 · 3,241 + 8: an odd and an even
    /// number of panels.
    static let rowCounts = [100, 120], rowCount = 100, width = 24

    /// Random values that are half floats, so that packing keeps them exactly.
    static func randomHalves(_ rows: Int, _ columns: Int) -> [Float] {
        var generator = SystemRandomNumberGenerator()
        return (0..<rows * columns).map { _ in Float(Float16(Float.random(in: -1...1, using: &generator))) }
    }

    static func product(_ x: [Float], rows: Int, _ weights: [Float], rowCount: Int = rowCount) -> [Float] {
        var result = [Float](repeating: 0, count: rows * rowCount)
        for row in 0..<rows {
            for output in 0..<rowCount {
                var sum: Float = 0
                for k in 0..<width { sum += x[row * width + k] * weights[output * width + k] }
                result[row * rowCount + output] = sum
            }
        }
        return result
    }

    static func packed(_ weights: [Float], rows: Int) -> [UInt16] {
        var packed = [UInt16](repeating: 0xFFFF, count: flightvoice_packed_size(rows, width))
        flightvoice_pack_panels(weights.map { Float16($0).bitPattern }, rows, width, &packed)
        return packed
    }

    @Test("every kernel the CPU has gives the plain product, for row counts around its groups",
          arguments: [flightvoice_packed_plain, flightvoice_packed_avx2, flightvoice_packed_avx512], [1, 3, 4, 5, 8, 9, 17])
    func kernelsAgree(kernel: flightvoice_packed_kernel, rows: Int) {
        for rowCount in Self.rowCounts {
            let weights = Self.randomHalves(rowCount, Self.width)
            let x = Self.randomHalves(rows, Self.width).map { $0 * 3 }
            let packed = Self.packed(weights, rows: rowCount)
            var out = [Float](repeating: .nan, count: rows * rowCount)
            let panels = flightvoice_panel_count(rowCount)
            guard flightvoice_multiply_packed_with(kernel, packed, rowCount, Self.width, x, rows, &out, 0, panels) == 1 else { return }
            let expected = Self.product(x, rows: rows, weights, rowCount: rowCount)
            #expect(zip(out, expected).allSatisfy { abs($0 - $1) < 1e-4 }, "kernel \(kernel.rawValue), \(rows) rows, \(rowCount) outputs")
        }
    }

    @Test("a product split by panels, one part at a time, is the whole product to the bit, and writes only its part")
    func splitByPanels() {
        let weights = Self.randomHalves(Self.rowCount, Self.width), x = Self.randomHalves(9, Self.width)
        let packed = Self.packed(weights, rows: Self.rowCount)
        let panels = flightvoice_panel_count(Self.rowCount)
        var whole = [Float](repeating: .nan, count: 9 * Self.rowCount)
        flightvoice_multiply_packed(packed, Self.rowCount, Self.width, x, 9, &whole, 0, panels)
        var parts = [Float](repeating: .nan, count: 9 * Self.rowCount)
        flightvoice_multiply_packed(packed, Self.rowCount, Self.width, x, 9, &parts, 0, 3)
        #expect(parts[48..<Self.rowCount].allSatisfy { $0.isNaN }, "panels 3 on not written yet")
        flightvoice_multiply_packed(packed, Self.rowCount, Self.width, x, 9, &parts, 3, panels)
        #expect(parts == whole)
    }

    @Test("half floats widen exactly, subnormals, infinities and signs included")
    func halfToFloat() {
        for bits: UInt16 in [0x0000, 0x8000, 0x0001, 0x03FF, 0x0400, 0x3C00, 0xC000, 0x7BFF, 0x7C00, 0xFC00, 0x3555] {
            #expect(flightvoice_half_to_float(bits) == Float(Float16(bitPattern: bits)), "\(bits)")
        }
        #expect(flightvoice_half_to_float(0x7E00).isNaN)
    }

    @Test("a run of half floats widens to what each widens to alone, every bit pattern")
    func halvesToFloats() {
        let halves = (0...UInt16.max).map { $0 } + [0x3C00, 0xC000, 0x0001]  // a tail past the last group of eight
        var floats = [Float](repeating: 0, count: halves.count)
        flightvoice_halves_to_floats(halves, halves.count, &floats)
        for (half, float) in zip(halves, floats) {
            let alone = flightvoice_half_to_float(half)
            #expect(alone.isNaN ? float.isNaN : float.bitPattern == alone.bitPattern, "\(half)")
        }
    }

    @Test("the product gives x · Wᵀ plus the bias")
    func product() {
        let weights = Self.randomHalves(Self.rowCount, Self.width)
        let matrix = PackedMatrix(packing: weights, rows: Self.rowCount, width: Self.width)
        let x = Self.randomHalves(6, Self.width)
        let bias = (0..<Self.rowCount).map { Float($0) / 8 }
        let result = matrix.product(Matrix(rows: 6, columns: Self.width, values: x), adding: bias)
        #expect(result.rows == 6 && result.columns == Self.rowCount)
        let expected = Self.product(x, rows: 6, weights).enumerated().map { $1 + bias[$0 % Self.rowCount] }
        #expect(zip(result.values, expected).allSatisfy { abs($0 - $1) < 1e-4 })
    }

    @Test("a product large enough for two threads is the one-thread product to the bit")
    func threadedProductIsExact() {
        let rows = 600, inputs = 64
        var generator = SystemRandomNumberGenerator()
        let weights = (0..<rows * inputs).map { _ in Float.random(in: -1...1, using: &generator) }
        let matrix = PackedMatrix(packing: weights, rows: rows, width: inputs)
        let x = Matrix(rows: 128, columns: inputs, values: (0..<128 * inputs).map { _ in Float.random(in: -1...1, using: &generator) })
        Self.expectTwoThreadsGiveOnesProduct(x) { matrix.product($0) }
    }

    /// Checks that `product` of x, large enough to be split, is the same on two threads as on one.
    static func expectTwoThreadsGiveOnesProduct(_ x: Matrix, _ product: (Matrix) -> Matrix) {
        #expect(x.rows * product(x).columns * x.columns >= PanelSplit.parallelWork)
        let threads = BLAS.threadCount
        defer { BLAS.setThreadCount(threads) }
        BLAS.setThreadCount(1)
        let alone = product(x)
        BLAS.setThreadCount(2)
        #expect(product(x) == alone)
    }
}
