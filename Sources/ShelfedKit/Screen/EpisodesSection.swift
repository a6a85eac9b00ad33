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
    let csrfToken: String
    let progress: String
    let upNext: Episode?
    /// "Up next", or "New episode" when it aired after the person had watched the show to the end.
    let upNextLabel: String
    let seasons: [SeasonTab]
    let shown: Shown?
    let hasEpisodes: Bool

    /// `caughtUpOn`: the day a show on Watched was watched to the end.
    init(_ summary: ShowSummary, bookID: Int64, today: String, csrfToken: String, caughtUpOn: String? = nil) {
        formPath = Paths.bookEpisodes(bookID)
        self.csrfToken = csrfToken
        func episode(_ line: EpisodeLine) -> Episode {
            Episode(
                code: line.code, title: line.title, airDate: line.airDate.map { HumanDay.text($0, today: today) },
                aired: line.airDate.map { $0 <= today } ?? true, watched: line.watchedOn != nil,
                watchedOn: line.watchedOn.map { HumanDay.text($0, today: today) }, season: line.season,
                number: line.number)
        }
        let numbers: KeyValuePairs<String, String> = [
            "watched": String(summary.watched), "aired": String(summary.aired),
        ]
        let counts =
            summary.watched == summary.aired
            ? localized("{{watched}} of {{aired}} episodes watched — all caught up.", numbers)
            : localized("{{watched}} of {{aired}} episodes watched.", numbers)
        let viewing = summary.viewingNumber.flatMap { $0 > 1 ? $0 : nil }
        progress =
            summary.aired == 0
            ? localized("No episode has aired yet.")
            : viewing.map { localized("Viewing {{number}}: {{progress}}", ["number": String($0), "progress": counts]) }
                ?? counts
        upNext = summary.upNext.map(episode)
        let isNew = caughtUpOn.map { day in summary.upNext?.airDate.map { $0 > day } ?? false } ?? false
        upNextLabel = isNew ? localized("New episode") : localized("Up next")
        let page = Paths.book(bookID)
        seasons = summary.seasons.map { season in
            SeasonTab(
                label: season.number == 0
                    ? localized("Specials") : localized("Season {{number}}", ["number": String(season.number)]),
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
                label: number == 0 ? localized("Specials") : localized("Season {{number}}", ["number": String(number)]),
                season: number,
                episodes: summary.episodes.map(episode),
                canMarkAll: (count?.watched ?? 0) < (count?.aired ?? 0),
                previousPath: from > 0 ? base + "&from=\(max(0, from - size))#episodes" : nil,
                nextPath: from + size < (count?.episodes ?? 0) ? base + "&from=\(from + size)#episodes" : nil)
        }
    }
}

extension EpisodesSection {
    /// The shown season's episodes as markup, built in Swift like the home page's books in progress: a hundred rows
    /// of two forms each cost the template most of the page (42 ms of CPU, where the book page takes 2).
    /// One form for the whole list, each button naming what it marks (`one:3`, `up_to:3`, `unwatch:3`): a form per
    /// row repeated the token and the season a hundred times, half the page's bytes.
    var episodesHTML: HTMLFragment {
        guard let shown else { return HTMLFragment() }
        var html: HTMLFragment = "<form method=\"post\" action=\"\(formPath)\" class=\"episode-list-form\">"
        html += "<input type=\"hidden\" name=\"_csrf\" value=\"\(csrfToken)\">"
        html += "<input type=\"hidden\" name=\"season\" value=\"\(shown.season)\">\n<ol class=\"episode-list\">\n"
        html.reserveCapacity(shown.episodes.count * 420)
        let notAired = localized("Not aired yet")
        let watched = localized("Watched")
        let upToHere = localized("Up to here")
        for episode in shown.episodes {
            let code = HTMLFragment(escaping: episode.code)
            html += episode.watched ? "<li class=\"episode is-watched\">" : "<li class=\"episode\">"
            html += "<span class=\"episode-name\"><span class=\"episode-code\">\(code)</span>"
            if let title = episode.title { html += " \(title)" }
            if let airDate = episode.airDate { html += " <span class=\"muted\">· \(airDate)</span>" }
            html += "</span>"
            if !episode.aired {
                html += "<span class=\"muted\">\(notAired)</span>"
            } else if episode.watched {
                let label =
                    episode.watchedOn.map {
                        localized("{{code}} watched {{day}}: mark it not watched", ["code": episode.code, "day": $0])
                    } ?? localized("{{code}} watched: mark it not watched", ["code": episode.code])
                html += "<span class=\"episode-actions\"><button type=\"submit\" name=\"mark\" "
                html += "value=\"unwatch:\(episode.number)\" class=\"chip is-on\" aria-label=\"\(label)\">"
                html += "✓ \(watched)</button></span>"
            } else {
                let mark = localized("Mark {{code}} watched", ["code": episode.code])
                let upTo = localized("Mark every episode up to {{code}} watched", ["code": episode.code])
                html += "<span class=\"episode-actions\"><button type=\"submit\" name=\"mark\" "
                html += "value=\"one:\(episode.number)\" class=\"chip\" aria-label=\"\(mark)\">\(watched)"
                html += "</button> <button type=\"submit\" name=\"mark\" value=\"up_to:\(episode.number)\" "
                html += "class=\"chip\" aria-label=\"\(upTo)\">\(upToHere)</button></span>"
            }
            html += "</li>\n"
        }
        html += "</ol></form>"
        return html
    }
}

extension EpisodesSection: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "formPath": self.formPath
        case "csrfToken": self.csrfToken
        case "progress": self.progress
        case "upNext": self.upNext
        case "upNextLabel": self.upNextLabel
        case "seasons": self.seasons
        case "shown": self.shown
        case "hasEpisodes": self.hasEpisodes
        case "episodesHTML": self.episodesHTML
        default: nil
        }
    }
}

extension EpisodesSection.SeasonTab: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "label": self.label
        case "counts": self.counts
        case "path": self.path
        case "current": self.current
        default: nil
        }
    }
}

extension EpisodesSection.Shown: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "label": self.label
        case "season": self.season
        case "episodes": self.episodes
        case "canMarkAll": self.canMarkAll
        case "previousPath": self.previousPath
        case "nextPath": self.nextPath
        default: nil
        }
    }
}

extension EpisodesSection.Episode: MustacheParent {
    func child(named key: String) -> Any? {
        switch key {
        case "code": self.code
        case "title": self.title
        case "airDate": self.airDate
        case "aired": self.aired
        case "watched": self.watched
        case "watchedOn": self.watchedOn
        case "season": self.season
        case "number": self.number
        default: nil
        }
    }
}
