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
        func figure(_ count: Int, _ one: String, _ many: String) -> Figure {
            Figure(value: count.grouped, noun: count == 1 ? one : many)
        }
        let time = statistics.timeWatched
        // A film-only year does not list "0 episodes watched": only what the year held, and its time.
        figures =
            [
                (statistics.filmsWatched, "film watched", "films watched"),
                (statistics.episodesWatched, "episode watched", "episodes watched"),
                (statistics.showsFinished, "show finished", "shows finished"),
            ].filter { $0.0 > 0 }.map { figure($0.0, $0.1, $0.2) } + [Figure(value: time.figure, noun: time.noun)]
        chart = ReadingChart.watching(statistics)
        monthRows = statistics.months.enumerated().map {
            MonthRow(
                month: ReadingChart.monthNames[$0.offset], films: $0.element.films, episodes: $0.element.episodes,
                time: $0.element.minutes == 0 ? "—" : ReadingChart.hoursLabel($0.element.minutes))
        }
        tiles =
            withTiles
            ? statistics.titles.map { title in
                Tile(
                    title: title.title, path: Paths.book(title.bookID),
                    coverURL: title.coverPath.map { BookCover.url(for: $0) },
                    detail: title.kind == .movie ? "Film, watched \(title.day)" : "TV show, finished \(title.day)")
            } : []
        reviewPath = withTiles ? nil : Paths.profileYear(statistics.year)
    }
}
