import Foundation
import GRDB

/// The user's library as a Goodreads export (the 24-column header of today's Goodreads), which Shelfed and the
/// other trackers' Goodreads importers read. Every cell a spreadsheet could run as a formula is neutralised, except
/// the deliberate `="…"` ISBNs, which hold digits only. Books only: a film in a Goodreads file would land in another
/// tracker as a book (films get a Letterboxd-compatible export of their own).
struct GoodreadsExport: Sendable {
    let db: AppDatabase

    static let header = [
        "Book Id", "Title", "Author", "Author l-f", "Additional Authors", "ISBN", "ISBN13", "My Rating",
        "Average Rating", "Publisher", "Binding", "Number of Pages", "Year Published", "Original Publication Year",
        "Date Read", "Date Added", "Bookshelves", "Bookshelves with positions", "Exclusive Shelf", "My Review",
        "Spoiler", "Private Notes", "Read Count", "Owned Copies",
    ]

    /// The whole file; a library of 5,000 books is about 2 MB.
    func csv(of userID: Int64) async throws -> String {
        try await db.read { db in
            var csv = CSVCell.line(Self.header)
            let lists = try Self.lists(of: userID, db)
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT user_book.id AS entry_id, book.title, book.subtitle, book.authors, book.isbn10, book.isbn13,
                        book.publisher, book.page_count, book.published_date, book.external_ids, book.series,
                        book.series_position, user_book.shelf, user_book.favourite, user_book.rating, user_book.review,
                        user_book.private_notes, user_book.owned, user_book.format, user_book.added_at,
                        user_book.finished_at,
                        (SELECT COUNT(*) FROM (
                            SELECT started_at, finished_at FROM read_through WHERE user_book_id = user_book.id
                                AND finished_at IS NOT NULL
                            UNION SELECT user_book.started_at, user_book.finished_at
                                WHERE user_book.finished_at IS NOT NULL)) AS dated_reads
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND book.kind = 'book' ORDER BY user_book.added_at, user_book.id
                    """, arguments: [userID])
            while let row = try rows.next() {
                csv += Self.line(row, lists: lists[row["entry_id"]] ?? [])
            }
            return csv
        }
    }

    private static func line(_ row: Row, lists: [String]) -> String {
        let authors = (try? JSONDecoder().decode([String].self, from: Data((row["authors"] as String).utf8))) ?? []
        let ids =
            (try? JSONDecoder().decode([String: String].self, from: Data((row["external_ids"] as String).utf8))) ?? [:]
        let shelf = Shelf(rawValue: row["shelf"]) ?? .wantToRead
        let exclusive =
            switch shelf {
            case .wantToRead: "to-read"
            case .reading: "currently-reading"
            case .read: "read"
            // Goodreads has no such status; its readers keep a custom exclusive shelf of this name.
            case .didNotFinish: "did-not-finish"
            }
        var shelves = [exclusive] + lists
        if row["favourite"] as Bool { shelves.append("favorites") }
        let rating: Double? = row["rating"]
        let finished: String? = row["finished_at"]
        let added: Date = row["added_at"]
        let owned: Bool? = row["owned"]
        // Every finished read: those kept from before a re-read and the current one (an import keeps the current one
        // too, counted once). Counting only the kept ones lost a re-read at every export (issue 35).
        let datedReads: Int = row["dated_reads"]
        let year = (row["published_date"] as String?).map { String($0.prefix(4)) } ?? ""
        let pages: Int? = row["page_count"]
        var title: String = row["title"]
        if let subtitle = row["subtitle"] as String?, !subtitle.isEmpty { title += ": " + subtitle }
        // Goodreads keeps a book's series in its title, so an export read back (here or there) keeps it.
        if let series = (row["series"] as String?).flatMap({ SeriesPlace(name: $0, position: row["series_position"]) })
        {
            title = series.goodreadsTitle(title)
        }
        let cells: [String] = [
            ids["goodreads"] ?? "",
            title,
            authors.first ?? "",
            authors.first.map(lastFirst) ?? "",
            authors.dropFirst().joined(separator: ", "),
        ]
        let after: [String] = [
            // Goodreads' own scale is whole stars; the quarter steps are kept so Shelfed reads them back exactly.
            rating.map(Self.number) ?? "0",
            "",
            row["publisher"] ?? "",
            row["format"] ?? "",
            pages.map(String.init) ?? "",
            year,
            year,
            finished.map { $0.replacingOccurrences(of: "-", with: "/") } ?? "",
            AppClock.dateString(added, in: TimeZone(identifier: "UTC")!).replacingOccurrences(of: "-", with: "/"),
            shelves.joined(separator: ", "),
            shelves.enumerated().map { "\($1) (#\($0 + 1))" }.joined(separator: ", "),
            exclusive,
            (row["review"] as String?).map(html) ?? "",
            "",
            (row["private_notes"] as String?).map(html) ?? "",
            String(max(datedReads, shelf == .read ? 1 : 0)),
            owned == true ? "1" : "0",
        ]
        // The ISBN cells are written as they are: `="…"` with digits only, never through the formula guard.
        return cells.map(CSVCell.escape).joined(separator: ",") + ","
            + CSVCell.isbn(row["isbn10"]) + "," + CSVCell.isbn(row["isbn13"]) + ","
            + after.map(CSVCell.escape).joined(separator: ",") + "\r\n"
    }

    static func lists(of userID: Int64, _ db: Database) throws -> [Int64: [String]] {
        var lists: [Int64: [String]] = [:]
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT list_item.user_book_id, list.name FROM list_item JOIN list ON list.id = list_item.list_id
                WHERE list.user_id = ? ORDER BY list.position
                """, arguments: [userID])
        while let row = try rows.next() { lists[row[0], default: []].append(row[1]) }
        return lists
    }

    /// "Ursula K. Le Guin" as "Le Guin, Ursula K." is beyond a rule; the last word is taken as the family name.
    private static func lastFirst(_ name: String) -> String {
        guard let space = name.lastIndex(of: " ") else { return name }
        return String(name[name.index(after: space)...]) + ", " + String(name[..<space])
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Goodreads reviews are HTML: text escaped, line breaks as `<br/>`.
    private static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\n", with: "<br/>")
    }
}
