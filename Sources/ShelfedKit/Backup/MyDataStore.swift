import Foundation
import GRDB

/// The queries behind "Your data" (`MyDataExport`): one person's books with their reads and lists, their lists and
/// their photos, never anyone else's.
struct MyDataStore: Sendable {
    let db: AppDatabase

    /// Everything `userID` has, read in one transaction; called on the blocking pool (it reads the whole library).
    func export(of userID: Int64) throws -> MyDataExport {
        try db.writer.read { db in try Self.collect(userID: userID, db) }
    }

    private static func collect(userID: Int64, _ db: Database) throws -> MyDataExport {
        let user = try Row.fetchOne(
            db, sql: "SELECT username, display_name, email FROM user WHERE id = ?", arguments: [userID])
        var listsByEntry: [Int64: [String]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT list_item.user_book_id, list.name FROM list_item JOIN list ON list.id = list_item.list_id
                WHERE list.user_id = ? ORDER BY list.position
                """, arguments: [userID])
        {
            listsByEntry[row[0], default: []].append(row[1])
        }
        var reads: [Int64: [ReadThrough]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT read_through.user_book_id, read_through.started_at, read_through.finished_at
                FROM read_through
                JOIN user_book ON user_book.id = read_through.user_book_id WHERE user_book.user_id = ?
                ORDER BY read_through.id
                """, arguments: [userID])
        {
            reads[row[0], default: []].append(ReadThrough(startedOn: row[1], finishedOn: row[2]))
        }
        var journal: [Int64: [MyDataExport.JournalLine]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: """
                SELECT journal_entry.* FROM journal_entry
                JOIN user_book ON user_book.id = journal_entry.user_book_id WHERE user_book.user_id = ?
                ORDER BY journal_entry.read_on, journal_entry.id
                """, arguments: [userID])
        {
            journal[row["user_book_id"], default: []].append(
                .init(readOn: row["read_on"], page: row["page"], percent: row["percent"], note: row["note"]))
        }
        let decoder = JSONDecoder()
        let books = try Row.fetchAll(
            db,
            sql: """
                SELECT user_book.*, user_book.id AS entry_id, book.title, book.subtitle, book.authors, book.isbn13,
                    book.isbn10, book.publisher, book.published_date, book.page_count, book.external_ids, book.series,
                    book.series_position, book.kind, book.runtime_minutes
                FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?
                ORDER BY user_book.added_at, user_book.id
                """, arguments: [userID]
        ).map { row in
            let entryID: Int64 = row["entry_id"]
            return MyDataExport.BookEntry(
                kind: row["kind"], runtimeMinutes: row["runtime_minutes"],
                title: row["title"], subtitle: row["subtitle"],
                authors: (try? decoder.decode([String].self, from: Data((row["authors"] as String).utf8))) ?? [],
                isbn13: row["isbn13"], isbn10: row["isbn10"], publisher: row["publisher"],
                publishedDate: row["published_date"], pageCount: row["page_count"], series: row["series"],
                seriesPosition: row["series_position"], shelf: row["shelf"],
                favourite: row["favourite"], rating: row["rating"], review: row["review"],
                privateNotes: row["private_notes"], owned: row["owned"], format: row["format"],
                addedAt: row["added_at"],
                startedOn: row["started_at"], finishedOn: row["finished_at"], reads: reads[entryID] ?? [],
                lists: listsByEntry[entryID] ?? [],
                externalIds: (try? decoder.decode(
                    [String: String].self, from: Data((row["external_ids"] as String).utf8)))
                    ?? [:],
                currentPage: row["current_page"], currentPercent: row["current_percent"],
                journal: journal[entryID] ?? [])
        }
        let photos = try Row.fetchAll(
            db,
            sql: """
                SELECT photo.id, photo.original_path, photo.page_number, photo.comment, photo.taken_at, photo.created_at,
                    photo.edit_turns, photo.crop_left, photo.crop_top, photo.crop_right, photo.crop_bottom,
                    photo.moment_season, photo.moment_episode, photo.moment_seconds,
                    book.title FROM photo LEFT JOIN book ON book.id = photo.book_id WHERE photo.user_id = ?
                ORDER BY photo.id
                """, arguments: [userID]
        ).map { row in
            let stored: String = row["original_path"]
            let ext = (stored as NSString).pathExtension
            let id: Int64 = row["id"]
            var entry = MyDataExport.PhotoEntry(
                book: row["title"], pageNumber: row["page_number"], comment: row["comment"], takenAt: row["taken_at"],
                createdAt: row["created_at"], file: "photos/\(id)" + (ext.isEmpty ? "" : ".\(ext)"), storedFile: stored)
            entry.moment =
                PhotoMoment(
                    season: row["moment_season"], episode: row["moment_episode"], seconds: row["moment_seconds"])?
                .text
            let edges: [Double] = [row["crop_left"], row["crop_top"], row["crop_right"], row["crop_bottom"]]
            let turns: Int = row["edit_turns"]
            if turns != 0 || edges.contains(where: { $0 != 0 }) {
                entry.touchUp = MyDataExport.TouchUp(
                    turns: turns, cropLeft: edges[0] * 100, cropTop: edges[1] * 100, cropRight: edges[2] * 100,
                    cropBottom: edges[3] * 100)
            }
            return entry
        }
        let lists = try Row.fetchAll(
            db, sql: "SELECT id, name, description FROM list WHERE user_id = ? ORDER BY position, id",
            arguments: [userID]
        ).map { row in
            MyDataExport.ListEntry(
                name: row["name"], description: row["description"],
                books: try String.fetchAll(
                    db,
                    sql: """
                        SELECT book.title FROM list_item JOIN user_book ON user_book.id = list_item.user_book_id
                        JOIN book ON book.id = user_book.book_id WHERE list_item.list_id = ?
                        ORDER BY list_item.position, list_item.rowid
                        """, arguments: [row["id"]]))
        }
        return MyDataExport(
            username: user?["username"] ?? "", displayName: user?["display_name"] ?? "", email: user?["email"] ?? "",
            books: books, lists: lists, photos: photos)
    }
}
