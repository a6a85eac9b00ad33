/// TMDB v3's answers, as far as Shelfed reads them. Every field is optional: the recordings have `poster_path: null`,
/// `first_air_date: ""`, `episode_run_time: []`, 2017 bodies without fields 2024 ones have, and a multi-search that
/// mixes people (no poster, no date) in with films and shows.
struct TMDBSearchPage: Decodable {
    let results: [TMDBSearchItem]?
}

/// `/find`'s answer: one list per kind of thing the id could name.
struct TMDBFindAnswer: Decodable {
    struct Item: Decodable {
        let id: Int?
    }

    let movieResults: [Item]?
    let tvResults: [Item]?

    enum CodingKeys: String, CodingKey {
        case movieResults = "movie_results"
        case tvResults = "tv_results"
    }
}

struct TMDBSearchItem: Decodable {
    let mediaType: String?
    let id: Int?
    let title: String?
    let name: String?
    let originalTitle: String?
    let originalName: String?
    let releaseDate: String?
    let firstAirDate: String?
    let overview: String?
    let posterPath: String?

    enum CodingKeys: String, CodingKey {
        case mediaType = "media_type"
        case id, title, name, overview
        case originalTitle = "original_title"
        case originalName = "original_name"
        case releaseDate = "release_date"
        case firstAirDate = "first_air_date"
        case posterPath = "poster_path"
    }

    /// The film or show this item is; nil for a person, an item without an id or title, or a kind not asked for.
    func title(kind asked: TitleKind?, posters: TMDBPosters) -> ScreenTitle? {
        let kind: TitleKind
        switch mediaType ?? asked?.rawValue {
        case "movie": kind = .movie
        case "tv", "show": kind = .show
        default: return nil
        }
        guard let id, id > 0, let title = ScreenText.clean(title ?? name) else { return nil }
        return ScreenTitle(
            kind: kind, source: .tmdb, title: title,
            originalTitle: ScreenText.clean(originalTitle ?? originalName).flatMap { $0 == title ? nil : $0 },
            year: ScreenText.year(releaseDate ?? firstAirDate), overview: ScreenText.overview(overview),
            posterURL: posters.url(posterPath), ids: ScreenIDs(tmdb: id))
    }
}

/// Where TMDB's pictures are: `poster_path` is a file name under a size folder of the image host.
struct TMDBPosters: Sendable {
    let baseURL: String

    func url(_ path: String?) -> String? {
        guard let path, path.hasPrefix("/"), (2...200).contains(path.utf8.count),
            path.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ".") })
        else { return nil }
        return baseURL + "/w500" + path
    }
}

struct TMDBNamed: Decodable {
    let name: String?
}

struct TMDBCredits: Decodable {
    struct Person: Decodable {
        let name: String?
        let job: String?
        let order: Int?
    }

    let cast: [Person]?
    let crew: [Person]?

    /// The first names billed, in billing order.
    var billed: [String?] {
        (cast ?? []).enumerated().sorted { ($0.element.order ?? $0.offset) < ($1.element.order ?? $1.offset) }
            .prefix(ScreenLimits.castNames * 2).map(\.element.name)
    }
}

struct TMDBExternalIDs: Decodable {
    let imdbID: String?
    let wikidataID: String?

    enum CodingKeys: String, CodingKey {
        case imdbID = "imdb_id"
        case wikidataID = "wikidata_id"
    }
}

/// `/movie/{id}?append_to_response=credits,external_ids`
struct TMDBMovie: Decodable {
    let id: Int?
    let title: String?
    let originalTitle: String?
    let releaseDate: String?
    let overview: String?
    let posterPath: String?
    let runtime: Int?
    let genres: [TMDBGenre]?
    let imdbID: String?
    let credits: TMDBCredits?
    let externalIDs: TMDBExternalIDs?

    enum CodingKeys: String, CodingKey {
        case id, title, overview, runtime, genres, credits
        case originalTitle = "original_title"
        case releaseDate = "release_date"
        case posterPath = "poster_path"
        case imdbID = "imdb_id"
        case externalIDs = "external_ids"
    }

    func title(posters: TMDBPosters) -> ScreenTitle? {
        guard let id, id > 0, let title = ScreenText.clean(title) else { return nil }
        let directors = (credits?.crew ?? []).filter { $0.job == "Director" }.map(\.name)
        return ScreenTitle(
            kind: .movie, source: .tmdb, title: title,
            originalTitle: ScreenText.clean(originalTitle).flatMap { $0 == title ? nil : $0 },
            year: ScreenText.year(releaseDate), overview: ScreenText.overview(overview),
            posterURL: posters.url(posterPath),
            ids: ScreenIDs(tmdb: id, imdb: imdbID ?? externalIDs?.imdbID, wikidata: externalIDs?.wikidataID),
            creators: ScreenText.names(directors, limit: ScreenLimits.creators),
            cast: ScreenText.names(credits?.billed ?? [], limit: ScreenLimits.castNames),
            runtimeMinutes: ScreenText.minutes(runtime),
            genres: ScreenText.names((genres ?? []).map(\.englishName), limit: ScreenLimits.genres))
    }
}

/// `/tv/{id}?append_to_response=credits,external_ids,season/0,season/1,…`: each appended season comes back under a
/// key of its own name ("season/3"), so they are read by walking the keys.
struct TMDBShow: Decodable {
    struct SeasonSummary: Decodable {
        let seasonNumber: Int?
        let name: String?
        let episodeCount: Int?
        enum CodingKeys: String, CodingKey {
            case seasonNumber = "season_number"
            case name
            case episodeCount = "episode_count"
        }
    }

    struct Season: Decodable {
        let seasonNumber: Int?
        let episodes: [Episode]?
        enum CodingKeys: String, CodingKey {
            case seasonNumber = "season_number"
            case episodes
        }
    }

    struct Episode: Decodable {
        let episodeNumber: Int?
        let seasonNumber: Int?
        let name: String?
        let airDate: String?
        let runtime: Int?
        enum CodingKeys: String, CodingKey {
            case episodeNumber = "episode_number"
            case seasonNumber = "season_number"
            case name, runtime
            case airDate = "air_date"
        }
    }

    let id: Int?
    let name: String?
    let originalName: String?
    let firstAirDate: String?
    let overview: String?
    let posterPath: String?
    let episodeRunTime: [Int]?
    let genres: [TMDBGenre]?
    let createdBy: [TMDBNamed]?
    let status: String?
    let seasons: [SeasonSummary]?
    let credits: TMDBCredits?
    let externalIDs: TMDBExternalIDs?
    /// The appended seasons, by the number their key names.
    let appendedSeasons: [Int: Season]

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func value<T: Decodable>(_ type: T.Type, _ key: String) -> T? {
            (try? container.decodeIfPresent(type, forKey: Key(stringValue: key))) ?? nil
        }
        id = value(Int.self, "id")
        name = value(String.self, "name")
        originalName = value(String.self, "original_name")
        firstAirDate = value(String.self, "first_air_date")
        overview = value(String.self, "overview")
        posterPath = value(String.self, "poster_path")
        episodeRunTime = value([Int].self, "episode_run_time")
        genres = value([TMDBGenre].self, "genres")
        createdBy = value([TMDBNamed].self, "created_by")
        status = value(String.self, "status")
        seasons = value([SeasonSummary].self, "seasons")
        credits = value(TMDBCredits.self, "credits")
        externalIDs = value(TMDBExternalIDs.self, "external_ids")
        var appended: [Int: Season] = [:]
        for key in container.allKeys where key.stringValue.hasPrefix("season/") {
            guard let number = Int(key.stringValue.dropFirst("season/".count)),
                let season = value(Season.self, key.stringValue)
            else { continue }
            appended[number] = season
        }
        appendedSeasons = appended
    }

    /// The seasons the show lists, in range, each once, in order, with the episodes each claims.
    var seasonEpisodeCounts: [(number: Int, episodes: Int)] {
        var counts: [Int: Int] = [:]
        for season in seasons ?? [] {
            guard let number = season.seasonNumber, ScreenLimits.seasonNumbers.contains(number), counts[number] == nil
            else { continue }
            counts[number] = min(max(season.episodeCount ?? 0, 0), ScreenLimits.episodes)
        }
        return counts.sorted { $0.key < $1.key }.prefix(ScreenLimits.seasons).map { ($0.key, $0.value) }
    }

    func title(posters: TMDBPosters, seasons fetched: [Int: Season]) -> ScreenTitle? {
        guard let id, id > 0, let title = ScreenText.clean(name) else { return nil }
        let names = Dictionary(
            (seasons ?? []).compactMap { season in
                season.seasonNumber.map { ($0, ScreenText.clean(season.name, limit: 200)) }
            }, uniquingKeysWith: { first, _ in first }
        ).compactMapValues { $0 }
        let episodes = fetched.sorted { $0.key < $1.key }.flatMap { number, season in
            (season.episodes ?? []).compactMap { episode -> (season: Int?, episode: ScreenEpisode)? in
                guard let episodeNumber = episode.episodeNumber else { return nil }
                return (
                    episode.seasonNumber ?? number,
                    ScreenEpisode(
                        number: episodeNumber, title: ScreenText.clean(episode.name, limit: 300),
                        airDate: ScreenText.day(episode.airDate), runtimeMinutes: ScreenText.minutes(episode.runtime))
                )
            }
        }
        return ScreenTitle(
            kind: .show, source: .tmdb, title: title,
            originalTitle: ScreenText.clean(originalName).flatMap { $0 == title ? nil : $0 },
            year: ScreenText.year(firstAirDate), overview: ScreenText.overview(overview),
            posterURL: posters.url(posterPath),
            ids: ScreenIDs(tmdb: id, imdb: externalIDs?.imdbID, wikidata: externalIDs?.wikidataID),
            creators: ScreenText.names((createdBy ?? []).map(\.name), limit: ScreenLimits.creators),
            cast: ScreenText.names(credits?.billed ?? [], limit: ScreenLimits.castNames),
            runtimeMinutes: ScreenText.minutes(episodeRunTime?.first),
            genres: ScreenText.names((genres ?? []).map(\.englishName), limit: ScreenLimits.genres),
            seasons: .bounded(episodes, names: names),
            running: status.map { ["Returning Series", "In Production", "Planned", "Pilot"].contains($0) })
    }
}
