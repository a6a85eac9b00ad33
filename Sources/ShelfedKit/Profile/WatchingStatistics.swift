import Foundation
import GRDB

/// What one year of watching adds up to (issue 37), apart from the reading figures so a film never counts as a book:
/// every viewing of a film dated in the year (a film seen three times counts three), every episode watched that
/// year, every show finished, and the time all of it took.
public struct WatchingStatistics: Sendable, Equatable {
    public struct Month: Sendable, Equatable {
        public var films = 0
        public var episodes = 0
        public var minutes = 0
    }

    /// A film watched or a show finished in the year, for the year in review's mosaic.
    public struct Title: Sendable, Equatable {
        public let bookID: Int64
        public let title: String
        public let coverPath: String?
        public let rating: Double?
        public let day: String
        public let kind: TitleKind
    }

    public var year: Int
    public var filmsWatched = 0
    public var episodesWatched = 0
    public var showsFinished = 0
    /// Films by their running time, episodes by theirs (else their show's); what has none adds nothing.
    public var minutesWatched = 0
    public var months = Array(repeating: Month(), count: 12)
    /// Newest first, at most `maxTitles`.
    public var titles: [Title] = []

    static let maxTitles = 120

    public var hasWatching: Bool { filmsWatched + episodesWatched + showsFinished > 0 }

    /// "41 hours watched", "45 minutes watched": the figure and the words after it.
    var timeWatched: (figure: String, noun: String) {
        guard minutesWatched >= 60 else {
            let noun = localized(one: "minute watched", other: "minutes watched", count: minutesWatched)
            return (String(minutesWatched), noun)
        }
        let hours = Int((Double(minutesWatched) / 60).rounded())
        return (hours.grouped, localized(one: "hour watched", other: "hours watched", count: hours))
    }
}

extension StatisticsStore {
    /// Every viewing of a film finished in a year as `viewing` (entry_id, book_id, day): the latest on the shelf entry
    /// and each one kept before it — `UNION ALL`, since two viewings of one day are two (`Viewings.swift`). Arguments:
    /// user id, `yyyy-%`, user id, `yyyy-%`.
    static let filmViewings = """
        FROM (
            SELECT user_book.id AS entry_id, user_book.book_id, user_book.finished_at AS day FROM user_book
            WHERE user_book.user_id = ? AND user_book.shelf = 'read' AND user_book.finished_at LIKE ?
            UNION ALL
            SELECT user_book.id, user_book.book_id, read_through.finished_at FROM read_through
            JOIN user_book ON user_book.id = read_through.user_book_id
            WHERE user_book.user_id = ? AND read_through.finished_at LIKE ?
        ) AS viewing JOIN book ON book.id = viewing.book_id AND book.kind = 'movie'
        JOIN user_book ON user_book.id = viewing.entry_id
        """

    /// `userID`'s films, episodes and shows of `year`.
    public func watching(_ year: Int, of userID: Int64) async throws -> WatchingStatistics {
        try await db.read { db in
            var statistics = WatchingStatistics(year: year)
            let pattern = String(format: "%04d-%%", year)
            let arguments: StatementArguments = [userID, pattern, userID, pattern]
            var titles: [WatchingStatistics.Title] = []
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.title, book.cover_path, user_book.rating, viewing.day, book.runtime_minutes
                    \(Self.filmViewings) ORDER BY viewing.day DESC, book.title
                    """, arguments: arguments)
            {
                let day: String = row[4]
                let month = Self.month(of: day)
                let minutes = BoundedNumber.plausible(row[5], in: BoundedNumber.runtimeMinutes) ?? 0
                statistics.filmsWatched += 1
                statistics.months[month - 1].films += 1
                statistics.months[month - 1].minutes += minutes
                titles.append(
                    .init(bookID: row[0], title: row[1], coverPath: row[2], rating: row[3], day: day, kind: .movie))
            }
            // Episodes by the day each was watched, whichever viewing it belongs to; the show's running time is read
            // only for an episode without its own.
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT substr(episode_watch.watched_on, 6, 2) AS month, COUNT(*) AS episodes,
                        SUM(COALESCE(
                            episode.runtime_minutes,
                            (SELECT runtime_minutes FROM book WHERE book.id = episode.book_id), 0)) AS minutes
                    FROM show_viewing JOIN episode_watch ON episode_watch.viewing_id = show_viewing.id
                    JOIN episode ON episode.id = episode_watch.episode_id
                    WHERE show_viewing.user_id = ? AND episode_watch.watched_on >= ? AND episode_watch.watched_on < ?
                    GROUP BY month
                    """,
                arguments: [userID, String(format: "%04d-01-01", year), String(format: "%04d-01-01", year + 1)])
            {
                let month = BoundedNumber.parse(row["month"] as String, in: 1...12) ?? 1
                let episodes: Int = row["episodes"]
                statistics.episodesWatched += episodes
                statistics.months[month - 1].episodes += episodes
                // Each episode's minutes were bounded on the way in; their sum over a year stays far from overflow.
                statistics.months[month - 1].minutes += row["minutes"] as Int
            }
            // Shows finished, as books are: the current pass on Watched and each finished pass kept before it.
            let finishedShows = Self.finishedReads(of: .show)
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.title, book.cover_path, user_book.rating, finish.finished_on
                    \(finishedShows) JOIN user_book ON user_book.id = finish.entry_id
                    ORDER BY finish.finished_on DESC, book.title
                    """, arguments: arguments)
            {
                statistics.showsFinished += 1
                titles.append(
                    .init(bookID: row[0], title: row[1], coverPath: row[2], rating: row[3], day: row[4], kind: .show))
            }
            statistics.minutesWatched = statistics.months.reduce(0) { $0 + $1.minutes }
            statistics.titles = Array(
                titles.sorted { ($0.day, $1.title) > ($1.day, $0.title) }.prefix(WatchingStatistics.maxTitles))
            return statistics
        }
    }

    /// The month of a stored day; a bad one still must not index outside the twelve.
    private static func month(of day: String) -> Int {
        BoundedNumber.parse(day.dropFirst(5).prefix(2), in: 1...12) ?? 1
    }
}
