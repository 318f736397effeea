import CVectorMath
import Testing
@testable import Whisper

@Suite("The output projection from packed panels")
struct OutputProjectionTests {
    /// Vocabularies that are no multiple of the panel width, like Whisper's 51,864 = 16 · 3,241 + 8: an odd and an
    /// even number of panels.
    static let vocabularySizes = [100, 120], vocabularySize = 100, width = 24

    static func randomMatrix(_ rows: Int, _ columns: Int) -> [Float] {
        var generator = SystemRandomNumberGenerator()
        return (0..<rows * columns).map { _ in Float.random(in: -1...1, using: &generator) }
    }

    static func product(_ x: [Float], rows: Int, _ embeddings: [Float], vocabularySize: Int = vocabularySize) -> [Float] {
        var result = [Float](repeating: 0, count: rows * vocabularySize)
        for row in 0..<rows {
            for token in 0..<vocabularySize {
                var sum: Float = 0
                for k in 0..<width { sum += x[row * width + k] * embeddings[token * width + k] }
                result[row * vocabularySize + token] = sum
            }
        }
        return result
    }

    @Test("every kernel the CPU has gives the plain product, for row counts around its groups",
          arguments: [flightvoice_projection_plain, flightvoice_projection_avx2, flightvoice_projection_avx512], [1, 3, 4, 5, 8, 9, 17])
    func kernelsAgree(kernel: flightvoice_projection_kernel, rows: Int) {
        for vocabularySize in Self.vocabularySizes {
            let embeddings = Self.randomMatrix(vocabularySize, Self.width)
            let x = Self.randomMatrix(rows, Self.width)
            var packed = [Float](repeating: .nan, count: flightvoice_packed_size(vocabularySize, Self.width))
            flightvoice_pack_panels(embeddings, vocabularySize, Self.width, &packed)
            var out = [Float](repeating: .nan, count: rows * vocabularySize)
            guard flightvoice_multiply_packed_with(kernel, packed, vocabularySize, Self.width, x, rows, &out) == 1 else { return }
            let expected = Self.product(x, rows: rows, embeddings, vocabularySize: vocabularySize)
            #expect(zip(out, expected).allSatisfy { abs($0 - $1) < 1e-4 }, "kernel \(kernel.rawValue), \(rows) rows, \(vocabularySize) tokens")
        }
    }

    @Test("the projection gives the product and each token's embedding back")
    func projection() {
        let embeddings = Self.randomMatrix(Self.vocabularySize, Self.width)
        let projection = OutputProjection(packing: embeddings, vocabularySize: Self.vocabularySize, width: Self.width)
        let x = Self.randomMatrix(6, Self.width)
        let logits = projection.logits(Matrix(rows: 6, columns: Self.width, values: x))
        #expect(logits.rows == 6 && logits.columns == Self.vocabularySize)
        #expect(zip(logits.values, Self.product(x, rows: 6, embeddings)).allSatisfy { abs($0 - $1) < 1e-4 })
        for token in [0, 15, 16, 99] {
            var row = [Float](repeating: 0, count: Self.width)
            row.withUnsafeMutableBufferPointer { projection.embedding(of: token, into: $0.baseAddress!) }
            #expect(row == Array(embeddings[token * Self.width..<(token + 1) * Self.width]))
        }
    }
}
