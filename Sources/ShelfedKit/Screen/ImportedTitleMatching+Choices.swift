import Foundation
import GRDB
import Hummingbird

extension ImportedTitleMatching {
    /// An imported row waiting for its person's choice, with the titles that fit it.
    struct Choice: Sendable {
        struct Option: Sendable {
            let position: Int
            let candidate: Candidate
            let fieldID: String
            let label: String
            let source: String

            init(position: Int, candidate: Candidate, bookID: Int64) {
                self.position = position
                self.candidate = candidate
                fieldID = "choice-\(bookID)-\(position)"
                label =
                    candidate.title + (candidate.year.map { " (\($0))" } ?? "")
                    + (candidate.makers.isEmpty ? "" : " — " + candidate.makers)
                source = candidate.source.displayName
            }
        }

        let bookID: Int64
        let kind: TitleKind
        let heading: String
        /// "Your film is", over the titles to choose from.
        let legend: String
        let bookPath: String
        let formPath: String
        let noneID: String
        var candidates: [Option]
        var error: String? = nil

        init(bookID: Int64, kind: TitleKind, title: String, year: Int?, candidates: [Option]) {
            self.bookID = bookID
            self.kind = kind
            heading = title + (year.map { " (\($0))" } ?? "")
            switch kind {
            case .book: legend = localized("Your book is")
            case .movie: legend = localized("Your film is")
            case .show: legend = localized("Your TV show is")
            }
            bookPath = Route.book.link(bookID)
            formPath = Route.titleMatchChoice.link(bookID)
            noneID = "choice-\(bookID)-none"
            self.candidates = candidates
        }
    }

    /// How many imported rows the review page lists at a time.
    static let reviewPageSize = 50

    /// How many of the person's imported rows wait for a choice.
    func waitingCount(of userID: Int64) async throws -> Int {
        try await db.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM book
                    WHERE owner_user_id = ? AND title_match = 'review' AND provider_key IS NULL
                    """, arguments: [userID]) ?? 0
        }
    }

    /// Where `bookID` is among the person's rows waiting for a choice (0 first), or nil when it waits for none.
    func waitingPlace(of userID: Int64, bookID: Int64) async throws -> Int? {
        try await db.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM book AS other
                            WHERE other.owner_user_id = book.owner_user_id AND other.title_match = 'review'
                                AND other.provider_key IS NULL
                                AND (other.title_key, other.id) < (book.title_key, book.id))
                    FROM book
                    WHERE book.id = ? AND book.owner_user_id = ? AND book.title_match = 'review'
                        AND book.provider_key IS NULL
                    """, arguments: [bookID, userID])
        }
    }

    /// The person's imported rows waiting for a choice, by title, `reviewPageSize` a page; or only `bookID`.
    func waitingForChoice(of userID: Int64, bookID: Int64? = nil, page: Int = 1) async throws -> [Choice] {
        let offset = (max(1, page) - 1) * Self.reviewPageSize
        return try await db.read { db in
            var choices: [Choice] = []
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, kind, title, published_date FROM book
                    WHERE owner_user_id = ? AND title_match = 'review' AND provider_key IS NULL
                        AND id = COALESCE(?, id)
                    ORDER BY title_key, id LIMIT ? OFFSET ?
                    """, arguments: [userID, bookID, Self.reviewPageSize, offset])
            {
                let bookID: Int64 = row["id"]
                let published: String? = row["published_date"]
                let options = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT position, source, provider_id, title, year, makers FROM title_candidate
                        WHERE book_id = ? ORDER BY position
                        """, arguments: [bookID]
                ).compactMap { option -> Choice.Option? in
                    guard let source = ScreenSource(rawValue: option["source"]) else { return nil }
                    return Choice.Option(
                        position: option["position"],
                        candidate: Candidate(
                            source: source, providerID: option["provider_id"], title: option["title"],
                            year: option["year"], makers: option["makers"]),
                        bookID: bookID)
                }
                choices.append(
                    Choice(
                        bookID: bookID, kind: TitleKind(rawValue: row["kind"]) ?? .movie, title: row["title"],
                        year: Self.year(of: published), candidates: options))
            }
            return choices
        }
    }

    /// Whether `bookID` is one of the person's imported films or shows.
    func isImportedTitle(_ bookID: Int64, of userID: Int64) async throws -> Bool {
        try await db.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT 1 FROM book WHERE id = ? AND owner_user_id = ? AND source = 'import'
                        AND kind IN ('movie', 'show')
                    """, arguments: [bookID, userID]) ?? false
        }
    }
}
