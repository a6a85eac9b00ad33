import Foundation
import GRDB

// A film's viewings (DESIGN §17): every time it was watched, each with its day (or none, when the person did not
// say). The latest lives on the shelf entry like a book's finish date; every other one is a row of `read_through`,
// written as an event — never merged with another of the same day, so a film seen twice on a Sunday has two — and
// never overwritten by a rewatch.

extension LibraryStore {
    /// Records that the person watched their film again on `day` (`yyyy-mm-dd`, already checked to be no later than
    /// today). A day after the latest viewing becomes the latest and the one before is kept; an earlier day is kept
    /// beside it. False when the id is not the person's film on Watched.
    func watchAgain(bookID: Int64, on day: String, for userID: Int64, now: Date) async throws -> Bool {
        try await db.write { db in
            guard let entry = try Self.entry(bookID: bookID, of: userID, db), entry.book.kind == .movie,
                entry.userBook.shelf == .read
            else { return false }
            var userBook = entry.userBook
            try userBook.addViewing(on: day, db)
            userBook.updatedAt = now
            try userBook.update(db)
            return true
        }
    }
}

extension UserBook {
    /// Adds a viewing on `day` to a film on Watched: a day after the latest viewing becomes the latest and the one
    /// before is kept; an earlier day is kept beside it.
    mutating func addViewing(on day: String, _ db: Database) throws {
        guard let id else { return }
        if let latest = finishedAt, day < latest {
            try ReadHistory.keepViewing(ReadThrough(startedOn: nil, finishedOn: day), of: id, db)
        } else {
            try ReadHistory.keepViewing(ReadThrough(startedOn: startedAt, finishedOn: finishedAt), of: id, db)
            startedAt = nil
            finishedAt = day
        }
    }

    /// Whether the film has a viewing on `day` already, the latest or a kept one.
    func hasViewing(on day: String, _ db: Database) throws -> Bool {
        guard finishedAt != day else { return true }
        guard let id else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM read_through WHERE user_book_id = ? AND finished_at = ?)",
            arguments: [id, day]) ?? false
    }
}

extension ReadHistory {
    /// Keeps one viewing as it was, even beside another of the same day.
    static func keepViewing(_ viewing: ReadThrough, of entryID: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO read_through (user_book_id, started_at, finished_at) VALUES (?, ?, ?)")
            .execute(arguments: [entryID, viewing.startedOn, viewing.finishedOn])
    }

    /// How many earlier viewings a film's page lists.
    static let listedViewings = 100

    /// A film's viewings before its latest, latest first and the undated last, at most `limit`.
    static func earlierViewings(of entryID: Int64, limit: Int = listedViewings, _ db: Database) throws
        -> [ReadThrough]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT started_at, finished_at FROM read_through WHERE user_book_id = ?
                ORDER BY finished_at IS NULL, finished_at DESC, id DESC LIMIT ?
                """, arguments: [entryID, limit]
        ).map { ReadThrough(startedOn: $0["started_at"], finishedOn: $0["finished_at"]) }
    }

    /// How many viewings a film has before its latest: all of them, where the page lists at most a hundred.
    static func earlierViewingCount(of entryID: Int64, _ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM read_through WHERE user_book_id = ?", arguments: [entryID])
            ?? 0
    }
}
