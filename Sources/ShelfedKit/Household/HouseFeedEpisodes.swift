import GRDB

extension HouseholdSharing {
    /// The feed's show lines (issue 37): one a show a day a member watched episodes of it — how many, up to which,
    /// and "finished season 2" when that day's episodes completed the season's aired ones. None on a day the show was
    /// started or finished: that day's line says it, as a book's progress line gives way to its start or finish. A
    /// show an import brought keeps the days before the import to the import's own line (a Trakt history of 2015 is
    /// not news), as an imported book's dates do.
    ///
    /// The union's columns carry the viewing in `shared_id`, the day's episode count in `page` and the last episode
    /// (season × 100,000 + number) in `percent_before`. Walked newest day first from `episode_watch_day` (v44), so the
    /// page reads only the days it shows.
    static let episodeLines = """
        SELECT * FROM (
            SELECT 'episodes', watched.watched_on, show_viewing.user_id, show_viewing.book_id, COUNT(*), NULL, NULL,
                show_viewing.id, watched.watched_on, NULL, MAX(episode.season * 100000 + episode.number), NULL
            FROM episode_watch AS watched
            JOIN show_viewing ON show_viewing.id = watched.viewing_id
            JOIN episode ON episode.id = watched.episode_id
            WHERE +show_viewing.user_id IN (SELECT id FROM sharing)
                AND NOT EXISTS (
                    SELECT 1 FROM user_book WHERE user_book.user_id = show_viewing.user_id
                        AND user_book.book_id = show_viewing.book_id
                        AND watched.watched_on IN (user_book.started_at, user_book.finished_at))
                AND NOT EXISTS (
                    SELECT 1 FROM user_book
                    JOIN import_row ON import_row.user_book_id = user_book.id AND import_row.outcome = 'created'
                    JOIN import_job ON import_job.id = import_row.job_id
                    WHERE user_book.user_id = show_viewing.user_id AND user_book.book_id = show_viewing.book_id
                        AND substr(import_job.created_at, 1, 10) >= watched.watched_on)
            GROUP BY watched.watched_on, watched.viewing_id
            ORDER BY watched.watched_on DESC LIMIT :reach)
        """

    /// A day's episodes of one show, as the feed tells it.
    struct EpisodeDay: Sendable, Equatable {
        let count: Int
        let season: Int
        let number: Int
        /// Every episode of `season` aired by that day is in the viewing, the last of them watched that day.
        let finishedSeason: Bool

        /// Reads the union's row (see `episodeLines`) and asks whether the season was finished that day.
        init?(_ row: Row, _ db: Database) throws {
            guard let code = row["percent_before"] as Int64?, let viewing = row["shared_id"] as Int64?,
                let bookID = row["book_id"] as Int64?
            else { return nil }
            let day: String = row["day"]
            count = row["page"] ?? 1
            season = Int(code / 100_000)
            number = Int(code % 100_000)
            // Specials are never a season to finish (DESIGN §17).
            guard season > 0 else {
                finishedSeason = false
                return
            }
            finishedSeason =
                try Bool.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT NOT EXISTS (
                                SELECT 1 FROM episode WHERE episode.book_id = ? AND episode.season = ?
                                    AND episode.air_date IS NOT NULL AND episode.air_date <= ?
                                    AND NOT EXISTS (
                                        SELECT 1 FROM episode_watch WHERE episode_watch.viewing_id = ?
                                            AND episode_watch.episode_id = episode.id
                                            AND episode_watch.watched_on <= ?))
                            """), arguments: [bookID, season, day, viewing, day]) ?? false
        }

        /// The day's line (issue 39), `{{name}}` the people who watched and `{{title}}` the show: "{{name}} watched
        /// S2E3 of {{title}}", "… 3 episodes of {{title}}, up to S2E5", "{{name}} finished {{title}} season 2".
        /// `people`: how many watched it together, for the verb.
        func sentence(people: Int) -> String {
            if finishedSeason {
                return localized(
                    one: "{{name}} finished {{title}} season {{season}}",
                    other: "{{name}} finished {{title}} season {{season}}", count: people, ["season": String(season)])
            }
            let episode = Self.name(season, number)
            if count == 1 {
                return localized(
                    one: "{{name}} watched {{episode}} of {{title}}",
                    other: "{{name}} watched {{episode}} of {{title}}", count: people, ["episode": episode])
            }
            return localized(
                one: "{{name}} watched {{episodes}} episodes of {{title}}, up to {{episode}}",
                other: "{{name}} watched {{episodes}} episodes of {{title}}, up to {{episode}}", count: people,
                ["episodes": String(count), "episode": episode])
        }

        /// "S2E3", or "a special" for season 0.
        static func name(_ season: Int, _ number: Int) -> String {
            season == 0 ? localized("special {{number}}", ["number": String(number)]) : "S\(season)E\(number)"
        }
    }
}
