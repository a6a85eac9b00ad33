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
        /// A book, a film or a show: Read next suggests across kinds (issue 38), from the same vectors.
        var kind: TitleKind = .book
        /// What `because` is, said when it differs from the suggestion's kind ("the book *Dune*").
        var becauseKind: TitleKind? = nil
        /// Who in the house recommended it, by name.
        var recommendedBy: [String] = []
        var score: Float

        /// The reasons as sentences, a person's recommendation first.
        var reasons: [String] {
            (recommendedBy.isEmpty ? [] : ["Recommended by " + recommendedBy.joined(separator: " and ")])
                + (because.map { ["Because you loved \(becauseLead)\($0)"] } ?? [])
        }

        /// "the book ", "the film ", "the show " before the loved title when it is of another kind than the
        /// suggestion (a film suggested to a reader says which book it is like); nothing when they are alike.
        var becauseLead: String {
            guard let becauseKind, becauseKind != kind else { return "" }
            return switch becauseKind {
            case .book: "the book "
            case .movie: "the film "
            case .show: "the show "
            }
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

    /// The suggestions from the stored ranking; a stale ranking (a change since it was made that the background
    /// ranker has not reached yet) is made again first, so the page never shows what the person just changed.
    func suggestions(for userID: Int64, limit: Int) async throws -> Outcome {
        if let outcome = try await db.read({ db in try Self.storedSuggestions(for: userID, limit: limit, db) }) {
            return outcome
        }
        try await rank(userID)
        return try await db.read { db in
            // Still stale only when another change came in meanwhile: this page shows the ranking just made.
            try Self.storedSuggestions(for: userID, limit: limit, db, evenIfStale: true)
                ?? .nothingLoved
        }
    }

    /// nil when the stored ranking is stale (or missing) and `evenIfStale` is not set.
    private static func storedSuggestions(
        for userID: Int64, limit: Int, _ db: Database, evenIfStale: Bool = false
    ) throws -> Outcome? {
        guard
            let state = try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT changes, ranked_changes, loved, wanted FROM read_next_state WHERE user_id = ?"),
                arguments: [userID]),
            let ranked: Int64 = state["ranked_changes"], evenIfStale || ranked == state["changes"] as Int64
        else { return nil }
        let recommended = try Self.recommendedWanted(for: userID, db)
        // Only what a suggestion shows, by position: a whole `Book` decoded column by column name for each row was
        // a sixth of the home page.
        let matchQuery = """
            SELECT book.id, book.title, book.authors, book.cover_path, book.isbn13, book.isbn10, book.kind,
                because.title, because.kind, read_next_match.score
            FROM read_next_match JOIN book ON book.id = read_next_match.book_id
            LEFT JOIN book AS because ON because.id = read_next_match.because_book_id
            WHERE read_next_match.user_id = ?
            """
        var rows = try Row.fetchAll(
            db.cachedStatement(
                sql: matchQuery + " ORDER BY read_next_match.score DESC, read_next_match.book_id LIMIT ?"),
            arguments: [userID, limit])
        let missing = Set(recommended.keys).subtracting(rows.map { $0[0] as Int64 })
        if !missing.isEmpty {
            rows += try Row.fetchAll(
                db.cachedStatement(
                    sql: matchQuery + " AND read_next_match.book_id IN (SELECT value FROM json_each(?))"),
                arguments: [userID, SimilarBooks.jsonList(Array(missing))])
        }
        var chosen: [Int64: Suggestion] = [:]
        for row in rows {
            let bookID: Int64 = row[0]
            let score: Double = row[9]
            chosen[bookID] = Suggestion(
                bookID: bookID, title: row[1], authors: Book.strings(row[2]).joined(separator: ", "),
                coverPath: row[3], isbn: (row[4] as String?) ?? row[5], because: row[7],
                kind: (row[6] as String?).flatMap(TitleKind.init(rawValue:)) ?? .book,
                becauseKind: (row[8] as String?).flatMap(TitleKind.init(rawValue:)), score: Float(score))
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
            if state["loved"] as Int == 0 { return .nothingLoved }
            return state["wanted"] as Int == 0 ? .nothingWanted : .nothingAlike
        }
        return .suggestions(
            Array(
                chosen.values.sorted { $0.score != $1.score ? $0.score > $1.score : $0.bookID < $1.bookID }.prefix(
                    limit)
            ))
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
            coverPath: book.coverPath, isbn: book.isbn13 ?? book.isbn10, because: because, kind: book.kind,
            score: score)
    }
}
