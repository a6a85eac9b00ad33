import Foundation
import Logging
import Testing

@testable import ShelfedKit

/// The model's files as `scripts/fetch-model.sh` leaves them (`make test` runs it first and fails when it cannot).
enum EmbeddingModelFiles {
    static let folder = TestApp.packageRoot.appendingPathComponent("models/all-MiniLM-L6-v2")
    static let present = FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("model.safetensors").path)
    static let missing = "the embedding model is not in models/ (run bash scripts/fetch-model.sh)"

    /// What the reference implementation made of the texts in scripts/make_embedding_fixtures.py.
    struct Reference: Decodable {
        struct Case: Decodable {
            let text: String
            let ids: [Int32]
        }

        struct Vector: Decodable {
            let text: String
            let ids: [Int32]
            let vector: [Float]
        }

        let tokenizer: [Case]
        let vectors: [Vector]
    }

    static let reference: Reference = {
        let file = FakeBooksServer.fixtures.appendingPathComponent("embeddings/reference.json")
        return try! JSONDecoder().decode(Reference.self, from: Data(contentsOf: file))
    }()

    static func embedder(folder: URL = folder, idleTime: Duration = .seconds(60)) -> TextEmbedder {
        TextEmbedder(folder: folder, idleTime: idleTime, logger: Logger(label: "test.embedder"))
    }
}

func cosine(_ a: [Float], _ b: [Float]) -> Float {
    var dot: Float = 0
    var aa: Float = 0
    var bb: Float = 0
    for index in a.indices {
        dot += a[index] * b[index]
        aa += a[index] * a[index]
        bb += b[index] * b[index]
    }
    return dot / (aa.squareRoot() * bb.squareRoot())
}

@Suite(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
struct EmbeddingModelTests {
    let tokenizer = try! WordPieceTokenizer(
        contentsOf: EmbeddingModelFiles.folder.appendingPathComponent("tokenizer.json"))

    /// Punctuation, accents, ligatures, CJK, Hangul, emoji, numbers, control and zero-width characters and words
    /// too long to split give exactly the reference tokenizer's ids.
    /// A question in words has a word the model knows whole; keys mashed, an ISBN or a number have none.
    @Test func aQuestionInWordsIsToldFromNoise() {
        for question in ["a lighthouse keeper's long winter", "Dune", "Ñandú and the RIVER", "children at sea"] {
            #expect(tokenizer.knowsAWholeWord(in: question), "\(question)")
        }
        for noise in ["xqzvbn wkrtpl", "9780441172719", "978-0-441-17271-9", "1984", "zzkq", "ab cd", "!!!"] {
            #expect(!tokenizer.knowsAWholeWord(in: noise), "\(noise)")
        }
    }

    @Test(arguments: EmbeddingModelFiles.reference.tokenizer.indices)
    func tokenizerMatchesTheReference(index: Int) {
        let reference = EmbeddingModelFiles.reference.tokenizer[index]
        #expect(tokenizer.ids(for: reference.text, maxTokens: 10_000) == reference.ids, "\(reference.text)")
    }

    /// Texts past 256 word pieces are cut where the reference cuts them.
    @Test func longTextsAreCutAtTheModelsLimit() {
        for reference in EmbeddingModelFiles.reference.vectors {
            #expect(tokenizer.ids(for: reference.text, maxTokens: 256) == reference.ids, "\(reference.text.prefix(40))")
        }
        #expect(EmbeddingModelFiles.reference.vectors.contains { $0.ids.count == 256 })
    }

    /// Every Swift vector points the way the reference's does (cosine ≥ 0.999), whether the texts are encoded in
    /// one batch (laid end to end) or one by one — the batch must not let texts see each other.
    @Test func vectorsMatchTheReference() async throws {
        let embedder = EmbeddingModelFiles.embedder()
        let references = EmbeddingModelFiles.reference.vectors
        let batch = try #require(try await embedder.embed(references.map(\.text)))
        #expect(batch.count == references.count)
        for (vector, reference) in zip(batch, references) {
            #expect(vector.count == 384)
            #expect(cosine(vector, reference.vector) >= 0.999, "\(reference.text.prefix(40))")
            let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
            #expect(abs(length - 1) < 1e-4)
        }
        for reference in references.prefix(4) {
            let single = try #require(try await embedder.embed([reference.text]))
            #expect(cosine(single[0], reference.vector) >= 0.999)
        }
    }

    /// The property semantic search rests on, on DESIGN §14's own examples: a description finds its book.
    @Test func meaningIsCloserThanWords() async throws {
        let embedder = EmbeddingModelFiles.embedder()
        let vectors = try #require(
            try await embedder.embed([
                "a novel about a desert world and a messianic hero",
                "Dune. by Frank Herbert. On the desert planet Arrakis, Paul Atreides leads the Fremen.",
                "Bread. by a baker. Recipes for sourdough, rye and brioche.",
            ]))
        #expect(cosine(vectors[0], vectors[1]) > cosine(vectors[0], vectors[2]) + 0.2)
    }

    /// Weights whose bytes differ from the recorded hash are refused: no vectors, a reason, no crash.
    @Test func damagedWeightsAreRefused() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["tokenizer.json", "config.json", "model.safetensors"] {
            try FileManager.default.copyItem(
                at: EmbeddingModelFiles.folder.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let weights = try FileHandle(forUpdating: folder.appendingPathComponent("model.safetensors"))
        try weights.seek(toOffset: 50_000_000)
        try weights.write(contentsOf: Data([0x7F, 0x7F, 0x7F, 0x7F]))
        try weights.close()
        let embedder = EmbeddingModelFiles.embedder(folder: folder)
        #expect(embedder.checkFiles() == .available)
        #expect(try await embedder.embed(["anything"]) == nil)
        guard case .unavailable(let reason) = embedder.availability else {
            Issue.record("a damaged model was used")
            return
        }
        #expect(reason.contains("sha256"))
    }

    /// A missing folder is a clear message at start, and embedding answers nil.
    @Test func missingModelSaysWhatToRun() async throws {
        let embedder = EmbeddingModelFiles.embedder(folder: URL(fileURLWithPath: "/nonexistent/model"))
        guard case .unavailable(let reason) = embedder.checkFiles() else {
            Issue.record("a missing model was reported available")
            return
        }
        #expect(reason.contains("scripts/fetch-model.sh"))
        #expect(try await embedder.embed(["anything"]) == nil)
    }

    /// The weights are closed after the idle time and opened again on the next text.
    @Test func idleModelIsClosedAndReopened() async throws {
        let embedder = EmbeddingModelFiles.embedder(idleTime: .milliseconds(200))
        _ = try await embedder.embed(["first"])
        #expect(embedder.isLoaded)
        for _ in 0..<50 where embedder.isLoaded { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!embedder.isLoaded)
        let again = try #require(try await embedder.embed(["Dune"]))
        #expect(cosine(again[0], EmbeddingModelFiles.reference.vectors[0].vector) >= 0.999)
    }

    /// Hostile text (DESIGN §13) goes through the tokenizer and the encoder without a trap: at most the model's
    /// limit of ids, each inside the vocabulary, and a finite unit vector — for a megabyte of one letter, thousands of
    /// combining marks on one base, bidi overrides, special-token names typed as text, and emoji joiners.
    @Test func hostileTextGivesBoundedIdsAndFiniteVectors() async throws {
        let texts = [
            String(repeating: "a", count: 1_000_000),
            "e" + String(repeating: "\u{0301}", count: 20_000),
            "\u{202E}\u{2066}bidi override\u{2069}\u{202C}",
            "[CLS] [SEP] [MASK] [PAD] [UNK] ##ing ##",
            String(repeating: "👩‍👩‍👧‍👦", count: 5_000),
            String(repeating: "a ", count: 300_000),
            "nul\u{0}byte\u{7}bell",
            "\u{FFFD}\u{FEFF}\u{200D}",
            String(repeating: "字", count: 10_000),
        ]
        for text in texts {
            let ids = tokenizer.ids(for: text, maxTokens: 256)
            #expect(ids.count <= 256 && ids.count >= 2)
            #expect(ids.allSatisfy { (0..<30_522).contains($0) })
        }
        let vectors = try #require(try await EmbeddingModelFiles.embedder().embed(texts))
        for vector in vectors {
            #expect(vector.allSatisfy { $0.isFinite })
            #expect(abs(vector.reduce(0) { $0 + $1 * $1 } - 1) < 1e-3)
        }
    }
}
