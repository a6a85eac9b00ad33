import GRDB

/// A show watched to the end that has aired more since (issue 37): it stays on Watched, and comes back on the home
/// page and its own page as "new episodes" until they are watched.
extension LibraryStore {
    /// The person's shows on Watched with a regular episode aired after they caught up (their latest viewing's end,
    /// else the day the show was finished, else the last day they marked an episode, else the day they added it: a
    /// show put on Watched with no day hears of what airs after, never of what aired before) and not watched in that
    /// viewing; the latest caught up first. Only an
    /// episode of the last year is news: the catalog's episodes of that year (`episode_air`, v44: the few shows still
    /// airing) are where it starts, then the person's entry for each. Starting from the person's Watched shelf read
    /// every episode of a hundred finished shows for each home page (20 ms).
    /// The day a person caught up with a show (`user_book` in scope): their latest viewing's end, else the day the
    /// show was finished, else the last day they marked an episode, else the day they added it.
    static let caughtUpDay = """
        COALESCE((
            SELECT finished_on FROM show_viewing
            WHERE show_viewing.user_id = user_book.user_id AND show_viewing.book_id = user_book.book_id
            ORDER BY number DESC LIMIT 1), user_book.finished_at, (
            SELECT MAX(episode_watch.watched_on) FROM episode_watch
            WHERE episode_watch.viewing_id = (
                SELECT id FROM show_viewing
                WHERE show_viewing.user_id = user_book.user_id AND show_viewing.book_id = user_book.book_id
                ORDER BY number DESC LIMIT 1)), substr(user_book.added_at, 1, 10))
        """

    /// For each show, the first episode aired since the person caught up and not watched in their open viewing: what
    /// "New episode" names (an older episode they skipped is not news).
    static func firstNewEpisodes(_ db: Database, of userID: Int64, bookIDs: [Int64], today: String) throws
        -> [Int64: EpisodeLine]
    {
        var found: [Int64: EpisodeLine] = [:]
        for bookID in bookIDs {
            guard
                let caughtUp = try String.fetchOne(
                    db.cachedStatement(
                        sql:
                            "SELECT \(caughtUpDay) FROM user_book WHERE user_book.user_id = ? AND user_book.book_id = ?"
                    ),
                    arguments: [userID, bookID])
            else { continue }
            let viewing = try latestViewing(userID: userID, bookID: bookID, db) ?? 0
            found[bookID] = try episodeLines(
                db,
                where: """
                    e.season > 0 AND e.air_date > ? AND e.air_date <= ? AND w.episode_id IS NULL
                    ORDER BY e.air_date, e.season, e.number LIMIT 1
                    """, [viewing, bookID, caughtUp, today]
            ).first
        }
        return found
    }

    static func showsWithNewEpisodes(_ db: Database, of userID: Int64, today: String, limit: Int) throws
        -> [LibraryItem]
    {
        // The same day a year before, as text: only compared, so 29 February needs no care.
        let yearAgo = String(format: "%04d", (Int(today.prefix(4)) ?? 1) - 1) + today.dropFirst(4)
        return try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(LibraryItem.selection) FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND user_book.shelf = 'read' AND book.kind = 'show'
                        AND user_book.book_id IN (
                            SELECT episode.book_id FROM episode
                            WHERE episode.air_date > ? AND episode.air_date <= ? AND episode.season > 0)
                        AND EXISTS (
                            SELECT 1 FROM episode
                            WHERE episode.book_id = user_book.book_id AND episode.air_date <= ?
                                AND episode.air_date > \(Self.caughtUpDay)
                                AND episode.season > 0
                                AND NOT EXISTS (
                                    SELECT 1 FROM episode_watch WHERE episode_watch.episode_id = episode.id
                                        AND episode_watch.viewing_id = (
                                            SELECT id FROM show_viewing
                                            WHERE show_viewing.user_id = user_book.user_id
                                                AND show_viewing.book_id = user_book.book_id
                                            ORDER BY number DESC LIMIT 1)))
                    ORDER BY user_book.finished_at DESC, user_book.id DESC LIMIT ?
                    """), arguments: [userID, yearAgo, today, today, limit]
        ).map(LibraryItem.init(row:))
    }
}
