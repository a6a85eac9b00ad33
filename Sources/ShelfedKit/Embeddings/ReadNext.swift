import Foundation
import GRDB

/// "Read next": the books on a person's Want-to-read shelf nearest in meaning to the books they loved — rated 4 stars
/// or more, or marked favourite — each with the loved book it is most like ("because you loved *Dune*"). Only the
/// person's own books take part, both ways. A book on that shelf that someone in the house recommended (issue 25) comes
/// first, "recommended by Sam", whether or not it is like anything loved, and whether or not it has a vector yet.
struct ReadNext: Sendable {
    let db: AppDatabase

    /// From this rating a book counts as loved.
    static let lovedRating = 4.0
    static let sameAuthorBonus: Float = 0.1
    /// Below this a want-to-read book is not much like anything loved: "because you loved *Batman*" under a cookbook
    /// would be noise, so it is not suggested at all.
    static let floor: Float = 0.25
    /// Added to a recommended book's score: more than any likeness (a dot product of unit vectors is at most 1, plus
    /// the author bonus), so a person's recommendation ranks above the model's guesses.
    static let recommendedBonus: Float = 2

    struct Suggestion: Sendable {
        let bookID: Int64
        let title: String
        let authors: String
        let coverPath: String?
        let isbn: String?
        /// The loved book it is most like; nil for a recommended book that is like none of them.
        var because: String?
        /// Who in the house recommended it, by name.
        var recommendedBy: [String] = []
        var score: Float

        /// The reasons as sentences, a person's recommendation first.
        var reasons: [String] {
            (recommendedBy.isEmpty ? [] : ["Recommended by " + recommendedBy.joined(separator: " and ")])
                + (because.map { ["Because you loved \($0)"] } ?? [])
        }
    }

    /// What is needed before there can be suggestions.
    enum Outcome: Sendable {
        case suggestions([Suggestion])
        /// No loved book with a vector yet.
        case nothingLoved
        /// Nothing on Want to read (with a vector yet).
        case nothingWanted
        /// Nothing on Want to read is much like the loved books.
        case nothingAlike
    }

    func suggestions(for userID: Int64, limit: Int) async throws -> Outcome {
        try await db.read { db in
            func books(_ condition: String, _ extra: StatementArguments = []) throws -> [(
                id: Int64, book: Book, vector: [Float]
            )] {
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT book.*, book_embedding.vector AS meaning FROM user_book
                        JOIN book ON book.id = user_book.book_id
                        JOIN book_embedding ON book_embedding.book_id = book.id
                        WHERE user_book.user_id = ? AND book_embedding.model = ? AND book_embedding.vector IS NOT NULL
                            AND \(condition)
                        """, arguments: [userID, TextEmbedder.modelID] + extra
                ).compactMap { row in
                    guard let vector = MeaningVector.decode(row["meaning"]) else { return nil }
                    let book = try Book(row: row)
                    return (book.id!, book, vector)
                }
            }
            let recommended = try Self.recommendedWanted(for: userID, db)
            let loved = try books(
                "user_book.shelf IN ('read', 'reading') AND (user_book.rating >= ? OR user_book.favourite = 1)",
                [Self.lovedRating])
            let wanted = loved.isEmpty ? [] : try books("user_book.shelf = 'want_to_read'")
            var chosen: [Int64: Suggestion] = [:]
            for candidate in wanted {
                let authors = Set(candidate.book.authors.map(SimilarBooks.nameKey))
                var best: (score: Float, title: String) = (-2, "")
                for favourite in loved {
                    var score = MeaningVector.dot(candidate.vector, favourite.vector)
                    if !authors.isDisjoint(with: favourite.book.authors.map(SimilarBooks.nameKey)) {
                        score += Self.sameAuthorBonus
                    }
                    if score > best.score { best = (score, favourite.book.title) }
                }
                guard best.score >= Self.floor else { continue }
                chosen[candidate.id] = Suggestion(candidate.book, because: best.title, score: best.score)
            }
            for (bookID, names) in recommended {
                if chosen[bookID] == nil {
                    guard let book = try Book.fetchOne(db, key: bookID) else { continue }
                    chosen[bookID] = Suggestion(book, because: nil, score: 0)
                }
                chosen[bookID]?.recommendedBy = names
                chosen[bookID]?.score += Self.recommendedBonus
            }
            guard !chosen.isEmpty else {
                if loved.isEmpty { return .nothingLoved }
                return wanted.isEmpty ? .nothingWanted : .nothingAlike
            }
            let alike = Array(chosen.values)
            return .suggestions(
                Array(alike.sorted { $0.score != $1.score ? $0.score > $1.score : $0.bookID < $1.bookID }.prefix(limit))
            )
        }
    }

    /// The person's Want-to-read books that someone recommended to them (the same catalog row or ISBN-13) and they
    /// have not dismissed, each with the recommenders' names.
    private static func recommendedWanted(for userID: Int64, _ db: Database) throws -> [Int64: [String]] {
        var names: [Int64: [String]] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT DISTINCT mine.book_id, user.display_name FROM recommendation
                    JOIN user ON user.id = recommendation.from_user
                    JOIN book ON book.id = recommendation.book_id
                    JOIN user_book AS mine ON mine.user_id = recommendation.to_user AND mine.shelf = 'want_to_read'
                    JOIN book AS same ON same.id = mine.book_id
                        AND (same.id = book.id OR (book.isbn13 IS NOT NULL AND same.isbn13 = book.isbn13))
                    WHERE recommendation.to_user = ? AND recommendation.dismissed_at IS NULL
                    ORDER BY user.display_name COLLATE NOCASE LIMIT 200
                    """), arguments: [userID])
        while let row = try rows.next() {
            names[row[0], default: []].append(row[1])
        }
        return names
    }
}

extension ReadNext.Suggestion {
    fileprivate init(_ book: Book, because: String?, score: Float) {
        self.init(
            bookID: book.id!, title: book.title, authors: book.authors.joined(separator: ", "),
            coverPath: book.coverPath, isbn: book.isbn13 ?? book.isbn10, because: because, score: score)
    }
}
