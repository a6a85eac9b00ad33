import Mustache

/// A show's episodes on its page (issue 37): progress, "Up next" with one tap, the seasons as tabs with their counts
/// (specials apart), and one season's episodes a hundred at a time, each marked alone or "up to here".
struct EpisodesSection: Sendable {
    struct Episode: Sendable {
        let code: String
        let title: String?
        let airDate: String?
        let aired: Bool
        let watched: Bool
        let watchedOn: String?
        let season: Int
        let number: Int
    }

    struct SeasonTab: Sendable {
        let label: String
        let counts: String
        let path: String
        let current: Bool
    }

    struct Shown: Sendable {
        let label: String
        let season: Int
        let episodes: [Episode]
        /// Offered while some aired episode of the season is not marked.
        let canMarkAll: Bool
        let previousPath: String?
        let nextPath: String?
    }

    let formPath: String
    let progress: String
    let upNext: Episode?
    let seasons: [SeasonTab]
    let shown: Shown?
    let hasEpisodes: Bool

    init(_ summary: ShowSummary, bookID: Int64, today: String) {
        formPath = Paths.bookEpisodes(bookID)
        func episode(_ line: EpisodeLine) -> Episode {
            Episode(
                code: line.code, title: line.title, airDate: line.airDate.map { HumanDay.text($0, today: today) },
                aired: line.airDate.map { $0 <= today } ?? true, watched: line.watchedOn != nil,
                watchedOn: line.watchedOn.map { HumanDay.text($0, today: today) }, season: line.season,
                number: line.number)
        }
        let viewing = summary.viewingNumber.map { $0 > 1 ? "Viewing \($0): " : "" } ?? ""
        progress =
            summary.aired == 0
            ? "No episode has aired yet."
            : viewing + "\(summary.watched) of \(summary.aired) episodes watched"
                + (summary.watched == summary.aired ? " — all caught up." : ".")
        upNext = summary.upNext.map(episode)
        let page = Paths.book(bookID)
        seasons = summary.seasons.map { season in
            SeasonTab(
                label: season.number == 0 ? "Specials" : "Season \(season.number)",
                counts: "\(season.watched)/\(season.aired)", path: page + "?season=\(season.number)#episodes",
                current: season.number == summary.shownSeason)
        }
        hasEpisodes = !summary.seasons.isEmpty
        shown = summary.shownSeason.map { number in
            let count = summary.seasons.first { $0.number == number }
            let from = summary.from
            let size = LibraryStore.episodesPerPage
            let base = page + "?season=\(number)"
            return Shown(
                label: number == 0 ? "Specials" : "Season \(number)", season: number,
                episodes: summary.episodes.map(episode),
                canMarkAll: (count?.watched ?? 0) < (count?.aired ?? 0),
                previousPath: from > 0 ? base + "&from=\(max(0, from - size))#episodes" : nil,
                nextPath: from + size < (count?.episodes ?? 0) ? base + "&from=\(from + size)#episodes" : nil)
        }
    }
}

extension EpisodesSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "formPath": self.formPath
        case "progress": self.progress
        case "upNext": self.upNext
        case "seasons": self.seasons
        case "shown": self.shown
        case "hasEpisodes": self.hasEpisodes
        default: nil
        }
    }
}
