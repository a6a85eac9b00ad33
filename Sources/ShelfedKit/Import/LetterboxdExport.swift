import Foundation
import GRDB

/// A person's watched films as a CSV in the columns Letterboxd's importer reads (and Shelfed's, `LetterboxdCSVRows`):
/// one row per viewing, oldest first, the undated ones without a `WatchedDate`, every one after the first marked as
/// a rewatch; the rating on each, the tags (Shelfed's lists) and the review on the latest. Ids go with each film so
/// Letterboxd finds it without guessing. Cells are neutralised as in every export (`CSVCell`).
struct LetterboxdExport: Sendable {
    let db: AppDatabase

    static let header = [
        "LetterboxdURI", "tmdbID", "imdbID", "Title", "Year", "Directors", "WatchedDate", "Rating", "Rewatch", "Tags",
        "Review",
    ]

    func csv(of userID: Int64) async throws -> String {
        try await db.read { db in
            var csv = CSVCell.line(Self.header)
            let lists = try GoodreadsExport.lists(of: userID, db)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT user_book.id AS entry_id, book.title, book.authors, book.published_date, book.external_ids,
                        user_book.rating, user_book.review, user_book.finished_at
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND book.kind = 'movie' AND user_book.shelf = 'read'
                    ORDER BY user_book.added_at, user_book.id
                    """, arguments: [userID])
            let earlier = try db.cachedStatement(
                sql:
                    "SELECT finished_at FROM read_through WHERE user_book_id = ? ORDER BY finished_at IS NOT NULL, finished_at, id"
            )
            while let row = try rows.next() {
                let entryID: Int64 = row["entry_id"]
                let days = try String?.fetchAll(earlier, arguments: [entryID]) + [row["finished_at"] as String?]
                csv += Self.lines(row, viewings: days, lists: lists[entryID] ?? [])
            }
            return csv
        }
    }

    private static func lines(_ row: Row, viewings: [String?], lists: [String]) -> String {
        let authors = (try? JSONDecoder().decode([String].self, from: Data((row["authors"] as String).utf8))) ?? []
        let ids =
            (try? JSONDecoder().decode([String: String].self, from: Data((row["external_ids"] as String).utf8))) ?? [:]
        let published: String? = row["published_date"]
        let rating = (row["rating"] as Double?).map { value in
            // Letterboxd takes half stars: a quarter star from a book tracker's scale is rounded to the nearer half.
            let halves = max(1, (value * 2).rounded()) / 2
            return halves == halves.rounded() ? String(Int(halves)) : String(halves)
        }
        var text = ""
        for (index, day) in viewings.enumerated() {
            let isLatest = index == viewings.count - 1
            text += CSVCell.line([
                ids["letterboxd"] ?? "", ids["tmdb"] ?? "", ids["imdb"] ?? "", row["title"],
                published.map { String($0.prefix(4)) } ?? "", authors.joined(separator: ", "), day ?? "",
                rating ?? "", index > 0 ? "true" : "", isLatest ? lists.joined(separator: ", ") : "",
                isLatest ? (row["review"] as String?) ?? "" : "",
            ])
        }
        return text
    }
}

/// Rows of a CSV in Letterboxd's import columns (Shelfed's own film export, and what other tools write for
/// Letterboxd): each row is a film watched, on `WatchedDate` when it has one.
struct LetterboxdCSVRows: ImportRowReader {
    func read(_ record: ImportRecord) -> ImportRowReading {
        let title: String
        switch self.title(record["Title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var film = ImportedBook(title: title)
        film.kind = .movie
        film.shelf = .known(.read)
        if let problem = film.takeYear(record["Year"]) { return .problem(problem.message) }
        if let uri = ScreenImportValues.letterboxdURI(record["LetterboxdURI"]) { film.externalIDs["letterboxd"] = uri }
        if let id = ScreenImportValues.imdbID(record["imdbID"]) { film.externalIDs["imdb"] = id }
        if let id = ImportValues.cell(record["tmdbID"]), BoundedNumber.parse(id, in: 1...999_999_999) != nil {
            film.externalIDs["tmdb"] = id
        }
        film.authors = ImportValues.names(record["Directors"]).prefix(10).map { $0 }
        film.rating =
            ScreenImportValues.halfStars(record["Rating"], notes: &film.notes)
            ?? ScreenImportValues.tenPoint(record["Rating10"], notes: &film.notes)
        switch ImportedBook.day(record["WatchedDate"], column: "WatchedDate") {
        case .failure(let problem):
            return .problem(problem.message)
        case .success(let day):
            if let day {
                let rewatch = ImportValues.yesNo(record["Rewatch"]) ?? false
                film.viewings = [ImportedViewing(day: day, rewatch: rewatch, file: "letterboxd-csv")]
            }
        }
        film.lists = ScreenImportValues.tags(record["Tags"])
        film.review = ImportValues.paragraphs(record["Review"])
        return checkLengths(film)
    }
}
