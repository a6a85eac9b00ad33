import Foundation
import GRDB

/// "More like this": the books nearest in meaning to one book, from the person's own library and from the books
/// the server knows from providers — never another member's typed or imported rows — each with its reasons.
///
/// Cosine alone only ties a good keyword ranking on "similar to" questions (DESIGN §14), so what a reader means by
/// similar weighs in too: the same author, and shared categories. (Series join when the reading-life issue stores
/// them.)
struct SimilarBooks: Sendable {
    let db: AppDatabase

    static let sameAuthorBonus: Float = 0.15
    static let sharedCategoryBonus: Float = 0.05
    /// A cosine from which the reasons say "similar themes".
    static let themesFrom: Float = 0.35

    /// An author's name as compared: letters only, lower case ("J.K. Rowling" and "J. K. Rowling" are one author).
    static func nameKey(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic }.map(Character.init))
    }

    struct Similar: Sendable {
        let book: Book
        let score: Float
        let reasons: [String]
        /// The person's shelf for it, or nil when it is not in their library.
        let shelf: Shelf?
    }

    /// Up to `limit` books like `bookID`, best first; `userID` nil (a keyless API call) ranks shared rows only.
    /// nil when the book has no vector yet.
    func like(bookID: Int64, userID: Int64?, limit: Int) async throws -> [Similar]? {
        try await db.read { db in
            guard let book = try Book.fetchOne(db, key: bookID),
                let vector = MeaningVector.decode(
                    try Data.fetchOne(
                        db, sql: "SELECT vector FROM book_embedding WHERE book_id = ? AND model = ?",
                        arguments: [bookID, TextEmbedder.modelID]))
            else { return nil }
            let authors = Set(book.authors.map(Self.nameKey))
            let categories = Set(book.categories.map { $0.lowercased() })
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT book.*, book_embedding.vector AS meaning, user_book.shelf AS my_shelf
                    FROM book JOIN book_embedding ON book_embedding.book_id = book.id
                    LEFT JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = ?
                    WHERE book_embedding.model = ? AND book_embedding.vector IS NOT NULL AND book.id != ?
                        AND (book.owner_user_id IS NULL OR book.owner_user_id = ?)
                        AND (book.isbn13 IS NULL OR book.isbn13 IS NOT ?)
                    """, arguments: [userID, TextEmbedder.modelID, bookID, userID, book.isbn13])
            var found: [Similar] = []
            while let row = try rows.next() {
                guard let cosine = MeaningVector.dot(vector, stored: row["meaning"]) else { continue }
                let candidate = try Book(row: row)
                let sameAuthor = !authors.isDisjoint(with: candidate.authors.map(Self.nameKey))
                let shared = candidate.categories.filter { categories.contains($0.lowercased()) }
                var reasons: [String] = []
                if sameAuthor {
                    reasons.append("Also by \(candidate.authors.first { authors.contains(Self.nameKey($0)) } ?? "")")
                }
                if !shared.isEmpty { reasons.append("Also in \(shared.prefix(2).joined(separator: ", "))") }
                if cosine >= Self.themesFrom { reasons.append("Similar themes") }
                guard !reasons.isEmpty else { continue }
                let score =
                    cosine + (sameAuthor ? Self.sameAuthorBonus : 0)
                    + Self.sharedCategoryBonus * Float(min(shared.count, 3))
                found.append(
                    Similar(
                        book: candidate, score: score, reasons: reasons,
                        shelf: (row["my_shelf"] as String?).flatMap(Shelf.init(rawValue:))))
            }
            // The same book twice (a shared row and someone's own copy of it) is shown once.
            var seen = Set<String>()
            return found.sorted { $0.score != $1.score ? $0.score > $1.score : $0.book.id! < $1.book.id! }
                .filter { seen.insert($0.book.isbn13 ?? "id:\($0.book.id!)").inserted }
                .prefix(limit).map { $0 }
        }
    }
}
