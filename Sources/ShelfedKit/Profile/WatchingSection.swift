/// `profile/watching`: a year's films and shows on the profile and in the year in review — the counts, the time,
/// the chart with its table, and (in the review) every film watched and show finished.
struct WatchingSection: Sendable {
    struct Figure: Sendable {
        let value: String
        let noun: String
    }

    struct MonthRow: Sendable {
        let month: String
        let films: Int
        let episodes: Int
        let time: String
    }

    struct Tile: Sendable {
        let title: String
        let path: String
        let coverURL: String?
        let detail: String
    }

    let year: Int
    let figures: [Figure]
    let chart: HTMLFragment
    let monthRows: [MonthRow]
    /// Films watched and shows finished, newest first; empty on the profile.
    let tiles: [Tile]
    /// The profile's way to them all: the year in review.
    let reviewPath: String?

    /// Nil when nothing was watched in the year, so a reader's profile shows no empty section.
    init?(_ statistics: WatchingStatistics, withTiles: Bool = false) {
        guard statistics.hasWatching else { return nil }
        year = statistics.year
        func figure(_ count: Int, _ noun: String) -> Figure {
            Figure(value: count.grouped, noun: noun)
        }
        let time = statistics.timeWatched
        let (films, episodes, shows) = (statistics.filmsWatched, statistics.episodesWatched, statistics.showsFinished)
        // A film-only year does not list "0 episodes watched": only what the year held, and its time.
        figures =
            [
                (films, localized(one: "film watched", other: "films watched", count: films)),
                (episodes, localized(one: "episode watched", other: "episodes watched", count: episodes)),
                (shows, localized(one: "show finished", other: "shows finished", count: shows)),
            ].filter { $0.0 > 0 }.map { figure($0.0, $0.1) } + [Figure(value: time.figure, noun: time.noun)]
        chart = ReadingChart.watching(statistics)
        let monthNames = ReadingChart.monthNames
        monthRows = statistics.months.enumerated().map {
            MonthRow(
                month: monthNames[$0.offset], films: $0.element.films, episodes: $0.element.episodes,
                time: $0.element.minutes == 0 ? "—" : ReadingChart.hoursLabel($0.element.minutes))
        }
        tiles =
            withTiles
            ? statistics.titles.map { title in
                Tile(
                    title: title.title, path: Paths.book(title.bookID),
                    coverURL: title.coverPath.map { BookCover.url(for: $0) },
                    detail: title.kind == .movie
                        ? localized("Film, watched {{day}}", ["day": title.day])
                        : localized("TV show, finished {{day}}", ["day": title.day]))
            } : []
        reviewPath = withTiles ? nil : Paths.profileYear(statistics.year)
    }
}
