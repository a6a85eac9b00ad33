import Foundation
import Synchronization

/// Ranks a person's own books by meaning and words together (hybrid search, DESIGN §14): the cosine between the
/// query's vector and each book's, plus the keyword score (FTS5's BM25 over books that have every word typed)
/// scaled to the best keyword match.
///
/// Chosen on the test set in `Tests/ShelfedKitTests/MeaningSearchTests.swift` (real descriptions, nine questions
/// that avoid their books' words): meaning 0.8, words 0.2 put the right book first for 8 of 9 and in the top 3 for
/// all; 0.6/0.4 did no better, and scoring books that have only *some* of the words (BM25 over an OR query) pushed
/// paraphrases down to #2–#6, because a question's common words match everywhere. The word score still puts a
/// typed title or author first. On the larger set in MeaningQualityTests (30 questions) meaning alone puts 77 % first
/// and all in the top 5 (benchmarks/README.md).
struct MeaningSearch: Sendable {
    let embeddings: EmbeddingStore
    let textSearch: TextSearchStore
    /// nil: no model configured; keywords only.
    let embedder: TextEmbedder?
    /// Each question by meaning costs ~11 ms of CPU on this machine (more on a Pi): a person gets
    /// `questionsPerMinute` of them across every page and API route that ranks by meaning, then words alone for the
    /// rest of the minute (issue 35: one account sent 4,800 a minute). Counted per person, not per key or sign-in.
    var budget: RateLimiter? = nil
    static let questionsPerMinute = 30
    /// The vectors of the last questions asked: a page reloaded, or paged, asks the model nothing and spends nothing
    /// of the person's minute.
    var recent = RecentQuestions()

    static let meaningWeight: Float = 0.8
    static let wordsWeight: Float = 0.2
    /// Below this cosine a book that no keyword matched is not shown: it is about something else.
    static let meaningFloor: Float = 0.1

    /// How a list of results was ranked, for the line above them.
    enum Mode: String, Sendable {
        case hybrid, text
        /// The person asked more than `questionsPerMinute`: words alone until the minute is over.
        case resting
    }

    /// One book (or, for quotes, one photo) in a ranking.
    struct Ranked: Sendable {
        let id: Int64
        let score: Float
        /// The query's cosine to the item; nil when ranked by keywords alone.
        let meaning: Float?
        let keywords: Float
    }

    /// The user's books for `query`, best first, at most `limit`; `.text` when there is no model to rank by meaning.
    func library(of userID: Int64, matching query: String, limit: Int) async throws -> (Mode, [Ranked]) {
        let keywordScores = try await textSearch.libraryScores(of: userID, matching: query)
        let (vector, mode) = try await queryVector(query, for: userID)
        guard let vector else { return (mode, Self.rank(keywordScores: keywordScores, cosines: nil, limit: limit)) }
        let cosines = try await embeddings.libraryCosines(of: userID, to: vector, model: TextEmbedder.modelID)
        return (.hybrid, Self.rank(keywordScores: keywordScores, cosines: cosines, limit: limit))
    }

    /// The user's page photos for `query` (their words and comments), best first, at most `limit`; `.text` when
    /// there is no model. The same weights as the library's: a remembered phrase typed word for word still wins.
    func quotes(of userID: Int64, matching query: String, limit: Int) async throws -> (Mode, [Ranked]) {
        let keywordScores = try await textSearch.quoteScores(of: userID, matching: query)
        let (vector, mode) = try await queryVector(query, for: userID)
        guard let vector else { return (mode, Self.rank(keywordScores: keywordScores, cosines: nil, limit: limit)) }
        let cosines = try await embeddings.photoCosines(of: userID, to: vector, model: TextEmbedder.modelID)
        return (.hybrid, Self.rank(keywordScores: keywordScores, cosines: cosines, limit: limit))
    }

    /// The query's vector, or nil with why: no model (`.text`) or the person's minute is spent (`.resting`); a
    /// caller without an account asks nothing of the model.
    func queryVector(_ query: String, for userID: Int64?) async throws -> (vector: [Float]?, mode: Mode) {
        guard let embedder, let userID else { return (nil, .text) }
        if let known = recent.vector(for: query, of: userID) { return (known, .hybrid) }
        if let budget, await budget.admit("meaning user-\(userID)", limit: Self.questionsPerMinute) != nil {
            return (nil, .resting)
        }
        let vector = try await embedder.embed([query])?.first
        if let vector { recent.keep(vector, for: query, of: userID) }
        return (vector, .hybrid)
    }

    /// Meaning and words together: each item's cosine plus its BM25 score scaled to the best one. Items without a
    /// vector yet are still found by their words; without `cosines` (no model) the words alone rank.
    static func rank(keywordScores: [Int64: Double], cosines: [(id: Int64, cosine: Float)]?, limit: Int) -> [Ranked] {
        let best = keywordScores.values.max() ?? 0
        func scaled(_ id: Int64) -> Float { best > 0 ? Float((keywordScores[id] ?? 0) / best) : 0 }
        guard let cosines else {
            let ranked = keywordScores.keys.map {
                Ranked(id: $0, score: scaled($0), meaning: nil, keywords: scaled($0))
            }
            return Array(ranked.sorted(by: better).prefix(limit))
        }
        var ranked: [Ranked] = []
        var seen = Set<Int64>()
        for (id, meaning) in cosines {
            seen.insert(id)
            let keywords = scaled(id)
            guard meaning >= meaningFloor || keywords > 0 else { continue }
            ranked.append(
                Ranked(
                    id: id, score: meaningWeight * meaning + wordsWeight * keywords, meaning: meaning,
                    keywords: keywords))
        }
        for id in keywordScores.keys where !seen.contains(id) {
            let keywords = scaled(id)
            ranked.append(Ranked(id: id, score: wordsWeight * keywords, meaning: nil, keywords: keywords))
        }
        return Array(ranked.sorted(by: better).prefix(limit))
    }

    private static func better(_ a: Ranked, _ b: Ranked) -> Bool {
        a.score != b.score ? a.score > b.score : a.id < b.id
    }
}

/// The last few questions' vectors, newest last, each kept for the person who asked it: how fast an answer comes
/// must not tell anyone what someone else in the house asked. A vector is 1.5 KB; `limit` of them stay small.
final class RecentQuestions: Sendable {
    static let limit = 32
    private let kept = Mutex<[(userID: Int64, query: String, vector: [Float])]>([])

    func vector(for query: String, of userID: Int64) -> [Float]? {
        kept.withLock { kept in kept.last { $0.userID == userID && $0.query == query }?.vector }
    }

    func keep(_ vector: [Float], for query: String, of userID: Int64) {
        kept.withLock { kept in
            kept.removeAll { $0.userID == userID && $0.query == query }
            kept.append((userID, query, vector))
            if kept.count > Self.limit { kept.removeFirst(kept.count - Self.limit) }
        }
    }
}
