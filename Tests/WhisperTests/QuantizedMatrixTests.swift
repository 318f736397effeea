import CVectorMath
import Testing
@testable import Whisper

@Suite("Products with weights quantised to 12 bits, summed in integers")
struct QuantizedMatrixTests {
    /// An odd width (a padded last pair) and Whisper tiny's, where the input's limit is set by the 32-bit sums.
    static let widths = [23, 384], rowCounts = [100, 120]

    static func random(_ count: Int, in range: ClosedRange<Float> = -1...1) -> [Float] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in Float.random(in: range, using: &generator) }
    }

    /// Packs `weights` (rows × width) with `flightvoice_quantize_row`, row by row.
    static func quantized(_ weights: [Float], rows: Int, width: Int) -> (panels: [Int16], scales: [Float]) {
        var panels = [Int16](repeating: 0, count: flightvoice_quantized_size(rows, width))
        var scales = [Float](repeating: 0, count: rows)
        for row in 0..<rows {
            Array(weights[(row * width)..<((row + 1) * width)]).withUnsafeBufferPointer {
                flightvoice_quantize_row($0.baseAddress!, width, row, &panels, &scales[row])
            }
        }
        return (panels, scales)
    }

    static func product(_ x: [Float], count: Int, _ weights: [Float], rows: Int, width: Int) -> [Float] {
        var result = [Float](repeating: 0, count: count * rows)
        for r in 0..<count {
            for output in 0..<rows {
                var sum: Double = 0
                for k in 0..<width { sum += Double(x[r * width + k]) * Double(weights[output * width + k]) }
                result[r * rows + output] = Float(sum)
            }
        }
        return result
    }

    @Test("every kernel the CPU has gives the plain kernel's floats to the bit, for row counts around its groups",
          arguments: [flightvoice_quantized_avx2, flightvoice_quantized_vnni], [1, 3, 4, 5, 8, 9, 17])
    func kernelsAgreeToTheBit(kernel: flightvoice_quantized_kernel, count: Int) {
        for width in Self.widths {
            for rows in Self.rowCounts {
                let (panels, scales) = Self.quantized(Self.random(rows * width), rows: rows, width: width)
                let x = Self.random(count * width, in: -40...40)
                let panelCount = flightvoice_panel_count(rows)
                var plain = [Float](repeating: .nan, count: count * rows), other = plain
                #expect(flightvoice_multiply_quantized_with(flightvoice_quantized_plain, panels, scales, rows, width, x, count, &plain, 0, panelCount) == 1)
                guard flightvoice_multiply_quantized_with(kernel, panels, scales, rows, width, x, count, &other, 0, panelCount) == 1 else { return }
                #expect(!plain.contains { $0.isNaN })
                #expect(other == plain, "kernel \(kernel.rawValue), \(count) × \(width) by \(rows) rows")
            }
        }
    }

    @Test("the product is x · Wᵀ within the rounding of 12-bit weights and inputs, the largest values included")
    func productIsCloseToExact() {
        for width in Self.widths {
            let rows = 120, count = 6
            // Row 0 of W all ones and row 1 of x all 30s, each its range's largest: their product sums near the 32-bit limit
            // without overflowing.
            var weights = Self.random(rows * width)
            weights.replaceSubrange(0..<width, with: repeatElement(1, count: width))
            var x = Self.random(count * width, in: -30...30)
            x[0] = 30; x[1] = -30
            x.replaceSubrange(width..<(2 * width), with: repeatElement(30, count: width))
            let matrix = QuantizedMatrix(quantizing: weights, rows: rows, width: width)
            let halves = weights.map { Float(Float16($0)) }
            let result = matrix.product(Matrix(rows: count, columns: width, values: x))
            let expected = Self.product(x, count: count, halves, rows: rows, width: width)
            #expect(result.rows == count && result.columns == rows)
            // Each term is off by at most |x| · (w's step) / 2 + |w| · (x's step) / 2 (|x| <= 30, |w| <= 1): a hard bound.
            let inputLimit = min(32767, Int(Int32.max) / ((width + 1) / 2 * 2 * 2047))
            let bound = Float(width) * (30 / 2047 / 2 + 30 / Float(inputLimit) / 2)
            let worst = zip(result.values, expected).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= bound, "width \(width): worst difference \(worst) against a bound of \(bound)")
            #expect(abs(result.values[rows] - Float(width) * 30) < 1e-2 * Float(width), "the all-30s row times the all-ones row")
        }
    }

    @Test("rows read in blocks are quantised as one row at a time, and each row looks up within half a step of its half float")
    func rowsAndBlocks() {
        for width in Self.widths {
            let rows = 600  // three blocks of reading, the last one short
            var weights = Self.random(rows * width, in: -4...4)
            weights.replaceSubrange((7 * width)..<(8 * width), with: repeatElement(0, count: width))
            let halves = weights.map { Float(Float16($0)) }
            let matrix = QuantizedMatrix(quantizing: weights, rows: rows, width: width)
            let (panels, scales) = Self.quantized(halves, rows: rows, width: width)
            let x = Self.random(3 * width)
            var expected = [Float](repeating: .nan, count: 3 * rows)
            flightvoice_multiply_quantized(panels, scales, rows, width, x, 3, &expected, 0, flightvoice_panel_count(rows))
            #expect(matrix.product(Matrix(rows: 3, columns: width, values: x)).values == expected)
            for index in [0, 7, 15, 16, 255, 256, 599] {
                var row = [Float](repeating: .nan, count: width)
                row.withUnsafeMutableBufferPointer { matrix.row(index, into: $0.baseAddress!) }
                let original = halves[(index * width)..<((index + 1) * width)]
                let halfStep = (original.map(abs).max() ?? 0) / 2047 / 2
                let worst = zip(row, original).map { abs($0 - $1) }.max() ?? .infinity
                #expect(worst <= halfStep * 1.0001, "row \(index) of width \(width): off by \(worst), half a step \(halfStep)")
            }
        }
    }

    @Test("a zero row of W or of x gives zeros, not NaNs")
    func zeroRows() {
        let width = 8, rows = 16
        var weights = Self.random(rows * width)
        weights.replaceSubrange(0..<width, with: repeatElement(0, count: width))
        let matrix = QuantizedMatrix(quantizing: weights, rows: rows, width: width)
        let result = matrix.product(Matrix(rows: 2, columns: width, values: [Float](repeating: 0, count: width) + Self.random(width)))
        #expect(result.values[0..<rows].allSatisfy { $0 == 0 })
        #expect(result.values[rows] == 0)
    }

    @Test("a product split by panels, or over two threads, is the whole product to the bit")
    func splitProductsAreExact() {
        let rows = 600, width = 64, count = 128
        let weights = Self.random(rows * width), x = Self.random(count * width)
        let (panels, scales) = Self.quantized(weights, rows: rows, width: width)
        let panelCount = flightvoice_panel_count(rows)
        var whole = [Float](repeating: .nan, count: count * rows), parts = whole
        flightvoice_multiply_quantized(panels, scales, rows, width, x, count, &whole, 0, panelCount)
        flightvoice_multiply_quantized(panels, scales, rows, width, x, count, &parts, 0, 5)
        #expect(parts[(5 * 16)..<rows].allSatisfy { $0.isNaN }, "panels 5 on not written yet")
        flightvoice_multiply_quantized(panels, scales, rows, width, x, count, &parts, 5, panelCount)
        #expect(parts == whole)
        let matrix = QuantizedMatrix(quantizing: weights, rows: rows, width: width)
        PackedMatrixTests.expectTwoThreadsGiveOnesProduct(Matrix(rows: count, columns: width, values: x)) { matrix.product($0) }
    }
}
