import Foundation
import GRDB

extension MeaningSearch {
    /// One book of the server's catalog ranked for a query.
    struct CatalogMatch: Sendable {
        let book: Book
        let score: Float
    }

    /// The books the server knows — provider rows, and the caller's own typed or imported ones (never another
    /// person's) — ranked by meaning (`hybrid`: plus 0.2 when every word typed is in the book's text), best first,
    /// with how many passed the floor. nil without a usable model.
    func catalog(
        userID: Int64?, matching query: String, hybrid: Bool, limit: Int, offset: Int
    ) async throws -> (total: Int, matches: [CatalogMatch])? {
        guard let embedder, let vector = try await embedder.embed([query])?.first else { return nil }
        let words = query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        let ranked = try await embeddings.db.read { db -> [CatalogMatch] in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT book.*, book_embedding.vector AS meaning FROM book
                    JOIN book_embedding ON book_embedding.book_id = book.id
                    WHERE book_embedding.model = ? AND book_embedding.vector IS NOT NULL
                        AND (book.owner_user_id IS NULL OR book.owner_user_id = ?)
                    """, arguments: [TextEmbedder.modelID, userID])
            var matches: [CatalogMatch] = []
            while let row = try rows.next() {
                guard let meaning = MeaningVector.dot(vector, stored: row["meaning"]) else { continue }
                let book = try Book(row: row)
                var score = meaning
                if hybrid, !words.isEmpty {
                    let text = EmbeddingStore.text(of: book).lowercased()
                    if words.allSatisfy({ text.contains($0) }) { score += Self.wordsWeight }
                }
                guard meaning >= Self.meaningFloor || score > meaning else { continue }
                matches.append(CatalogMatch(book: book, score: score))
            }
            return matches
        }
        // One answer per edition: a shared row and someone's own copy of it are the same book to the caller.
        var seen = Set<String>()
        let unique = ranked.sorted { $0.score != $1.score ? $0.score > $1.score : $0.book.id! < $1.book.id! }
            .filter { seen.insert($0.book.isbn13 ?? "id:\($0.book.id!)").inserted }
        return (unique.count, Array(unique.dropFirst(offset).prefix(limit)))
    }
}

extension MeaningSearch {
    /// The catalog books visible to `userID` whose title, authors or description hold every word of `query` (no
    /// model needed, no network): what a semantic search answers on a server without its model. Titles first.
    func catalogByWords(userID: Int64?, matching query: String, limit: Int, offset: Int) async throws -> (
        total: Int, books: [Book]
    ) {
        let words = query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).prefix(12)
            .map(String.init)
        guard !words.isEmpty else { return (0, []) }
        // LIKE with the pattern characters escaped, one clause per word; the words are arguments, never SQL.
        let clause = words.map { _ in
            "(book.title || ' ' || book.author_names || ' ' || COALESCE(book.description, '')) LIKE ? ESCAPE '\\'"
        }.joined(separator: " AND ")
        let patterns = words.map { word in
            "%"
                + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
        }
        return try await embeddings.db.read { db in
            let visible = "(book.owner_user_id IS NULL OR book.owner_user_id = ?)"
            let arguments = StatementArguments([userID] as [Int64?]) + StatementArguments(patterns)
            let total =
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM book WHERE \(visible) AND \(clause)", arguments: arguments) ?? 0
            let books = try Book.fetchAll(
                db,
                sql: """
                    SELECT book.* FROM book WHERE \(visible) AND \(clause)
                    ORDER BY (lower(book.title) LIKE ? ESCAPE '\\') DESC, book.title, book.id LIMIT ? OFFSET ?
                    """, arguments: arguments + [patterns[0], limit, offset])
            return (total, books)
        }
    }
}

extension EmbeddingStore {
    /// The catalog row with this ISBN that `userID` may see (a provider's, or their own; without a key, a provider's
    /// only), preferring their own copy; nil when the server knows none.
    func catalogBook(isbn13: String, visibleTo userID: Int64?) async throws -> Int64? {
        try await db.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT id FROM book WHERE isbn13 = ? AND (owner_user_id IS NULL OR owner_user_id = ?)
                    ORDER BY owner_user_id IS NULL, id LIMIT 1
                    """, arguments: [isbn13, userID])
        }
    }
}
