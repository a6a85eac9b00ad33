import Foundation

/// The in-process half of `benchmarks/embeddings.py` (`shelfed model bench`): the encoder's time per text at several
/// batch sizes, one query, and ranking stored vectors, on this machine's one thread. The server-level half — a
/// whole search request, a library embedded in the background, memory — is measured from outside by the script.
public enum EmbeddingBenchmark {
    /// Runs the measurements with the model in `folder`; one line per figure.
    public static func run(folder: URL, texts: Int = 64) throws -> [String] {
        let tokenizer = try WordPieceTokenizer(contentsOf: folder.appendingPathComponent("tokenizer.json"))
        let encoder = try MiniLMEncoder(weights: folder.appendingPathComponent("model.safetensors").path)
        var lines: [String] = []
        // Book-like texts of about 128 word pieces, each different so no two batches are the same.
        let bookTexts = (0..<texts).map { index in
            tokenizer.ids(for: Self.bookText(index), maxTokens: 128)
        }
        let pieces = bookTexts.map(\.count).reduce(0, +) / max(bookTexts.count, 1)
        _ = encoder.encode(Array(bookTexts.prefix(2)))  // pages the weights in
        for batch in [1, 4, 8, 16, 32] where batch <= texts {
            let started = ContinuousClock.now
            var done = 0
            while done + batch <= texts {
                _ = encoder.encode(Array(bookTexts[done..<(done + batch)]))
                done += batch
            }
            let perText = milliseconds(ContinuousClock.now - started) / Double(done)
            lines.append(
                String(format: "book text (%d word pieces), batch %2d: %.1f ms a text", pieces, batch, perText))
        }
        let query = tokenizer.ids(for: "a boy finds out he is a wizard and goes to a school for magic", maxTokens: 256)
        let queryStarted = ContinuousClock.now
        for _ in 0..<50 { _ = encoder.encode([query]) }
        lines.append(
            String(
                format: "query (%d word pieces): %.1f ms", query.count,
                milliseconds(ContinuousClock.now - queryStarted) / 50))
        let tokenizeStarted = ContinuousClock.now
        for index in 0..<texts { _ = tokenizer.ids(for: Self.bookText(index), maxTokens: 256) }
        lines.append(
            String(
                format: "tokenizing a book text: %.2f ms",
                milliseconds(ContinuousClock.now - tokenizeStarted) / Double(texts)))

        // Ranking 5,000 stored vectors: decoding the float16 blobs as they come from SQLite, then the dot products.
        var generator = SystemRandomNumberGenerator()
        let stored = (0..<5_000).map { _ in
            MeaningVector.encode((0..<TextEmbedder.dimensions).map { _ in Float.random(in: -1...1, using: &generator) })
        }
        let queryVector = encoder.encode([query])[0]
        let rankStarted = ContinuousClock.now
        var best: Float = -1
        for _ in 0..<20 {
            for blob in stored {
                if let score = MeaningVector.dot(queryVector, stored: blob) { best = max(best, score) }
            }
        }
        lines.append(
            String(
                format: "ranking 5,000 stored float16 vectors: %.2f ms (best %.2f)",
                milliseconds(ContinuousClock.now - rankStarted) / 20, best))
        return lines
    }

    /// A made-up catalogue line and blurb, different for every `index`.
    static func bookText(_ index: Int) -> String {
        let words = [
            "river", "winter", "letters", "island", "family", "war", "garden", "memory", "city", "secret", "journey",
            "music", "mother", "ship", "library", "storm", "village", "detective", "kingdom", "science", "recipe",
            "mountain", "friendship", "silence", "revolution", "machine", "ocean", "childhood", "empire", "poetry",
        ]
        var state = UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15
        func word() -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return words[Int(state >> 33) % words.count]
        }
        let title = "The \(word().capitalized) of the \(word().capitalized)"
        let sentences = (0..<8).map { _ in
            "A \(word()) and a \(word()) meet where the \(word()) ends, and nothing about the \(word()) stays the same"
        }
        return "\(title). by Author \(index % 97). Fiction, \(word().capitalized). " + sentences.joined(separator: ". ")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
    }
}
