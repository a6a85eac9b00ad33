import Foundation
import GRDB

/// "More like this": the books nearest in meaning to one book, among those the person may discover (their own, and
/// those of members who share: `CatalogVisibility`), each with its reasons.
///
/// Cosine alone only ties a good keyword ranking on "similar to" questions (DESIGN §14), so what a reader means by
/// similar weighs in too: the same series (its other books come first), the same author, and shared categories.
struct SimilarBooks: Sendable {
    let db: AppDatabase

    /// Larger than any cosine gap: the other books of a series lead "More like this".
    static let sameSeriesBonus: Float = 1
    static let sameAuthorBonus: Float = 0.15
    static let sharedCategoryBonus: Float = 0.05
    /// A cosine from which the reasons say "similar themes".
    static let themesFrom: Float = 0.35

    /// How alike two books are to a reader: their cosine, plus a bonus for the same author and for each shared
    /// category (at most three count). Chosen on the "similar to" set in MeaningQualityTests.
    static func score(cosine: Float, sameAuthor: Bool, sharedCategories: Int, sameSeries: Bool = false) -> Float {
        cosine + (sameSeries ? sameSeriesBonus : 0) + (sameAuthor ? sameAuthorBonus : 0) + sharedCategoryBonus
            * Float(min(sharedCategories, 3))
    }

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

    /// How many books, nearest in meaning, are looked at in full (authors, categories) before the final order.
    static let shortlist = 48

    /// Up to `limit` books like `bookID`, best first; `userID` nil (a keyless API call) finds none.
    /// nil when the book has no vector yet.
    ///
    /// In two passes, so a book page stays fast with a large catalog: every visible vector is scored from its bytes
    /// alone, then only the nearest `shortlist` and the books sharing an author are read in full and scored with
    /// their bonuses.
    func like(bookID: Int64, userID: Int64?, limit: Int) async throws -> [Similar]? {
        try await db.read { db in
            guard let book = try Book.fetchOne(db, key: bookID),
                let vector = MeaningVector.decode(
                    try Data.fetchOne(
                        db, sql: "SELECT vector FROM book_embedding WHERE book_id = ? AND model = ?",
                        arguments: [bookID, TextEmbedder.modelID]))
            else { return nil }
            let visible = """
                book_embedding.model = ? AND book_embedding.vector IS NOT NULL AND book.id != ?
                    AND (book.isbn13 IS NULL OR book.isbn13 IS NOT ?) AND \(CatalogVisibility.clause)
                """
            let visibleArguments: StatementArguments =
                [TextEmbedder.modelID, bookID, book.isbn13] + CatalogVisibility.arguments(userID)
            var cosines: [Int64: Float] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT book.id, book_embedding.vector FROM book
                    JOIN book_embedding ON book_embedding.book_id = book.id WHERE \(visible)
                    """, arguments: visibleArguments)
            while let row = try rows.next() {
                if let cosine = MeaningVector.dot(vector, stored: row[1]) { cosines[row[0]] = cosine }
            }
            let authors = Set(book.authors.map(Self.nameKey))
            var shortlist = Set(
                cosines.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(Self.shortlist)
                    .map(\.key))
            if !authors.isEmpty {
                // Books by the same author, however far in meaning ("J. K." and "J.K." compared without dots and
                // spaces here, letter by letter below).
                let keys = book.authors.map { $0.lowercased().filter { $0 != " " && $0 != "." } }
                let sameAuthor = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT DISTINCT book.id FROM book_author
                        JOIN book ON book.id = book_author.book_id
                        JOIN book_embedding ON book_embedding.book_id = book.id
                        WHERE replace(replace(lower(book_author.name), ' ', ''), '.', '')
                            IN (\(keys.map { _ in "?" }.joined(separator: ","))) AND \(visible)
                        LIMIT 200
                        """, arguments: StatementArguments(keys) + visibleArguments)
                shortlist.formUnion(sameAuthor)
            }
            if let series = book.series {
                shortlist.formUnion(
                    try Int64.fetchAll(
                        db,
                        sql: """
                            SELECT book.id FROM book JOIN book_embedding ON book_embedding.book_id = book.id
                            WHERE book.series = ? COLLATE NOCASE AND \(visible) LIMIT 200
                            """, arguments: StatementArguments([series]) + visibleArguments))
            }
            guard !shortlist.isEmpty else { return [] }
            let ids = Array(shortlist)
            let categories = Set(book.categories.map { $0.lowercased() })
            let candidates = try Row.fetchAll(
                db,
                sql: """
                    SELECT book.*, user_book.shelf AS my_shelf FROM book
                    LEFT JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = ?
                    WHERE book.id IN (\(ids.map { _ in "?" }.joined(separator: ",")))
                    """, arguments: StatementArguments([userID]) + StatementArguments(ids))
            var found: [Similar] = []
            for row in candidates {
                let candidate = try Book(row: row)
                guard let cosine = cosines[candidate.id!] else { continue }
                let sameAuthor = !authors.isDisjoint(with: candidate.authors.map(Self.nameKey))
                let shared = candidate.categories.filter { categories.contains($0.lowercased()) }
                let sameSeries =
                    book.series != nil && candidate.series?.caseInsensitiveCompare(book.series!) == .orderedSame
                var reasons: [String] = []
                if sameSeries, let place = candidate.seriesPlace { reasons.append(place.phrase) }
                if sameAuthor {
                    reasons.append("Also by \(candidate.authors.first { authors.contains(Self.nameKey($0)) } ?? "")")
                }
                if !shared.isEmpty { reasons.append("Also in \(shared.prefix(2).joined(separator: ", "))") }
                if cosine >= Self.themesFrom { reasons.append("Similar themes") }
                guard !reasons.isEmpty else { continue }
                let score = Self.score(
                    cosine: cosine, sameAuthor: sameAuthor, sharedCategories: shared.count, sameSeries: sameSeries)
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
