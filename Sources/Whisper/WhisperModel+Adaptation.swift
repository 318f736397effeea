import Foundation

extension WhisperModel {
    /// The specification name a decoder adaptation file carries.
    public static let adaptationSpecification = "WhisperDecoderAdaptation"

    /// This model with its decoder fine-tuned: `file` (CTranslate2's format, specification `WhisperDecoderAdaptation`)
    /// holds, for any linear layer of a decoder layer (`decoder/layer_N/…/linear_K`), a low-rank change to its weight as
    /// `weight_down` (rank × inputs) and `weight_up` (outputs × rank), and any of the layers' biases and layer-norm
    /// parameters whole (`…/bias`, `…/layer_norm/gamma`, `…/beta`, and the decoder's final `decoder/layer_norm/…`), in
    /// place of this model's. The encoder, embeddings
    /// and positions are shared, and the base weights too: the change is added at run time (`LowRankUpdate`).
    /// Throws when a variable has the wrong shape or changes nothing of this model's.
    public func adapted(by file: CTranslate2ModelFile) throws(WhisperModelError) -> WhisperModel {
        guard file.specification == Self.adaptationSpecification else {
            throw .unexpectedSpecification(path: file.path, specification: file.specification, expected: Self.adaptationSpecification)
        }
        var used = Set<String>()
        func vector(_ name: String, replacing base: [Float]) throws(WhisperModelError) -> [Float] {
            guard file.variable(name) != nil else { return base }
            used.insert(name)
            return try file.floats(name, shape: [base.count])
        }
        func linear(_ name: String, _ base: Linear) throws(WhisperModelError) -> Linear {
            let bias = try vector("\(name)/bias", replacing: base.bias)
            guard let down = file.variable("\(name)/weight_down") else { return Linear(weight: base.weight, bias: bias, update: base.update) }
            let rank = down.shape.first ?? 0
            let (inputs, outputs) = (base.weight.width, base.weight.rows)
            used.formUnion(["\(name)/weight_down", "\(name)/weight_up"])
            let update = LowRankUpdate(down: Matrix(rows: rank, columns: inputs, values: try file.floats("\(name)/weight_down", shape: [rank, inputs])),
                                       up: Matrix(rows: outputs, columns: rank, values: try file.floats("\(name)/weight_up", shape: [outputs, rank])))
            return Linear(weight: base.weight, bias: bias, update: update)
        }
        func norm(_ name: String, _ base: LayerNorm) throws(WhisperModelError) -> LayerNorm {
            LayerNorm(gamma: try vector("\(name)/gamma", replacing: base.gamma), beta: try vector("\(name)/beta", replacing: base.beta))
        }
        func attention(_ name: String, _ base: AttentionWeights) throws(WhisperModelError) -> AttentionWeights {
            AttentionWeights(norm: try norm("\(name)/layer_norm", base.norm), queryKeyValue: try linear("\(name)/linear_0", base.queryKeyValue),
                             output: try linear("\(name)/linear_1", base.output))
        }
        var layers: [DecoderLayer] = []
        for (index, base) in decoderLayers.enumerated() {
            let prefix = "decoder/layer_\(index)"
            let cross = base.crossAttention
            layers.append(DecoderLayer(
                selfAttention: try attention("\(prefix)/self_attention", base.selfAttention),
                crossAttention: CrossAttentionWeights(norm: try norm("\(prefix)/attention/layer_norm", cross.norm),
                                                      query: try linear("\(prefix)/attention/linear_0", cross.query),
                                                      keyValue: try linear("\(prefix)/attention/linear_1", cross.keyValue),
                                                      output: try linear("\(prefix)/attention/linear_2", cross.output)),
                feedForward: FeedForwardWeights(norm: try norm("\(prefix)/ffn/layer_norm", base.feedForward.norm),
                                                expand: try linear("\(prefix)/ffn/linear_0", base.feedForward.expand),
                                                contract: try linear("\(prefix)/ffn/linear_1", base.feedForward.contract))))
        }
        let finalNorm = try norm("decoder/layer_norm", decoderNorm)
        if let unused = file.variables.first(where: { !used.contains($0.name) }) {
            throw .unusedVariable(path: file.path, variable: unused.name)
        }
        return WhisperModel(base: self, decoderLayers: layers, decoderNorm: finalNorm)
    }
}
