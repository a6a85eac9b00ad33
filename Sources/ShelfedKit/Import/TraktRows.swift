import Foundation

/// One film or show of a Trakt export, as `TraktExport` gathered it: what the files said of it, its ids, plays, days,
/// episodes (`1x2=2015-01-02,2015-03-04;0x1=…`), rating and the day it joined the watchlist.
struct TraktRows: ImportRowReader {
    /// The most episodes one show may bring (the longest-running soap operas have about 15,000).
    static let episodeLimit = 20_000

    func read(_ record: ImportRecord) -> ImportRowReading {
        guard let kind = ImportValues.cell(record["Kind"]).flatMap(TitleKind.init(rawValue:)), kind != .book else {
            return .problem("The Kind column says movie or show; this row says neither.")
        }
        let files = Set((ImportValues.cell(record["File"]) ?? "").split(separator: "+").map(String.init))
        if files == ["episode-ratings"] {
            return .skipped("Only episodes of this show were rated: Shelfed rates whole shows and films.")
        }
        let title: String
        switch self.title(record["Title"]) {
        case .success(let value): title = value
        case .failure(let problem): return .problem(problem.message)
        }
        var item = ImportedBook(title: title)
        item.kind = kind
        if let problem = item.takeYear(record["Year"]) { return .problem(problem.message) }
        for (column, name) in [("Trakt", "trakt"), ("TMDB", "tmdb"), ("TVDB", "tvdb")] {
            if let id = ImportValues.cell(record[column]), BoundedNumber.parse(id, in: 1...999_999_999) != nil {
                item.externalIDs[name] = id
            }
        }
        if let id = ScreenImportValues.imdbID(record["IMDb"]) { item.externalIDs["imdb"] = id }
        item.rating = ScreenImportValues.tenPoint(record["Rating"], notes: &item.notes)
        let watched = !files.isDisjoint(with: ["watched", "history", "ratings"])
        if kind == .movie {
            item.viewings = Self.days(record["Viewings"]).map {
                ImportedViewing(day: $0, rewatch: false, file: "trakt-history")
            }
            let plays = ImportValues.cell(record["Plays"]).flatMap {
                BoundedNumber.parse($0, in: 1...TraktExport.playsLimit)
            }
            if let last = Self.days(record["Last Watched"]).first {
                item.viewings?.append(ImportedViewing(day: last, rewatch: (plays ?? 1) > 1, file: "trakt-watched"))
            }
            item.plays = plays
            item.shelf = .known(watched ? .read : .wantToRead)
        } else {
            switch Self.episodes(record["Episodes"]) {
            case .success(let episodes): item.episodes = episodes.isEmpty ? nil : episodes
            case .failure(let problem): return .problem(problem.message)
            }
            // A show being watched: whether every episode aired has been seen is known once its episodes are.
            item.shelf = .known(item.episodes != nil ? .reading : watched ? .read : .wantToRead)
        }
        if files == ["watchlist"] { item.takeAddedOn(record["Listed"], column: "Listed") }
        return checkLengths(item)
    }

    /// `2015-01-02,2015-03-04` as days; anything not a day is left out.
    static func days(_ raw: String?) -> [String] {
        (ImportValues.cell(raw) ?? "").split(separator: ",").prefix(TraktExport.playsLimit).map(String.init)
            .filter(CalendarDate.isValidDay)
    }

    /// `1x2=2015-01-02,2015-03-04;0x1=2014-12-24` as episodes, each with its days.
    static func episodes(_ raw: String?) -> Result<[ImportedEpisode], ImportProblem> {
        guard let text = ImportValues.cell(raw) else { return .success([]) }
        var episodes: [ImportedEpisode] = []
        for part in text.split(separator: ";") {
            guard episodes.count < episodeLimit else {
                return .failure(ImportProblem("The show lists more than \(episodeLimit) episodes."))
            }
            let halves = part.split(separator: "=", maxSplits: 1)
            let place = halves.first?.split(separator: "x") ?? []
            guard place.count == 2, let season = BoundedNumber.parse(place[0], in: 0...9999),
                let number = BoundedNumber.parse(place[1], in: 1...9999)
            else { continue }
            let days = halves.count == 2 ? Self.days(String(halves[1])) : []
            if !days.isEmpty { episodes.append(ImportedEpisode(season: season, number: number, days: days)) }
        }
        return .success(episodes)
    }
}
