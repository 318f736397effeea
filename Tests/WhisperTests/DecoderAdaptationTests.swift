import Foundation
import Testing
@testable import Whisper

/// The tuned decoder as a low-rank change to the stock weights (`WhisperModel.adapted(by:)`): the change's arithmetic, and
/// the typed errors for an adaptation that does not fit the model. (Its scores against CTranslate2 running the merged
/// weights: `WhisperReferenceTests`.)
struct DecoderAdaptationTests {
    typealias FileBuilder = CTranslate2ModelFileTests.FileBuilder

    static func adaptation(_ variables: [(name: String, shape: [UInt32], values: [Float16])],
                           specification: String = WhisperModel.adaptationSpecification) throws(WhisperModelError) -> CTranslate2ModelFile {
        var file = FileBuilder.header(specification: specification, variableCount: UInt32(variables.count))
        for variable in variables {
            file.variable(variable.name, shape: variable.shape, type: 4, data: CTranslate2ModelFileTests.bytes(of: variable.values))
        }
        file.uint32(0)
        return try CTranslate2ModelFile(contents: Data(file.bytes), path: "/models/test/decoder-adaptation.bin")
    }

    @Test("x · Wᵀ + b plus x · downᵀ · upᵀ, as a plain triple loop computes it")
    func lowRankUpdateAddsItsProduct() {
        let (rows, inputs, outputs, rank) = (3, 5, 4, 2)
        let x = Matrix(rows: rows, columns: inputs, values: (0..<(rows * inputs)).map { Float($0 % 7) - 3 })
        let down = Matrix(rows: rank, columns: inputs, values: (0..<(rank * inputs)).map { Float($0) * 0.25 - 1 })
        let up = Matrix(rows: outputs, columns: rank, values: (0..<(outputs * rank)).map { Float($0 % 3) - 0.5 })
        var result = Matrix(rows: rows, columns: outputs, values: (0..<(rows * outputs)).map(Float.init))
        let before = result
        LowRankUpdate(down: down, up: up).add(x, to: &result)
        for row in 0..<rows {
            for output in 0..<outputs {
                var expected = before[row, output]
                for r in 0..<rank {
                    var projected: Float = 0
                    for input in 0..<inputs { projected += x[row, input] * down[r, input] }
                    expected += projected * up[output, r]
                }
                #expect(abs(result[row, output] - expected) < 1e-4, "row \(row), output \(output)")
            }
        }
    }

    @Test("an adaptation of another kind, of a layer the model lacks, or of the wrong shape is refused by name")
    func adaptationsThatDoNotFitAreRefused() throws {
        let model = try WhisperReferenceTests.model.get()
        let width = UInt32(model.dimensions.modelWidth)
        let zeros = { (count: UInt32) in [Float16](repeating: 0, count: Int(count)) }
        #expect(throws: WhisperModelError.unexpectedSpecification(path: "/models/test/decoder-adaptation.bin", specification: "WhisperSpec",
                                                                   expected: WhisperModel.adaptationSpecification)) {
            try model.adapted(by: Self.adaptation([], specification: "WhisperSpec"))
        }
        let beyond = "decoder/layer_\(model.dimensions.decoderLayerCount)/ffn/linear_1/bias"
        #expect(throws: WhisperModelError.unusedVariable(path: "/models/test/decoder-adaptation.bin", variable: beyond)) {
            try model.adapted(by: Self.adaptation([(beyond, [width], zeros(width))]))
        }
        #expect(throws: WhisperModelError.unexpectedShape(path: "/models/test/decoder-adaptation.bin", variable: "decoder/layer_0/ffn/linear_1/weight_up",
                                                          shape: [Int(width), 2], expected: [Int(width), 1])) {
            try model.adapted(by: Self.adaptation([("decoder/layer_0/ffn/linear_1/weight_down", [1, 4 * width], zeros(4 * width)),
                                                   ("decoder/layer_0/ffn/linear_1/weight_up", [width, 2], zeros(2 * width))]))
        }
    }

    @Test("an adaptation that changes nothing scores as the model itself; one that changes a bias scores otherwise")
    func anEmptyChangeIsTheModel() throws {
        let model = try WhisperReferenceTests.model.get()
        let samples = try WhisperReferenceTests.samples("Samples/lx40.wav")
        let encoding = model.encode(LogMelSpectrogram(samples: samples, frameCount: LogMelSpectrogram.frameCount(forSampleCount: samples.count, marginSeconds: 1)))
        let width = model.dimensions.modelWidth
        let same = try model.adapted(by: Self.adaptation([]))
        let tokens = WhisperTokens.startSequence + [44988, 2319, 13]
        let stock = model.feed(encoding, tokens: tokens).logProbabilities.values
        #expect(same.feed(same.reusingEncoder(of: encoding), tokens: tokens).logProbabilities.values == stock)
        let shifted = try model.adapted(by: Self.adaptation([("decoder/layer_3/ffn/linear_1/bias", [UInt32(width)],
                                                              [Float16](repeating: 0.5, count: width))]))
        #expect(shifted.feed(shifted.reusingEncoder(of: encoding), tokens: tokens).logProbabilities.values != stock)
    }
}
