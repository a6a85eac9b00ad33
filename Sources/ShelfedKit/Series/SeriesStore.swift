import Foundation
import GRDB

/// The series of a person's library and the books of each, in order (issue 24). A series' books are the person's own
/// and the providers' shared rows the server knows — never another member's typed or imported rows.
struct SeriesStore: Sendable {
    let db: AppDatabase

    /// One book of a series as the person sees it.
    struct Member: Sendable {
        let book: Book
        /// Their shelf for it; nil when it is not in their library.
        let shelf: Shelf?
    }

    /// A series the person has books of.
    struct Summary: Sendable, Equatable {
        let name: String
        let inLibrary: Int
        let read: Int
        let coverPath: String?
    }

    /// The most books a series page lists (the longest real series run to a few hundred).
    static let maxMembers = 500

    /// The series named `name` (case aside) as the person's own books name it, and its books; nil when the name
    /// cannot be a series' (too long, control characters) or none of the person's books is in it — what both the
    /// series page and the API answer with a 404.
    func series(named name: String, for userID: Int64) async throws -> (name: String, members: [Member])? {
        guard SeriesPlace(name: name, position: nil) != nil else { return nil }
        let members = try await members(of: name, for: userID)
        guard let shown = members.first(where: { $0.shelf != nil })?.book.series else { return nil }
        return (shown, members)
    }

    /// The books of series `name` visible to `userID`, in the series' order (books with no number last, by title).
    /// One book per place: where the person has a book at a place, the other editions there are left out.
    func members(of name: String, for userID: Int64) async throws -> [Member] {
        try await db.read { db in try Self.members(of: name, for: userID, db) }
    }

    /// `members(of:for:)` inside the caller's read.
    static func members(of name: String, for userID: Int64, _ db: Database) throws -> [Member] {
        let all =
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT book.*, user_book.shelf AS my_shelf FROM book
                        LEFT JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = ?
                        WHERE book.series = ? COLLATE NOCASE
                            AND (book.owner_user_id IS NULL OR (book.owner_user_id = ? AND user_book.id IS NOT NULL))
                        ORDER BY book.series_position IS NULL, book.series_position, user_book.id IS NULL, book.title, book.id
                        LIMIT ?
                        """), arguments: [userID, name, userID, Self.maxMembers]
            ).map { row in
                Member(book: try Book(row: row), shelf: (row["my_shelf"] as String?).flatMap(Shelf.init(rawValue:)))
            }
        // Per place: the person's own books there, or else the first edition the server knows.
        var kept: [Member] = []
        for member in all {
            guard let position = member.book.seriesPosition,
                let previous = kept.last, previous.book.seriesPosition == position
            else {
                kept.append(member)
                continue
            }
            if member.shelf != nil, previous.shelf != nil { kept.append(member) }
        }
        return kept
    }

    /// The series of the person's library, by name, with how many of each they have and have read.
    func summaries(for userID: Int64) async throws -> [Summary] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT book.series, COUNT(*), SUM(user_book.shelf = 'read'),
                        (SELECT cover.cover_path FROM book AS cover
                            JOIN user_book AS mine ON mine.book_id = cover.id AND mine.user_id = ?
                            WHERE cover.series = book.series COLLATE NOCASE AND cover.cover_path IS NOT NULL
                            ORDER BY cover.series_position IS NULL, cover.series_position LIMIT 1)
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND book.series IS NOT NULL
                    GROUP BY book.series COLLATE NOCASE ORDER BY book.series COLLATE NOCASE LIMIT 2000
                    """, arguments: [userID, userID]
            ).map { Summary(name: $0[0], inLibrary: $0[1], read: $0[2] ?? 0, coverPath: $0[3]) }
        }
    }

    /// Where `book` stands in its series for the book page: its place and the next book, if the server knows one.
    func place(of book: Book, for userID: Int64) async throws -> (place: SeriesPlace, next: Member?)? {
        guard book.seriesPlace?.position != nil else { return book.seriesPlace.map { ($0, nil) } }
        return try await db.read { db in try Self.place(of: book, for: userID, db) }
    }

    /// `place(of:for:)` inside the caller's read.
    static func place(of book: Book, for userID: Int64, _ db: Database) throws -> (place: SeriesPlace, next: Member?)? {
        guard let place = book.seriesPlace else { return nil }
        guard let position = place.position else { return (place, nil) }
        let members = try members(of: place.name, for: userID, db)
        let next = members.first { ($0.book.seriesPosition ?? -1) > position }
        return (place, next)
    }
}
