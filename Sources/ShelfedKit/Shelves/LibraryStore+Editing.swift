import Foundation
import GRDB

extension LibraryStore {
    enum EditOutcome: Equatable {
        /// Saved; the book's id from now on (a new one when the person got their own copy of a shared row).
        case edited(bookID: Int64)
        /// The new ISBN is that of another book the person has.
        case duplicate(bookID: Int64)
        case notFound
    }

    /// The catalog fields a person can change on a book of theirs.
    struct BookEdit: Sendable, Equatable {
        var title: String
        var subtitle: String?
        var authors: [String]
        var isbn: ISBN?
        var pageCount: Int?
        var publisher: String?
        var publishedDate: String?
        var description: String?
        var series: SeriesPlace? = nil
        /// A film's running time; a show's (its episodes') comes from its provider and is never edited here.
        var runtimeMinutes: Int? = nil
    }

    /// Changes the catalog fields of the user's book. A row they own (typed or imported) changes in place. A
    /// provider's shared row is never changed: the person gets their own copy of it with their changes (DESIGN §4),
    /// and their shelf entry, reads and photos move to the copy, so nobody else's book changes.
    func edit(bookID: Int64, for userID: Int64, _ edit: BookEdit, now: Date) async throws -> EditOutcome {
        try await db.write { db in
            guard try Self.request(of: userID, filter: .all).filter(Column("book_id") == bookID).fetchCount(db) > 0,
                let book = try Book.fetchOne(db, key: bookID)
            else { return .notFound }
            if let isbn13 = edit.isbn?.isbn13, isbn13 != book.isbn13,
                let other = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT book.id FROM user_book JOIN book ON book.id = user_book.book_id
                        WHERE user_book.user_id = ? AND book.isbn13 = ? AND book.id != ?
                        """, arguments: [userID, isbn13, bookID])
            {
                return .duplicate(bookID: other)
            }
            guard Self.changes(edit, book) else { return .edited(bookID: bookID) }
            let target = book.ownerUserId == userID ? bookID : try Self.ownCopy(of: bookID, for: userID, db)
            try db.execute(
                sql: """
                    UPDATE book SET title = ?, subtitle = ?, authors = ?, isbn10 = ?, isbn13 = ?, page_count = ?,
                        publisher = ?, published_date = ?, description = ?, series = ?, series_position = ?,
                        runtime_minutes = CASE WHEN kind = 'movie' THEN ? ELSE runtime_minutes END, updated_at = ?
                    WHERE id = ? AND owner_user_id = ?
                    """,
                arguments: [
                    edit.title, edit.subtitle, CatalogWriter.jsonArray(edit.authors), edit.isbn?.isbn10,
                    edit.isbn?.isbn13, edit.pageCount, edit.publisher, edit.publishedDate, edit.description,
                    edit.series?.name, edit.series?.position, edit.runtimeMinutes, now, target, userID,
                ])
            try db.execute(sql: "DELETE FROM book_author WHERE book_id = ?", arguments: [target])
            for (position, name) in edit.authors.enumerated() {
                try db.execute(
                    sql: "INSERT INTO book_author (book_id, position, name) VALUES (?, ?, ?)",
                    arguments: [target, position, name])
            }
            return .edited(bookID: target)
        }
    }

    /// Gives the user's book a new cover file (already in the covers folder). A shared row gets the person their
    /// own copy first, as `edit` does. Returns the book's id from now on and the cover file no row uses any more
    /// (for the caller to delete), or nil when the book is not theirs.
    func setOwnCover(bookID: Int64, for userID: Int64, file: String, now: Date) async throws
        -> (bookID: Int64, unusedCover: String?)?
    {
        try await db.write { db in
            guard try Self.request(of: userID, filter: .all).filter(Column("book_id") == bookID).fetchCount(db) > 0,
                let book = try Book.fetchOne(db, key: bookID)
            else { return nil }
            let target = book.ownerUserId == userID ? bookID : try Self.ownCopy(of: bookID, for: userID, db)
            try db.execute(
                sql: "UPDATE book SET cover_path = ?, updated_at = ? WHERE id = ? AND owner_user_id = ?",
                arguments: [file, now, target, userID])
            var unused: String?
            if let old = book.coverPath, old != file,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE cover_path = ?", arguments: [old]) == 0
            {
                unused = old
            }
            return (target, unused)
        }
    }

    private static func changes(_ edit: BookEdit, _ book: Book) -> Bool {
        edit.title != book.title || edit.subtitle != book.subtitle || edit.authors != book.authors
            || edit.isbn?.isbn13 != book.isbn13 || (edit.isbn == nil && book.isbn10 != nil)
            || edit.pageCount != book.pageCount || edit.publisher != book.publisher
            || edit.publishedDate != book.publishedDate || edit.description != book.description
            || edit.series != book.seriesPlace
            || (book.kind == .movie && edit.runtimeMinutes != book.runtimeMinutes)
    }

    /// A copy of shared row `bookID` owned by `userID`, with their shelf entry and photos moved onto it.
    private static func ownCopy(of bookID: Int64, for userID: Int64, _ db: Database) throws -> Int64 {
        let columns = """
            google_volume_id, isbn10, isbn13, title, subtitle, authors, publisher, published_date, description, \
            page_count, categories, language, cover_path, source, created_at, updated_at, external_ids, series, \
            series_position, community_rating, community_ratings, community_source, kind, runtime_minutes, \
            provider_key, cast_names, provider_checked_at
            """
        try db.execute(
            sql: "INSERT INTO book (\(columns), owner_user_id) SELECT \(columns), ? FROM book WHERE id = ?",
            arguments: [userID, bookID])
        let copy = db.lastInsertedRowID
        try db.execute(
            sql: """
                INSERT INTO book_author (book_id, position, name)
                SELECT ?, position, name FROM book_author WHERE book_id = ?
                """, arguments: [copy, bookID])
        for table in ["user_book", "photo", "show_viewing"] {
            try db.execute(
                sql: "UPDATE \(table) SET book_id = ? WHERE book_id = ? AND user_id = ?",
                arguments: [copy, bookID, userID])
        }
        // A show's episodes go with it, and the person's watched episodes point at the copy's.
        try db.execute(
            sql: """
                INSERT INTO episode (book_id, season, number, title, air_date, runtime_minutes)
                SELECT ?, season, number, title, air_date, runtime_minutes FROM episode WHERE book_id = ?;
                UPDATE episode_watch SET episode_id = (
                    SELECT copied.id FROM episode shared
                    JOIN episode copied ON copied.book_id = ? AND copied.season = shared.season
                        AND copied.number = shared.number
                    WHERE shared.id = episode_watch.episode_id)
                WHERE viewing_id IN (SELECT id FROM show_viewing WHERE user_id = ? AND book_id = ?);
                """, arguments: [copy, bookID, copy, userID, copy])
        return copy
    }
}
