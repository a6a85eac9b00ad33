import Foundation
import GRDB

extension MeaningSearch {
    /// One book of the server's catalog ranked for a query.
    struct CatalogMatch: Sendable {
        let book: Book
        let score: Float
    }

    /// The books the server knows that the caller may discover (`CatalogVisibility`: theirs, and those of members who
    /// share; nothing without a key) — ranked by meaning (`hybrid`: plus 0.2 when every word typed is in the book's text), best first,
    /// with how many passed the floor. nil without a usable model, or when the caller's minute of questions by
    /// meaning is spent.
    ///
    /// Every visible vector is scored from its bytes; only the nearest (enough for the page asked for) are read in
    /// full, so a large catalog costs a scan of small blobs, not of every book row.
    func catalog(
        userID: Int64?, matching query: String, hybrid: Bool, limit: Int, offset: Int
    ) async throws -> (total: Int, matches: [CatalogMatch])? {
        guard let vector = try await queryVector(query, for: userID).vector else { return nil }
        let words = query.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
        return try await embeddings.db.read { db -> (total: Int, matches: [CatalogMatch]) in
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT book.id, book_embedding.vector FROM book
                    JOIN book_embedding ON book_embedding.book_id = book.id
                    WHERE book_embedding.model = ? AND book_embedding.vector IS NOT NULL AND \(CatalogVisibility.clause)
                    """, arguments: [TextEmbedder.modelID] + CatalogVisibility.arguments(userID))
            var cosines: [(id: Int64, cosine: Float)] = []
            while let row = try rows.next() {
                if let cosine = try row.withUnsafeData(atIndex: 1, { MeaningVector.dot(vector, stored: $0) }) {
                    cosines.append((row[0], cosine))
                }
            }
            let passing = cosines.filter { $0.cosine >= Self.meaningFloor }
                .sorted { $0.cosine != $1.cosine ? $0.cosine > $1.cosine : $0.id < $1.id }
            let shortlist = Array(passing.prefix(max(offset + limit, 0) + 48))
            guard !shortlist.isEmpty else { return (0, []) }
            let books = try Book.fetchAll(
                db, sql: "SELECT * FROM book WHERE id IN (\(shortlist.map { _ in "?" }.joined(separator: ",")))",
                arguments: StatementArguments(shortlist.map(\.id)))
            let cosineOf = Dictionary(uniqueKeysWithValues: shortlist.map { ($0.id, $0.cosine) })
            let ranked = books.map { book -> CatalogMatch in
                var score = cosineOf[book.id!] ?? 0
                if hybrid, !words.isEmpty {
                    let text = EmbeddingStore.text(of: book).lowercased()
                    if words.allSatisfy({ text.contains($0) }) { score += Self.wordsWeight }
                }
                return CatalogMatch(book: book, score: score)
            }
            // One answer per edition: a shared row and someone's own copy of it are the same book to the caller.
            var seen = Set<String>()
            let unique = ranked.sorted { $0.score != $1.score ? $0.score > $1.score : $0.book.id! < $1.book.id! }
                .filter { seen.insert($0.book.isbn13 ?? "id:\($0.book.id!)").inserted }
            return (passing.count, Array(unique.dropFirst(offset).prefix(limit)))
        }
    }

    /// The catalog books `userID` may discover whose title, authors or description hold every word of `query` (no
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
            let visible = CatalogVisibility.clause
            let arguments = CatalogVisibility.arguments(userID) + StatementArguments(patterns)
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
    /// The catalog row with this ISBN that `userID` may discover (`CatalogVisibility`), preferring their own copy;
    /// nil when there is none — whether the server knows no such book or the caller may not see it, the answer is the
    /// same, so asking is no test of what the house reads.
    func catalogBook(isbn13: String, visibleTo userID: Int64?) async throws -> Int64? {
        try await db.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT book.id FROM book WHERE book.isbn13 = ? AND \(CatalogVisibility.clause)
                    ORDER BY book.owner_user_id IS NULL, book.id LIMIT 1
                    """, arguments: [isbn13] + CatalogVisibility.arguments(userID))
        }
    }
}
