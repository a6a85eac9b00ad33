import CLinearAlgebra
import Foundation

/// all-MiniLM-L6-v2's encoder (a 6-layer BERT, hidden 384, 12 heads, FFN 1536) run over OpenBLAS: word-piece ids in,
/// one L2-normalised 384-dimensional vector per text out (mean pooling over the text's tokens), DESIGN §14.
///
/// Our own because nothing in Debian or the Swift stack runs a BERT: ONNX Runtime is not packaged, and the model is
/// small enough that six layers of matrix products are the whole job. The texts of a batch are laid end to end, with
/// no padding: every linear layer is one `sgemm` over all their tokens, and attention is computed text by text, so
/// no token ever attends to another text's (which is what the reference's attention mask achieves).
///
/// Reads weights straight from the mapped file, never copying them. Not thread-safe by design: one embedder thread
/// owns it (`TextEmbedder`).
final class MiniLMEncoder: @unchecked Sendable {
    static let hidden = 384
    static let heads = 12
    static let headSize = 32
    static let intermediate = 1536
    static let layerCount = 6
    static let maxPositions = 512
    static let vocabularySize = 30522
    static let layerNormEpsilon: Float = 1e-12
    static let wordEmbeddingsName = "embeddings.word_embeddings.weight"

    struct Layer {
        let query, queryBias, key, keyBias, value, valueBias: UnsafePointer<Float>
        let attentionOutput, attentionOutputBias, attentionNormWeight, attentionNormBias: UnsafePointer<Float>
        let intermediate, intermediateBias, output, outputBias, outputNormWeight, outputNormBias: UnsafePointer<Float>
    }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    private let blas: OpenBLASUse
    private let file: SafeTensorsFile
    private let wordEmbeddings, positionEmbeddings, tokenTypeEmbeddings: UnsafePointer<Float>
    private let embeddingNormWeight, embeddingNormBias: UnsafePointer<Float>
    private let layers: [Layer]

    init(weights path: String) throws {
        blas = try OpenBLASUse()
        let file = try SafeTensorsFile(path: path)
        let hidden = Self.hidden
        func vector(_ name: String, _ size: Int = hidden) throws -> UnsafePointer<Float> {
            try file.floats(name, shape: [size])
        }
        self.file = file
        wordEmbeddings = try file.floats(Self.wordEmbeddingsName, shape: [Self.vocabularySize, hidden])
        positionEmbeddings = try file.floats(
            "embeddings.position_embeddings.weight", shape: [Self.maxPositions, hidden])
        tokenTypeEmbeddings = try file.floats("embeddings.token_type_embeddings.weight", shape: [2, hidden])
        embeddingNormWeight = try vector("embeddings.LayerNorm.weight")
        embeddingNormBias = try vector("embeddings.LayerNorm.bias")
        layers = try (0..<Self.layerCount).map { index in
            let prefix = "encoder.layer.\(index)."
            func matrix(_ name: String, _ rows: Int, _ columns: Int) throws -> UnsafePointer<Float> {
                try file.floats(prefix + name, shape: [rows, columns])
            }
            return Layer(
                query: try matrix("attention.self.query.weight", hidden, hidden),
                queryBias: try vector(prefix + "attention.self.query.bias"),
                key: try matrix("attention.self.key.weight", hidden, hidden),
                keyBias: try vector(prefix + "attention.self.key.bias"),
                value: try matrix("attention.self.value.weight", hidden, hidden),
                valueBias: try vector(prefix + "attention.self.value.bias"),
                attentionOutput: try matrix("attention.output.dense.weight", hidden, hidden),
                attentionOutputBias: try vector(prefix + "attention.output.dense.bias"),
                attentionNormWeight: try vector(prefix + "attention.output.LayerNorm.weight"),
                attentionNormBias: try vector(prefix + "attention.output.LayerNorm.bias"),
                intermediate: try matrix("intermediate.dense.weight", Self.intermediate, hidden),
                intermediateBias: try vector(prefix + "intermediate.dense.bias", Self.intermediate),
                output: try matrix("output.dense.weight", hidden, Self.intermediate),
                outputBias: try vector(prefix + "output.dense.bias"),
                outputNormWeight: try vector(prefix + "output.LayerNorm.weight"),
                outputNormBias: try vector(prefix + "output.LayerNorm.bias"))
        }
    }

    /// One unit vector per text of word-piece ids (each framed by [CLS] … [SEP], at most 512 ids, each below the
    /// vocabulary size — the tokenizer's output always is).
    func encode(_ texts: [[Int32]]) -> [[Float]] {
        let texts = texts.map { ids in
            Array(ids.prefix(Self.maxPositions).map { (0..<Int32(Self.vocabularySize)).contains($0) ? $0 : 100 })
        }
        let tokens = texts.reduce(0) { $0 + $1.count }
        guard tokens > 0 else { return texts.map { _ in [Float](repeating: 0, count: Self.hidden) } }
        let hidden = Self.hidden
        var states = embed(texts, tokens: tokens)
        var query = [Float](repeating: 0, count: tokens * hidden)
        var key = query
        var value = query
        var context = query
        var projected = query
        var expanded = [Float](repeating: 0, count: tokens * Self.intermediate)
        let longest = texts.map(\.count).max() ?? 0
        var scores = [Float](repeating: 0, count: longest * longest)
        for layer in layers {
            linear(states, tokens, hidden, layer.query, layer.queryBias, hidden, into: &query)
            linear(states, tokens, hidden, layer.key, layer.keyBias, hidden, into: &key)
            linear(states, tokens, hidden, layer.value, layer.valueBias, hidden, into: &value)
            attend(texts, query, key, value, scores: &scores, into: &context)
            linear(context, tokens, hidden, layer.attentionOutput, layer.attentionOutputBias, hidden, into: &projected)
            addAndNormalize(&states, projected, tokens, layer.attentionNormWeight, layer.attentionNormBias)
            linear(
                states, tokens, hidden, layer.intermediate, layer.intermediateBias, Self.intermediate, into: &expanded)
            gelu(&expanded)
            linear(expanded, tokens, Self.intermediate, layer.output, layer.outputBias, hidden, into: &projected)
            addAndNormalize(&states, projected, tokens, layer.outputNormWeight, layer.outputNormBias)
        }
        // The 47 MB word-embedding table is read a row per token; its pages are given back after each batch so a
        // library's worth of texts does not leave most of it resident (benchmarks/README.md, "Embeddings").
        file.releasePages(of: Self.wordEmbeddingsName)
        return meanPooled(states, texts)
    }

    /// Word + position + token-type embeddings, layer-normalised.
    private func embed(_ texts: [[Int32]], tokens: Int) -> [Float] {
        let hidden = Self.hidden
        var states = [Float](repeating: 0, count: tokens * hidden)
        states.withUnsafeMutableBufferPointer { out in
            var row = 0
            for ids in texts {
                for (position, id) in ids.enumerated() {
                    let word = wordEmbeddings + Int(id) * hidden
                    let place = positionEmbeddings + position * hidden
                    for column in 0..<hidden {
                        out[row * hidden + column] = word[column] + place[column] + tokenTypeEmbeddings[column]
                    }
                    row += 1
                }
            }
        }
        let zero = [Float](repeating: 0, count: tokens * hidden)
        addAndNormalize(&states, zero, tokens, embeddingNormWeight, embeddingNormBias)
        return states
    }

    /// out = input · weightᵀ + bias, for `rows` rows of `inputs` values; the weight is `outputs` × `inputs`.
    private func linear(
        _ input: [Float], _ rows: Int, _ inputs: Int, _ weight: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
        _ outputs: Int, into out: inout [Float]
    ) {
        out.withUnsafeMutableBufferPointer { out in
            for row in 0..<rows {
                (out.baseAddress! + row * outputs).update(from: bias, count: outputs)
            }
            input.withUnsafeBufferPointer { input in
                shelfed_sgemm(
                    0, 1, Int32(rows), Int32(outputs), Int32(inputs), 1, input.baseAddress, Int32(inputs), weight,
                    Int32(inputs), 1, out.baseAddress, Int32(outputs))
            }
        }
    }

    /// Scaled dot-product attention, head by head, within each text.
    private func attend(
        _ texts: [[Int32]], _ query: [Float], _ key: [Float], _ value: [Float], scores: inout [Float],
        into context: inout [Float]
    ) {
        let hidden = Int32(Self.hidden)
        let scale = 1 / Float(Self.headSize).squareRoot()
        query.withUnsafeBufferPointer { query in
            key.withUnsafeBufferPointer { key in
                value.withUnsafeBufferPointer { value in
                    scores.withUnsafeMutableBufferPointer { scores in
                        context.withUnsafeMutableBufferPointer { context in
                            var first = 0
                            for ids in texts {
                                let length = ids.count
                                for head in 0..<Self.heads {
                                    let offset = first * Self.hidden + head * Self.headSize
                                    shelfed_sgemm(
                                        0, 1, Int32(length), Int32(length), Int32(Self.headSize), scale,
                                        query.baseAddress! + offset, hidden, key.baseAddress! + offset, hidden, 0,
                                        scores.baseAddress, Int32(length))
                                    Self.softmaxRows(scores.baseAddress!, rows: length, columns: length)
                                    shelfed_sgemm(
                                        0, 0, Int32(length), Int32(Self.headSize), Int32(length), 1,
                                        scores.baseAddress, Int32(length), value.baseAddress! + offset, hidden, 0,
                                        context.baseAddress! + offset, hidden)
                                }
                                first += length
                            }
                        }
                    }
                }
            }
        }
    }

    private static func softmaxRows(_ matrix: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
        for row in 0..<rows {
            let values = matrix + row * columns
            var largest = -Float.infinity
            for column in 0..<columns { largest = max(largest, values[column]) }
            var sum: Float = 0
            for column in 0..<columns {
                let exponent = expf(values[column] - largest)
                values[column] = exponent
                sum += exponent
            }
            let inverse = 1 / sum
            for column in 0..<columns { values[column] *= inverse }
        }
    }

    /// states = LayerNorm(states + residual), row by row.
    private func addAndNormalize(
        _ states: inout [Float], _ residual: [Float], _ rows: Int, _ weight: UnsafePointer<Float>,
        _ bias: UnsafePointer<Float>
    ) {
        let hidden = Self.hidden
        states.withUnsafeMutableBufferPointer { states in
            residual.withUnsafeBufferPointer { residual in
                for row in 0..<rows {
                    let values = states.baseAddress! + row * hidden
                    let added = residual.baseAddress! + row * hidden
                    var mean: Float = 0
                    for column in 0..<hidden {
                        values[column] += added[column]
                        mean += values[column]
                    }
                    mean /= Float(hidden)
                    var variance: Float = 0
                    for column in 0..<hidden {
                        let centred = values[column] - mean
                        variance += centred * centred
                    }
                    let scale = 1 / (variance / Float(hidden) + Self.layerNormEpsilon).squareRoot()
                    for column in 0..<hidden {
                        values[column] = (values[column] - mean) * scale * weight[column] + bias[column]
                    }
                }
            }
        }
    }

    /// GELU in its exact (erf) form, as BERT was trained with.
    private func gelu(_ values: inout [Float]) {
        let inverseRootTwo: Float = 1 / Float(2).squareRoot()
        values.withUnsafeMutableBufferPointer { values in
            for index in values.indices {
                let x = values[index]
                values[index] = 0.5 * x * (1 + erff(x * inverseRootTwo))
            }
        }
    }

    /// The mean of each text's token states, scaled to unit length.
    private func meanPooled(_ states: [Float], _ texts: [[Int32]]) -> [[Float]] {
        let hidden = Self.hidden
        var vectors: [[Float]] = []
        var first = 0
        for ids in texts {
            var sum = [Float](repeating: 0, count: hidden)
            for row in first..<(first + ids.count) {
                for column in 0..<hidden { sum[column] += states[row * hidden + column] }
            }
            first += ids.count
            let length = sum.reduce(0) { $0 + $1 * $1 }.squareRoot()
            vectors.append(length > 0 ? sum.map { $0 / length } : sum)
        }
        return vectors
    }
}

/// One encoder's hold on OpenBLAS: loaded (if it is not) when made, and unloaded when the last is released, so an
/// idle server keeps none of the library's buffers. The encoder holds it for as long as a batch may run.
final class OpenBLASUse: Sendable {
    init() throws {
        guard shelfed_blas_start() == 0 else {
            throw MiniLMEncoder.Unavailable(description: "OpenBLAS (Debian's libopenblas0) is not installed")
        }
    }

    deinit {
        shelfed_blas_stop()
    }
}
