import Foundation
import GRDB

/// What to mark in a show: one episode, every episode up to one ("up to here"), or a whole season.
enum EpisodeMark: Sendable, Equatable {
    case episode(season: Int, number: Int)
    case upTo(season: Int, number: Int)
    case season(Int)
}

/// The outcome of marking episodes, for the message that says so.
struct EpisodeMarkOutcome: Sendable, Equatable {
    let changed: Int
    /// The shelf the show is on afterwards (the first episode moves it to Watching, the last aired one to Watched).
    let shelf: Shelf
}

/// A show's episode in a person's open viewing.
struct EpisodeLine: Sendable, Equatable {
    let season: Int
    let number: Int
    let title: String?
    let airDate: String?
    let watchedOn: String?

    /// "S2E4".
    var code: String {
        season == 0 ? localized("Special {{number}}", ["number": String(number)]) : "S\(season)E\(number)"
    }
}

/// A season's counts in the open viewing. Episodes not aired yet are listed, never counted as missing.
struct SeasonCount: Sendable, Equatable {
    let number: Int
    let episodes: Int
    let aired: Int
    let watched: Int
}

/// Everything a show's page shows of its episodes: one season's episodes at a time, a hundred to a page.
struct ShowSummary: Sendable {
    let viewingNumber: Int?
    let seasons: [SeasonCount]
    let upNext: EpisodeLine?
    let shownSeason: Int?
    let episodes: [EpisodeLine]
    let from: Int

    /// Aired episodes outside the specials: what progress counts.
    var aired: Int { seasons.filter { $0.number > 0 }.reduce(0) { $0 + $1.aired } }
    var watched: Int { seasons.filter { $0.number > 0 }.reduce(0) { $0 + $1.watched } }
}

/// Not a show, or no such episode in it: the page answers 404.
struct NoSuchEpisode: Error {}

/// Watching again is for a show watched to the end (on Watched).
struct NotWatchedToTheEnd: Error {}

/// Shows watched episode by episode (issue 37, DESIGN §17): marking episodes in the open viewing (idempotent, a
/// whole 30-season show in one statement), the shelf moves that follow, watching again as a new viewing, and what the
/// page and the home page show ("Up next: S2E4").
extension LibraryStore {
    static let episodesPerPage = 100

    /// Marks (or unmarks) episodes of the person's show in its open viewing, opened if there is none. The first
    /// episode moves a show on Want to watch (or Stopped watching) to Watching; the last aired one moves it to
    /// Watched. Nil when the person has no such title; throws `NoSuchEpisode` when it is not a show or has no such
    /// episode.
    func mark(
        _ mark: EpisodeMark, watched: Bool, bookID: Int64, for userID: Int64, today: String, now: Date
    ) async throws -> EpisodeMarkOutcome? {
        try await updateShow(bookID: bookID, for: userID, now: now) { entry, db in
            let ids = try Self.episodeIDs(mark, bookID: bookID, today: today, db)
            guard !ids.isEmpty else { throw NoSuchEpisode() }
            return try Self.markEpisodes(ids, watched: watched, in: &entry, today: today, now: now, db)
        }
    }

    /// Marks (or unmarks) episodes `ids` of the entry's show in its open viewing, on `today`, with the shelf moves
    /// that follow, inside the caller's transaction (`mark`, and a viewing watched together, accepted).
    static func markEpisodes(
        _ ids: [Int64], watched: Bool, in entry: inout UserBook, today: String, now: Date, _ db: Database
    ) throws -> EpisodeMarkOutcome {
        let (userID, bookID) = (entry.userId, entry.bookId)
        // Taking an episode back from a show never watched opens no viewing.
        let hasViewing = try Self.latestViewing(userID: userID, bookID: bookID, db) != nil
        guard watched || hasViewing else {
            return EpisodeMarkOutcome(changed: 0, shelf: entry.shelf)
        }
        let viewing = try Self.openViewing(userID: userID, bookID: bookID, today: today, db)
        let list = CatalogWriter.jsonArray(ids.map(String.init))
        if watched {
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO episode_watch (viewing_id, episode_id, watched_on)
                    SELECT ?, CAST(value AS INTEGER), ? FROM json_each(?)
                    """, arguments: [viewing, today, list])
        } else {
            try db.execute(
                sql: """
                    DELETE FROM episode_watch
                    WHERE viewing_id = ? AND episode_id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))
                    """, arguments: [viewing, list])
        }
        let changed = db.changesCount
        let (aired, seen) = try Self.progress(viewing: viewing, bookID: bookID, today: today, db)
        if watched, aired > 0, seen == aired {
            if entry.shelf != .read { try entry.move(to: .read, today: today, now: now, db) }
            // Caught up, whether this moved it or it was on Watched already.
            try db.execute(
                sql: "UPDATE show_viewing SET finished_on = COALESCE(finished_on, ?) WHERE id = ?",
                arguments: [today, viewing])
        } else if watched, seen > 0, entry.shelf == .wantToRead || entry.shelf == .didNotFinish {
            try entry.move(to: .reading, today: today, now: now, db)
        }
        return EpisodeMarkOutcome(changed: changed, shelf: entry.shelf)
    }

    /// Opens the next viewing of a show watched to the end and puts it back on Watching; the viewings before keep
    /// their episodes and days, and the pass just finished is kept as an earlier watch even when it ended today (a
    /// shelf move back and forth the same day is an undone tap; this is not). A show moved to Watched by its shelf,
    /// never episode by episode, gets its first viewing recorded from its days before the second opens. False when
    /// the person has no such show; `NotWatchedToTheEnd` when it is not on Watched (or has a thousand viewings).
    func watchShowAgain(bookID: Int64, for userID: Int64, today: String, now: Date) async throws -> Bool {
        let opened: Bool? = try await updateShow(bookID: bookID, for: userID, now: now) { entry, db in
            let last =
                try Int.fetchOne(
                    db, sql: "SELECT MAX(number) FROM show_viewing WHERE user_id = ? AND book_id = ?",
                    arguments: [userID, bookID]) ?? 0
            guard entry.shelf == .read, last < 999 else { throw NotWatchedToTheEnd() }
            let insert =
                "INSERT INTO show_viewing (user_id, book_id, number, started_on, finished_on) VALUES (?, ?, ?, ?, ?)"
            if last == 0 {
                try db.execute(sql: insert, arguments: [userID, bookID, 1, entry.startedAt, entry.finishedAt])
            }
            try db.execute(sql: insert, arguments: [userID, bookID, max(last, 1) + 1, today, nil])
            if let finished = entry.finishedAt, let id = entry.id {
                try ReadHistory.keepForMove(
                    ReadThrough(startedOn: entry.startedAt, finishedOn: finished), of: entry, id, db)
            }
            entry.shelf = .reading
            entry.startedAt = today
            entry.finishedAt = nil
            return true
        }
        return opened != nil
    }

    /// Changes the person's entry for a show in one transaction with `change`'s other writes; nil when they have no
    /// such title, `NoSuchEpisode` when it is not a show.
    private func updateShow<Value: Sendable>(
        bookID: Int64, for userID: Int64, now: Date,
        _ change: @Sendable @escaping (inout UserBook, Database) throws -> Value
    ) async throws -> Value? {
        try await db.write { db in
            guard
                var entry = try Self.request(of: userID, filter: .all).filter(Column("book_id") == bookID).fetchOne(db)
            else { return nil }
            guard try String.fetchOne(db, sql: "SELECT kind FROM book WHERE id = ?", arguments: [bookID]) == "show"
            else { throw NoSuchEpisode() }
            let value = try change(&entry, db)
            entry.updatedAt = now
            try entry.update(db)
            return value
        }
    }

    private static func episodeIDs(_ mark: EpisodeMark, bookID: Int64, today: String, _ db: Database) throws
        -> [Int64]
    {
        switch mark {
        case .episode(let season, let number):
            return try Int64.fetchAll(
                db, sql: "SELECT id FROM episode WHERE book_id = ? AND season = ? AND number = ?",
                arguments: [bookID, season, number])
        case .upTo(0, let number):
            // Among the specials, the specials before it: they are apart from the seasons.
            return try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM episode WHERE book_id = ? AND season = 0 AND number <= ?
                        AND (air_date IS NULL OR air_date <= ?)
                    """, arguments: [bookID, number, today])
        case .upTo(let season, let number):
            // Everything aired before it, the specials apart: they are never counted.
            guard
                try Int.fetchOne(
                    db, sql: "SELECT 1 FROM episode WHERE book_id = ? AND season = ? AND number = ?",
                    arguments: [bookID, season, number]) != nil
            else { return [] }
            return try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM episode WHERE book_id = ? AND season > 0
                        AND (season < ? OR (season = ? AND number <= ?)) AND (air_date IS NULL OR air_date <= ?)
                    """, arguments: [bookID, season, season, number, today])
        case .season(let season):
            return try Int64.fetchAll(
                db,
                sql: """
                    SELECT id FROM episode WHERE book_id = ? AND season = ? AND (air_date IS NULL OR air_date <= ?)
                    """, arguments: [bookID, season, today])
        }
    }

    static func latestViewing(userID: Int64, bookID: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db, sql: "SELECT id FROM show_viewing WHERE user_id = ? AND book_id = ? ORDER BY number DESC LIMIT 1",
            arguments: [userID, bookID])
    }

    /// The latest viewing's id, opening the first when there is none.
    private static func openViewing(userID: Int64, bookID: Int64, today: String, _ db: Database) throws -> Int64 {
        if let id = try latestViewing(userID: userID, bookID: bookID, db) { return id }
        try db.execute(
            sql: "INSERT INTO show_viewing (user_id, book_id, number, started_on) VALUES (?, ?, 1, ?)",
            arguments: [userID, bookID, today])
        return db.lastInsertedRowID
    }

    /// Aired episodes outside the specials, and how many of them the viewing has.
    private static func progress(viewing: Int64, bookID: Int64, today: String, _ db: Database) throws -> (Int, Int) {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT COUNT(*), COUNT(w.episode_id) FROM episode e
                LEFT JOIN episode_watch w ON w.episode_id = e.id AND w.viewing_id = ?
                WHERE e.book_id = ? AND e.season > 0 AND (e.air_date IS NULL OR e.air_date <= ?)
                """, arguments: [viewing, bookID, today])
        return (row?[0] ?? 0, row?[1] ?? 0)
    }
}
