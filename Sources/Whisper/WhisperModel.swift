import Foundation

/// The sizes of a Whisper model, read from its weights. A value; share it freely.
public struct WhisperDimensions: Sendable, Equatable {
    /// Mel bands of the input (80).
    public let melBandCount: Int
    /// Width of every hidden state (384 for tiny).
    public let modelWidth: Int
    /// Attention heads per layer (6 for tiny).
    public let headCount: Int
    /// Encoder layers (4 for tiny).
    public let encoderLayerCount: Int
    /// Decoder layers (4 for tiny).
    public let decoderLayerCount: Int
    /// Tokens in the vocabulary (51864 for the English-only models).
    public let vocabularySize: Int
    /// Longest token sequence the decoder has positions for (448).
    public let textContextLength: Int
    /// Encoder positions, i.e. the full 30 s window after the stride-2 convolution (1500).
    public let audioContextLength: Int

    /// Width of one attention head.
    public var headWidth: Int { modelWidth / headCount }
}

/// Whisper's special tokens in the English-only models' vocabulary (tokenizer.json). Constants only.
public enum WhisperTokens {
    /// `<|endoftext|>`: ends a transcript.
    public static let endOfText = 50256
    /// `<|startoftranscript|>`.
    public static let startOfTranscript = 50257
    /// `<|notimestamps|>`: transcribe text only.
    public static let noTimestamps = 50362
    /// `<|startofprev|>`: text before it is context (a prompt), not transcript.
    public static let startOfPrevious = 50360
    /// What the decoder is fed before the text of an English-only model: start of transcript, no timestamps.
    public static let startSequence = [startOfTranscript, noTimestamps]

    /// `startSequence` after a prompt's text tokens (Whisper's `initial_prompt`: `<|startofprev|>` and the prompt);
    /// `startSequence` alone without a prompt.
    public static func startSequence(afterPrompt prompt: [Int]) -> [Int] {
        prompt.isEmpty ? startSequence : [startOfPrevious] + prompt + startSequence
    }
}

/// Whisper's weights, loaded once from a CTranslate2 model (model.bin) and never changed: encoder, decoder and the
/// tied output projection, all as `Float`.
///
/// Thread rule: immutable and `Sendable`; one instance serves any number of workers at once (each call allocates its
/// own scratch). Loading sets the process's OpenBLAS thread count (default 1: workers are the parallelism).
public final class WhisperModel: Sendable {
    /// The specification name model.bin must carry.
    public static let specification = "WhisperSpec"
    /// The model file inside a model folder.
    public static let weightsFileName = "model.bin"

    /// The model's sizes.
    public let dimensions: WhisperDimensions

    struct AttentionWeights: Sendable {
        let norm: LayerNorm
        /// Fused query, key, value projection (3·width × width).
        let queryKeyValue: Linear
        let output: Linear
    }

    struct CrossAttentionWeights: Sendable {
        let norm: LayerNorm
        let query: Linear
        /// Fused key, value projection of the encoder output (2·width × width).
        let keyValue: Linear
        let output: Linear
    }

    struct FeedForwardWeights: Sendable {
        let norm: LayerNorm
        let expand: Linear
        let contract: Linear
    }

    struct EncoderLayer: Sendable {
        let attention: AttentionWeights
        let feedForward: FeedForwardWeights
    }

    struct DecoderLayer: Sendable {
        let selfAttention: AttentionWeights
        let crossAttention: CrossAttentionWeights
        let feedForward: FeedForwardWeights
    }

    /// conv1 as a matrix over (band, tap) columns: width × (bands · 3).
    let convolution1: Linear
    /// conv2 as a matrix over (channel, tap) columns: width × (width · 3).
    let convolution2: Linear
    /// Sinusoidal positions of the encoder (audio context × width).
    let encoderPositions: Matrix
    let encoderLayers: [EncoderLayer]
    let encoderNorm: LayerNorm
    /// Token embeddings (vocabulary × width) in 12 bits: the decoder's input rows and its output projection (`QuantizedMatrix`).
    let embeddings: QuantizedMatrix
    /// Learned positions of the decoder (text context × width).
    let decoderPositions: Matrix
    let decoderLayers: [DecoderLayer]
    let decoderNorm: LayerNorm

    /// Taps of both encoder convolutions.
    static let convolutionKernel = 3

    /// `base` with other decoder layers and final norm: the encoder, the embeddings and the positions are `base`'s own, shared.
    init(base: WhisperModel, decoderLayers: [DecoderLayer], decoderNorm: LayerNorm) {
        precondition(decoderLayers.count == base.decoderLayers.count)
        dimensions = base.dimensions
        convolution1 = base.convolution1
        convolution2 = base.convolution2
        encoderPositions = base.encoderPositions
        encoderLayers = base.encoderLayers
        encoderNorm = base.encoderNorm
        embeddings = base.embeddings
        decoderPositions = base.decoderPositions
        self.decoderLayers = decoderLayers
        self.decoderNorm = decoderNorm
    }

    /// Loads `model.bin` from a model folder (e.g. models/whisper-tiny.en) and lets its products use `blasThreadCount` threads.
    public convenience init(folder: URL, blasThreadCount: Int = 1) throws(WhisperModelError) {
        try self.init(file: CTranslate2ModelFile(path: folder.appendingPathComponent(Self.weightsFileName).path), blasThreadCount: blasThreadCount)
    }

    /// Builds the model from a parsed CTranslate2 file, checking every shape; lets its products use `blasThreadCount` threads
    /// (`BLAS.setThreadCount`).
    public init(file: CTranslate2ModelFile, blasThreadCount: Int = 1) throws(WhisperModelError) {
        guard file.specification == Self.specification else {
            throw .unexpectedSpecification(path: file.path, specification: file.specification, expected: Self.specification)
        }
        BLAS.setThreadCount(blasThreadCount)
        guard let embeddingVariable = file.variable("decoder/embeddings/weight"), embeddingVariable.shape.count == 2 else {
            throw .missingVariable(path: file.path, variable: "decoder/embeddings/weight")
        }
        guard let convolutionVariable = file.variable("encoder/conv1/weight"), convolutionVariable.shape.count == 3 else {
            throw .missingVariable(path: file.path, variable: "encoder/conv1/weight")
        }
        guard let encoderPositionVariable = file.variable("encoder/position_encodings/encodings"),
              let decoderPositionVariable = file.variable("decoder/position_encodings/encodings") else {
            throw .missingVariable(path: file.path, variable: "position_encodings/encodings")
        }
        let width = embeddingVariable.shape[1]
        func layerCount(_ prefix: String) -> Int {
            var count = 0
            while file.variable("\(prefix)/layer_\(count)/ffn/linear_0/weight") != nil { count += 1 }
            return count
        }
        let dimensions = WhisperDimensions(
            melBandCount: convolutionVariable.shape[1], modelWidth: width, headCount: try file.integer("encoder/num_heads"),
            encoderLayerCount: layerCount("encoder"), decoderLayerCount: layerCount("decoder"),
            vocabularySize: embeddingVariable.shape[0], textContextLength: decoderPositionVariable.shape.first ?? 0,
            audioContextLength: encoderPositionVariable.shape.first ?? 0)
        self.dimensions = dimensions

        func matrix(_ name: String, _ rows: Int, _ columns: Int) throws(WhisperModelError) -> Matrix {
            Matrix(rows: rows, columns: columns, values: try file.floats(name, shape: [rows, columns]))
        }
        func vector(_ name: String, _ count: Int) throws(WhisperModelError) -> [Float] {
            try file.floats(name, shape: [count])
        }
        func packed(_ name: String, shape: [Int]) throws(WhisperModelError) -> PackedMatrix {
            try PackedMatrix(rows: shape[0], width: shape.dropFirst().reduce(1, *)) { (rows: Range<Int>) throws(WhisperModelError) in
                try file.halfFloats(name, shape: shape, rows: rows)
            }
        }
        func linear(_ name: String, outputs: Int, inputs: Int) throws(WhisperModelError) -> Linear {
            Linear(weight: try packed("\(name)/weight", shape: [outputs, inputs]), bias: try vector("\(name)/bias", outputs))
        }
        func norm(_ name: String) throws(WhisperModelError) -> LayerNorm {
            LayerNorm(gamma: try vector("\(name)/gamma", width), beta: try vector("\(name)/beta", width))
        }
        func convolution(_ name: String, inputs: Int) throws(WhisperModelError) -> Linear {
            // (outputs, inputs, taps) row-major is already (outputs × inputs·taps) with column = input · taps + tap.
            Linear(weight: try packed("\(name)/weight", shape: [width, inputs, Self.convolutionKernel]), bias: try vector("\(name)/bias", width))
        }
        func feedForward(_ name: String) throws(WhisperModelError) -> FeedForwardWeights {
            // The hidden width (4 · width in Whisper) is read from the file.
            let hidden = file.variable("\(name)/linear_0/weight")?.shape.first ?? 4 * width
            return FeedForwardWeights(norm: try norm("\(name)/layer_norm"),
                                      expand: try linear("\(name)/linear_0", outputs: hidden, inputs: width),
                                      contract: try linear("\(name)/linear_1", outputs: width, inputs: hidden))
        }
        func selfAttention(_ name: String) throws(WhisperModelError) -> AttentionWeights {
            AttentionWeights(norm: try norm("\(name)/layer_norm"),
                             queryKeyValue: try linear("\(name)/linear_0", outputs: 3 * width, inputs: width),
                             output: try linear("\(name)/linear_1", outputs: width, inputs: width))
        }

        let embeddingShape = [dimensions.vocabularySize, width]
        embeddings = try QuantizedMatrix(rows: dimensions.vocabularySize, width: width) { (rows: Range<Int>) throws(WhisperModelError) in
            try file.halfFloats("decoder/embeddings/weight", shape: embeddingShape, rows: rows)
        }
        convolution1 = try convolution("encoder/conv1", inputs: dimensions.melBandCount)
        convolution2 = try convolution("encoder/conv2", inputs: width)
        encoderPositions = try matrix("encoder/position_encodings/encodings", dimensions.audioContextLength, width)
        var encoderLayers: [EncoderLayer] = []
        for layer in 0..<dimensions.encoderLayerCount {
            let prefix = "encoder/layer_\(layer)"
            encoderLayers.append(EncoderLayer(attention: try selfAttention("\(prefix)/self_attention"),
                                              feedForward: try feedForward("\(prefix)/ffn")))
        }
        self.encoderLayers = encoderLayers
        encoderNorm = try norm("encoder/layer_norm")
        decoderPositions = try matrix("decoder/position_encodings/encodings", dimensions.textContextLength, width)
        var decoderLayers: [DecoderLayer] = []
        for layer in 0..<dimensions.decoderLayerCount {
            let prefix = "decoder/layer_\(layer)"
            let cross = CrossAttentionWeights(norm: try norm("\(prefix)/attention/layer_norm"),
                                              query: try linear("\(prefix)/attention/linear_0", outputs: width, inputs: width),
                                              keyValue: try linear("\(prefix)/attention/linear_1", outputs: 2 * width, inputs: width),
                                              output: try linear("\(prefix)/attention/linear_2", outputs: width, inputs: width))
            decoderLayers.append(DecoderLayer(selfAttention: try selfAttention("\(prefix)/self_attention"), crossAttention: cross,
                                              feedForward: try feedForward("\(prefix)/ffn")))
        }
        self.decoderLayers = decoderLayers
        decoderNorm = try norm("decoder/layer_norm")
        if let projection = file.variable("decoder/projection/weight"), projection.shape != embeddingVariable.shape {
            throw .unexpectedShape(path: file.path, variable: "decoder/projection/weight", shape: projection.shape, expected: embeddingVariable.shape)
        }
    }
}
