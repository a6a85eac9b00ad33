import Foundation
import GRDB

/// The refresh's SQL (`ScreenRefreshWorker`): which provider title is due, and writing what the provider says now.
struct ScreenRefreshStore: Sendable {
    let db: AppDatabase

    /// The title checked longest ago among those due: never checked, a show still airing checked over a week ago,
    /// or anything else checked over six months ago. A show airs while any of its episodes aired within the last
    /// year, has not aired yet, or has no day.
    func nextDue(now: Date, timeZone: TimeZone) async throws -> ScreenRefreshWorker.Due? {
        let recently = AppClock.dateString(now.addingTimeInterval(-365 * 86_400), in: timeZone)
        let found = try await db.read { db -> Found? in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT * FROM (
                        SELECT book.id, book.provider_key, book.kind, book.owner_user_id IS NULL AS shared,
                            book.provider_checked_at AS checked, book.kind = 'show' AND EXISTS (
                                SELECT 1 FROM episode WHERE episode.book_id = book.id AND episode.season > 0
                                    AND (episode.air_date IS NULL OR episode.air_date >= ?)) AS airing,
                            (SELECT user.language FROM user_book JOIN user ON user.id = user_book.user_id
                                WHERE user_book.book_id = book.id
                                ORDER BY user_book.added_at, user_book.id LIMIT 1) AS language
                        FROM book WHERE book.provider_key IS NOT NULL
                            AND EXISTS (SELECT 1 FROM user_book WHERE user_book.book_id = book.id))
                    WHERE checked IS NULL OR checked < CASE WHEN airing THEN ? ELSE ? END
                    ORDER BY checked IS NOT NULL, checked, id LIMIT 1
                    """,
                arguments: [
                    recently, now.addingTimeInterval(-ScreenRefreshWorker.airingAge),
                    now.addingTimeInterval(-ScreenRefreshWorker.settledAge),
                ]
            ).map {
                Found(
                    bookID: $0["id"], key: $0["provider_key"], kind: $0["kind"], shared: $0["shared"],
                    airing: $0["airing"], language: ($0["language"] as String?).flatMap(Language.init(rawValue:)))
            }
        }
        guard let found else { return nil }
        guard var due = ScreenRefreshWorker.due(bookID: found.bookID, key: found.key, kind: found.kind, found.shared)
        else {
            // A key this version cannot read (written by a later one): looked at again in six months.
            try await stamp(found.bookID, at: now)
            return nil
        }
        due.period = found.airing ? ScreenRefreshWorker.airingAge : ScreenRefreshWorker.settledAge
        due.language = found.language
        return due
    }

    /// The row `nextDue` found, as read.
    private struct Found: Sendable {
        let bookID: Int64
        let key: String
        let kind: String
        let shared: Bool
        let airing: Bool
        let language: Language?
    }

    /// Writes a refreshed title into its row and marks it checked; how many episodes are new.
    func apply(_ title: ScreenTitle, to due: ScreenRefreshWorker.Due, at now: Date) async throws -> Int {
        try await db.write { db in try Self.apply(title, to: due, at: now, db) }
    }

    /// Marks a title checked at `date`: an earlier date than now makes it due again sooner.
    func stamp(_ bookID: Int64, at date: Date) async throws {
        try await db.write { db in try Self.stamp(bookID, at: date, db: db) }
    }

    /// Writes a refreshed title into its row; how many episodes are new. A shared row takes the provider's synopsis,
    /// genres, running time and cast; every row takes its episodes (added, or their titles and days corrected,
    /// never removed: a watched episode stays watched).
    static func apply(_ title: ScreenTitle, to due: ScreenRefreshWorker.Due, at now: Date, _ db: Database) throws -> Int
    {
        let before =
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM episode WHERE book_id = ?", arguments: [due.bookID]) ?? 0
        if due.shared {
            try db.execute(
                sql: """
                    UPDATE book SET description = COALESCE(?, description), categories = ?,
                        runtime_minutes = COALESCE(?, runtime_minutes), cast_names = ?, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    title.overview, CatalogWriter.jsonArray(title.genres), title.runtimeMinutes,
                    CatalogWriter.jsonArray(title.cast), now, due.bookID,
                ])
        }
        try CatalogWriter(db: db).insertEpisodes(of: title.seasons, for: due.bookID)
        try stamp(due.bookID, at: now, db: db)
        let after =
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM episode WHERE book_id = ?", arguments: [due.bookID]) ?? 0
        return after - before
    }

    static func stamp(_ bookID: Int64, at date: Date, db: Database) throws {
        try db.execute(sql: "UPDATE book SET provider_checked_at = ? WHERE id = ?", arguments: [date, bookID])
    }
}
