import Foundation
import GRDB

/// What the hybrid ranking of quotes (DESIGN §14) reads beside the meaning vectors: keyword scores and, for photos
/// found only by meaning, a passage to show.
extension TextSearchStore {
    /// BM25 keyword scores (higher is better) of `userID`'s page photos that have every word of `text`, the words
    /// read on the page and the comment weighing the same; at most 500.
    func quoteScores(of userID: Int64, matching text: String) async throws -> [Int64: Double] {
        guard let query = Self.ftsQuery(text) else { return [:] }
        return try await db.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT photo.id, -bm25(photo_fts) AS score
                    FROM photo_fts JOIN photo ON photo.id = photo_fts.rowid
                    WHERE photo_fts MATCH ? AND photo.user_id = ? AND photo.book_id IS NOT NULL
                    ORDER BY score DESC LIMIT 500
                    """, arguments: [query, userID])
            return Dictionary(rows.map { ($0[0], max(0, $0[1] as Double)) }, uniquingKeysWith: max)
        }
    }

    /// The user's page photos `ids` as quote results, each with the start of its comment and words as the passage.
    func quoteEntries(of userID: Int64, ids: [Int64]) async throws -> [Int64: QuoteMatch] {
        guard !ids.isEmpty else { return [:] }
        return try await db.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT photo.*, book.title AS book_title FROM photo JOIN book ON book.id = photo.book_id
                    WHERE photo.user_id = ? AND photo.id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments([userID] + ids))
            return Dictionary(
                try rows.map { row in
                    let photo = try Photo(row: row)
                    let passage = EmbeddingStore.text(comment: photo.comment, words: photo.ocrText)
                    return (
                        row["id"],
                        QuoteMatch(photo: photo, bookTitle: row["book_title"], snippet: Self.opening(passage))
                    )
                }, uniquingKeysWith: { first, _ in first })
        }
    }
}
