/// Where a film's or show's data came from (DESIGN §17): TMDB with the household's own token, else TVmaze for shows
/// and Wikidata for films, neither of which needs a key.
public enum ScreenSource: String, Codable, Sendable, CaseIterable {
    case tmdb, tvmaze, wikidata

    /// The name a page credits.
    var displayName: String {
        switch self {
        case .tmdb: "TMDB"
        case .tvmaze: "TVmaze"
        case .wikidata: "Wikidata"
        }
    }
}

/// The ids a film or show is known by; any may be missing.
public struct ScreenIDs: Codable, Sendable, Equatable {
    public var tmdb: Int?
    public var tvmaze: Int?
    public var imdb: String?
    public var wikidata: String?

    public init(tmdb: Int? = nil, tvmaze: Int? = nil, imdb: String? = nil, wikidata: String? = nil) {
        self.tmdb = tmdb
        self.tvmaze = tvmaze
        self.imdb = imdb.flatMap(Self.imdbID)
        self.wikidata = wikidata.flatMap(Self.wikidataID)
    }

    /// `tt` and digits, as IMDb writes its title ids; anything else is not one.
    static func imdbID(_ text: String) -> String? {
        let body = text.utf8.dropFirst(2)
        return text.hasPrefix("tt") && (1...12).contains(body.count) && body.allSatisfy({ $0.isASCIIDigit })
            ? text : nil
    }

    /// `Q` and digits, as Wikidata names its items.
    static func wikidataID(_ text: String) -> String? {
        let body = text.utf8.dropFirst()
        return text.hasPrefix("Q") && (1...12).contains(body.count) && body.allSatisfy({ $0.isASCIIDigit })
            ? text : nil
    }

    /// The ids as the catalog row's `external_ids` keeps them.
    var catalogIDs: [String: String] {
        var ids: [String: String] = [:]
        ids["tmdb"] = tmdb.map(String.init)
        ids["tvmaze"] = tvmaze.map(String.init)
        ids["imdb"] = imdb
        ids["wikidata"] = wikidata
        return ids
    }
}

/// One provider's film or show, parsed and bounded (DESIGN §13: provider answers are untrusted): what a search
/// lists and, with its details, what adding it writes.
public struct ScreenTitle: Codable, Sendable, Equatable {
    public var kind: TitleKind
    public var source: ScreenSource
    public var title: String
    public var originalTitle: String?
    public var year: Int?
    /// Plain text; a provider's HTML is turned into text before it gets here.
    public var overview: String?
    public var posterURL: String?
    public var ids: ScreenIDs
    public var creators: [String] = []
    public var cast: [String] = []
    public var runtimeMinutes: Int?
    public var genres: [String] = []
    /// A show's seasons, specials (season 0) included, each episode once; empty for a film or a search result.
    public var seasons: [ScreenSeason] = []
    /// Whether a show still airs new episodes.
    public var running: Bool?

    /// The provider's id for this title: what the shared catalog row is found again by.
    var providerKey: String? {
        switch source {
        case .tmdb: ids.tmdb.map { "tmdb:\(kind.rawValue):\($0)" }
        case .tvmaze: ids.tvmaze.map { "tvmaze:\($0)" }
        case .wikidata: ids.wikidata.map { "wikidata:\($0)" }
        }
    }

    /// The provider's id as the add form sends it back.
    var providerID: String? {
        switch source {
        case .tmdb: ids.tmdb.map(String.init)
        case .tvmaze: ids.tvmaze.map(String.init)
        case .wikidata: ids.wikidata
        }
    }
}

public struct ScreenSeason: Codable, Sendable, Equatable {
    public var number: Int
    public var name: String?
    public var episodes: [ScreenEpisode]
}

public struct ScreenEpisode: Codable, Sendable, Equatable {
    public var number: Int
    public var title: String?
    /// `YYYY-MM-DD`, the day it first aired where it was made.
    public var airDate: String?
    public var runtimeMinutes: Int?
}

/// How much of a provider's answer is kept: a soap opera's 15,000 episodes, a cast of hundreds, a synopsis the
/// length of a script.
enum ScreenLimits {
    static let castNames = 8
    static let creators = 6
    static let genres = 8
    static let seasons = 100
    static let episodesPerSeason = 1_000
    /// Across all seasons of one show.
    static let episodes = 5_000
    static let seasonNumbers = 0...9_999
    static let episodeNumbers = 1...9_999
    static let searchResults = 20
    static let year = 1870...2100
}

/// Provider text made safe to keep: control and format characters dropped, trimmed, bounded; nil when empty.
enum ScreenText {
    static func clean(_ text: String?, limit: Int = CatalogLimits.title) -> String? {
        guard let text else { return nil }
        let scalars = text.unicodeScalars.filter { !$0.properties.generalCategory.isControlOrFormat || $0 == "\n" }
        let trimmed = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : String(trimmed.prefix(limit))
    }

    /// A name list kept to `limit` names, each cleaned, none twice.
    static func names(_ names: [String?], limit: Int) -> [String] {
        var kept: [String] = []
        for name in names {
            guard let name = clean(name, limit: CatalogLimits.name), !kept.contains(name) else { continue }
            kept.append(name)
            if kept.count == limit { break }
        }
        return kept
    }

    /// A provider's synopsis as plain text (TVmaze's is HTML).
    static func overview(_ text: String?, html: Bool = false) -> String? {
        // Markup is cut to a bounded length before it is read; what is kept is bounded again as text.
        let bounded = text.map { String($0.unicodeScalars.prefix(CatalogLimits.description * 4)) }
        return clean(bounded.map { html ? DescriptionText.plain($0) : $0 }, limit: CatalogLimits.description)
    }

    /// The year a `YYYY-MM-DD` (or `YYYY`) date begins with, when it is a plausible one; "" and garbage give nil.
    static func year(_ date: String?) -> Int? {
        guard let date, date.utf8.count >= 4, date.utf8.prefix(4).allSatisfy(\.isASCIIDigit),
            let year = Int(date.prefix(4)), ScreenLimits.year.contains(year)
        else {
            return nil
        }
        return year
    }

    /// A `YYYY-MM-DD` day, or nil.
    static func day(_ date: String?) -> String? {
        guard let date, date.utf8.count == 10, CalendarDate.isValidPublishedDate(date) else { return nil }
        return date
    }

    /// A running time that could be real.
    static func minutes(_ value: Int?) -> Int? {
        BoundedNumber.plausible(value, in: BoundedNumber.runtimeMinutes)
    }
}

extension Array where Element == ScreenSeason {
    /// Seasons as a provider lists them, made sane: numbers in range, a season listed twice merged, an episode
    /// listed twice kept once, in order, within `ScreenLimits`.
    static func bounded(_ episodes: [(season: Int?, episode: ScreenEpisode)], names: [Int: String] = [:])
        -> [ScreenSeason]
    {
        var bySeason: [Int: [Int: ScreenEpisode]] = [:]
        var total = 0
        for (season, episode) in episodes {
            guard let season, ScreenLimits.seasonNumbers.contains(season),
                ScreenLimits.episodeNumbers.contains(episode.number), total < ScreenLimits.episodes
            else { continue }
            if bySeason[season] == nil {
                guard bySeason.count < ScreenLimits.seasons else { continue }
                bySeason[season] = [:]
            }
            guard bySeason[season]![episode.number] == nil,
                bySeason[season]!.count < ScreenLimits.episodesPerSeason
            else { continue }
            bySeason[season]![episode.number] = episode
            total += 1
        }
        return bySeason.keys.sorted().map { number in
            ScreenSeason(
                number: number, name: names[number],
                episodes: bySeason[number]!.values.sorted { $0.number < $1.number })
        }
    }
}
