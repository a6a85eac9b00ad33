import GRDB

/// What a show's page, the home page and the API read of a person's episodes: the seasons' counts, up next, and one
/// season's episodes, in the latest (open) viewing.
extension LibraryStore {
    /// The show's seasons, up next and one season's episodes (`season`, else up next's; `from` pages them) in the
    /// person's open viewing, inside the caller's read (the show's page reads it with the rest).
    static func showSummary(
        _ db: Database, bookID: Int64, for userID: Int64, today: String, season wanted: Int?, from: Int
    ) throws -> ShowSummary {
        let viewing = try Row.fetchOne(
            db,
            sql:
                "SELECT id, number FROM show_viewing WHERE user_id = ? AND book_id = ? ORDER BY number DESC LIMIT 1",
            arguments: [userID, bookID])
        let viewingID: Int64 = viewing?["id"] ?? 0
        let seasons = try Row.fetchAll(
            db,
            sql: """
                SELECT e.season, COUNT(*), SUM(e.air_date IS NULL OR e.air_date <= ?),
                    SUM(w.episode_id IS NOT NULL AND (e.air_date IS NULL OR e.air_date <= ?))
                FROM episode e LEFT JOIN episode_watch w ON w.episode_id = e.id AND w.viewing_id = ?
                WHERE e.book_id = ? GROUP BY e.season ORDER BY e.season
                """, arguments: [today, today, viewingID, bookID]
        ).map { SeasonCount(number: $0[0], episodes: $0[1], aired: $0[2], watched: $0[3]) }
        let upNext = try Self.episodeLines(
            db,
            where: """
                e.season > 0 AND (e.air_date IS NULL OR e.air_date <= ?) AND w.episode_id IS NULL
                ORDER BY e.season, e.number LIMIT 1
                """, [viewingID, bookID, today]
        ).first
        let season =
            wanted.flatMap { number in seasons.contains { $0.number == number } ? number : nil }
            ?? upNext?.season ?? seasons.first { $0.number > 0 }?.number ?? seasons.first?.number
        let count = seasons.first { $0.number == season }?.episodes ?? 0
        // Past the end: the last page.
        let lastPage = max(0, count - 1) / Self.episodesPerPage * Self.episodesPerPage
        let from = max(0, min(from, lastPage))
        let episodes =
            try season.map { season in
                try Self.episodeLines(
                    db, where: "e.season = ? ORDER BY e.number LIMIT ? OFFSET ?",
                    [viewingID, bookID, season, Self.episodesPerPage, from])
            } ?? []
        return ShowSummary(
            viewingNumber: viewing?["number"], seasons: seasons, upNext: upNext, shownSeason: season,
            episodes: episodes, from: from)
    }

    /// Up next for each of the person's shows in `bookIDs` that has one (the home page's shows on Watching).
    static func upNext(_ db: Database, of userID: Int64, bookIDs: [Int64], today: String) throws -> [Int64: EpisodeLine]
    {
        var found: [Int64: EpisodeLine] = [:]
        for bookID in bookIDs {
            let viewing = try latestViewing(userID: userID, bookID: bookID, db) ?? 0
            found[bookID] = try episodeLines(
                db,
                where: """
                    e.season > 0 AND (e.air_date IS NULL OR e.air_date <= ?) AND w.episode_id IS NULL
                    ORDER BY e.season, e.number LIMIT 1
                    """, [viewing, bookID, today]
            ).first
        }
        return found
    }

    static func episodeLines(_ db: Database, where condition: String, _ arguments: StatementArguments)
        throws -> [EpisodeLine]
    {
        try Row.fetchAll(
            db,
            sql: """
                SELECT e.season, e.number, e.title, e.air_date, w.watched_on
                FROM episode e LEFT JOIN episode_watch w ON w.episode_id = e.id AND w.viewing_id = ?
                WHERE e.book_id = ? AND
                """ + " " + condition, arguments: arguments
        ).map { EpisodeLine(season: $0[0], number: $0[1], title: $0[2], airDate: $0[3], watchedOn: $0[4]) }
    }
}
