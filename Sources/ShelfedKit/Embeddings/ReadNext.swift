import Foundation
import GRDB

/// "Read next": the books on a person's Want-to-read shelf nearest in meaning to the books they loved — rated 4 stars
/// or more, or marked favourite — each with the loved book it is most like ("because you loved *Dune*"). Only the
/// person's own books take part, both ways.
struct ReadNext: Sendable {
    let db: AppDatabase

    /// From this rating a book counts as loved.
    static let lovedRating = 4.0
    static let sameAuthorBonus: Float = 0.1
    /// Below this a want-to-read book is not much like anything loved: "because you loved *Batman*" under a cookbook
    /// would be noise, so it is not suggested at all.
    static let floor: Float = 0.25

    struct Suggestion: Sendable {
        let bookID: Int64
        let title: String
        let authors: String
        let coverPath: String?
        let isbn: String?
        let because: String
        let score: Float
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
            let loved = try books(
                "user_book.shelf IN ('read', 'reading') AND (user_book.rating >= ? OR user_book.favourite = 1)",
                [Self.lovedRating])
            guard !loved.isEmpty else { return .nothingLoved }
            let wanted = try books("user_book.shelf = 'want_to_read'")
            guard !wanted.isEmpty else { return .nothingWanted }
            let suggestions = wanted.map { candidate -> Suggestion in
                let authors = Set(candidate.book.authors.map(SimilarBooks.nameKey))
                var best: (score: Float, title: String) = (-2, "")
                for favourite in loved {
                    var score = MeaningVector.dot(candidate.vector, favourite.vector)
                    if !authors.isDisjoint(with: favourite.book.authors.map(SimilarBooks.nameKey)) {
                        score += Self.sameAuthorBonus
                    }
                    if score > best.score { best = (score, favourite.book.title) }
                }
                return Suggestion(
                    bookID: candidate.id, title: candidate.book.title,
                    authors: candidate.book.authors.joined(separator: ", "), coverPath: candidate.book.coverPath,
                    isbn: candidate.book.isbn13 ?? candidate.book.isbn10, because: best.title, score: best.score)
            }
            let alike = suggestions.filter { $0.score >= Self.floor }
            guard !alike.isEmpty else { return .nothingAlike }
            return .suggestions(
                Array(alike.sorted { $0.score != $1.score ? $0.score > $1.score : $0.bookID < $1.bookID }.prefix(limit))
            )
        }
    }
}
