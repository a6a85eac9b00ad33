import Foundation

/// Trakt's export: JSON files (`watched-movies.json`, `watched-shows.json`, `watched-history.json`, `ratings-*.json`,
/// `lists-watchlist.json`, in a ZIP or one by one; the same objects `GET /sync/…` answers). Every item is read
/// leniently — a field of the wrong type is a field left out, `"imdb": ""` is no id — and the items are gathered into
/// one row per film or show, written as a CSV (`TraktRows` reads it), so an import of Trakt is the import of a table:
/// preview, progress, results.
///
/// What each file says: a watched film has `plays` and its last day; a watched show each episode's `plays` and last
/// day (several plays of one episode are several passes through it); the history one row per play with its day;
/// ratings 1–10 (of films and shows; Shelfed keeps no episode ratings); the watchlist what is to watch.
enum TraktExport {
    static let headers = [
        "File", "Kind", "Title", "Year", "Trakt", "IMDb", "TMDB", "TVDB", "Plays", "Last Watched", "Viewings",
        "Episodes", "Rating", "Listed",
    ]

    /// The most plays one episode or film is counted for (Trakt's scrobbler has recorded a hundred of one episode).
    static let playsLimit = 100

    struct IDs: Decodable {
        var trakt: Int?
        var imdb: String?
        var tmdb: Int?
        var tvdb: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            trakt = try? container.decodeIfPresent(Int.self, forKey: .trakt)
            imdb = (try? container.decodeIfPresent(String.self, forKey: .imdb)).flatMap { $0 }
            tmdb = try? container.decodeIfPresent(Int.self, forKey: .tmdb)
            tvdb = try? container.decodeIfPresent(Int.self, forKey: .tvdb)
        }

        enum Keys: String, CodingKey { case trakt, imdb, tmdb, tvdb }
    }

    struct Title: Decodable {
        var title: String?
        var year: Int?
        var ids: IDs?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            title = try? container.decodeIfPresent(String.self, forKey: .title)
            year = try? container.decodeIfPresent(Int.self, forKey: .year)
            ids = try? container.decodeIfPresent(IDs.self, forKey: .ids)
        }

        enum Keys: String, CodingKey { case title, year, ids }
    }

    struct Episode: Decodable {
        var season: Int?
        var number: Int?
        var plays: Int?
        var lastWatchedAt: String?
        var episodes: [Episode]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            season = try? container.decodeIfPresent(Int.self, forKey: .season)
            number = try? container.decodeIfPresent(Int.self, forKey: .number)
            plays = try? container.decodeIfPresent(Int.self, forKey: .plays)
            lastWatchedAt = try? container.decodeIfPresent(String.self, forKey: .lastWatchedAt)
            episodes = try? container.decodeIfPresent([Episode].self, forKey: .episodes)
        }

        enum Keys: String, CodingKey {
            case season, number, plays, episodes
            case lastWatchedAt = "last_watched_at"
        }
    }

    /// One item of any of the files.
    struct Item: Decodable {
        var plays: Int?
        var lastWatchedAt: String?
        var watchedAt: String?
        var ratedAt: String?
        var listedAt: String?
        var rating: Int?
        var movie: Title?
        var show: Title?
        var episode: Episode?
        /// A watched show's seasons, each with its episodes.
        var seasons: [Episode]?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            plays = try? container.decodeIfPresent(Int.self, forKey: .plays)
            lastWatchedAt = try? container.decodeIfPresent(String.self, forKey: .lastWatchedAt)
            watchedAt = try? container.decodeIfPresent(String.self, forKey: .watchedAt)
            ratedAt = try? container.decodeIfPresent(String.self, forKey: .ratedAt)
            listedAt = try? container.decodeIfPresent(String.self, forKey: .listedAt)
            rating = try? container.decodeIfPresent(Int.self, forKey: .rating)
            movie = try? container.decodeIfPresent(Title.self, forKey: .movie)
            show = try? container.decodeIfPresent(Title.self, forKey: .show)
            episode = try? container.decodeIfPresent(Episode.self, forKey: .episode)
            seasons = try? container.decodeIfPresent([Episode].self, forKey: .seasons)
        }

        enum Keys: String, CodingKey {
            case plays, rating, movie, show, episode, seasons
            case lastWatchedAt = "last_watched_at"
            case watchedAt = "watched_at"
            case ratedAt = "rated_at"
            case listedAt = "listed_at"
        }
    }

    /// Whether a file looks like one of Trakt's: a JSON array (after spaces and a byte order mark).
    static func isJSONArray(_ url: URL) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 64)) ?? Data()
        return start.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) } == UInt8(ascii: "[")
    }

    /// Reads each file's items and writes one row per title to `destination`; throws `ImportArchive.Failure.damaged`
    /// when a file is not a JSON array of objects.
    static func flatten(_ files: [Data], to destination: URL) throws {
        var titles = Gathered()
        for data in files {
            guard let items = try? JSONDecoder().decode([Item].self, from: data) else {
                throw ImportArchive.Failure.notAnExport
            }
            for item in items { titles.take(item) }
        }
        var text = ImportArchive.line(headers)
        for row in titles.rows() { text += ImportArchive.line(row) }
        try Data(text.utf8).write(to: destination)
    }

    /// `2015-03-10T05:21:51.000Z` as `2015-03-10`; nil for anything else.
    static func day(_ timestamp: String?) -> String? {
        guard let timestamp, timestamp.utf8.count >= 10 else { return nil }
        let day = String(timestamp.prefix(10))
        return CalendarDate.isValidDay(day) ? day : nil
    }

    static func plays(_ count: Int?) -> Int {
        min(max(count ?? 1, 1), playsLimit)
    }
}

extension TraktExport {
    /// The items gathered per title, in the order first seen.
    struct Gathered {
        struct Title {
            var kind: TitleKind
            var name: String
            var year: Int?
            var ids: IDs?
            var files: Set<String> = []
            var plays: Int?
            /// A film's plays from the history, each its day.
            var viewings: [String] = []
            /// A film's last day from the watched list.
            var lastDay: String?
            /// A show's episodes: each play's day (history) or plays and the last day (watched list).
            var episodes: [String: (days: [String], plays: Int, last: String?)] = [:]
            var rating: Int?
            var listed: String?
        }

        private var order: [String] = []
        private var titles: [String: Title] = [:]

        mutating func take(_ item: Item) {
            if let seasons = item.seasons, let show = item.show {
                update(.show, show, file: "watched") { title in
                    for season in seasons {
                        for episode in season.episodes ?? [] {
                            guard let number = episode.number, let key = Self.episodeKey(season.number, number) else {
                                continue
                            }
                            let plays = TraktExport.plays(episode.plays)
                            var known = title.episodes[key] ?? ([], 0, nil)
                            known.plays = max(known.plays, plays)
                            known.last = max(known.last ?? "", TraktExport.day(episode.lastWatchedAt) ?? "")
                            if known.last == "" { known.last = nil }
                            title.episodes[key] = known
                        }
                    }
                }
            } else if let watched = item.watchedAt {
                guard let day = TraktExport.day(watched) else { return }
                if let movie = item.movie {
                    update(.movie, movie, file: "history") { $0.viewings.append(day) }
                } else if let show = item.show, let episode = item.episode,
                    let key = Self.episodeKey(episode.season, episode.number)
                {
                    update(.show, show, file: "history") { title in
                        var known = title.episodes[key] ?? ([], 0, nil)
                        if known.days.count < TraktExport.playsLimit { known.days.append(day) }
                        title.episodes[key] = known
                    }
                }
            } else if let rating = item.rating, item.ratedAt != nil {
                // Only films and shows: an episode's rating has nowhere to go, and says so in the results.
                if item.episode != nil, let show = item.show {
                    update(.show, show, file: "episode-ratings") { _ in }
                } else if let movie = item.movie {
                    update(.movie, movie, file: "ratings") { $0.rating = rating }
                } else if let show = item.show {
                    update(.show, show, file: "ratings") { $0.rating = rating }
                }
            } else if let listed = item.listedAt {
                if let movie = item.movie {
                    update(.movie, movie, file: "watchlist") { $0.listed = TraktExport.day(listed) ?? "" }
                } else if let show = item.show, item.episode == nil {
                    update(.show, show, file: "watchlist") { $0.listed = TraktExport.day(listed) ?? "" }
                }
            } else if let movie = item.movie, item.plays != nil || item.lastWatchedAt != nil {
                update(.movie, movie, file: "watched") { title in
                    title.plays = max(title.plays ?? 0, TraktExport.plays(item.plays))
                    title.lastDay = max(title.lastDay ?? "", TraktExport.day(item.lastWatchedAt) ?? "")
                    if title.lastDay == "" { title.lastDay = nil }
                }
            }
        }

        private mutating func update(
            _ kind: TitleKind, _ source: TraktExport.Title, file: String, _ change: (inout Title) -> Void
        ) {
            guard let name = source.title else { return }
            let key = kind.rawValue + ":" + (source.ids?.trakt.map(String.init) ?? "\(name)|\(source.year ?? 0)")
            if titles[key] == nil {
                order.append(key)
                titles[key] = Title(kind: kind, name: name, year: source.year, ids: source.ids)
            }
            titles[key]?.files.insert(file)
            change(&titles[key]!)
        }

        /// `1x2`; nil for a season or number out of bounds.
        static func episodeKey(_ season: Int?, _ number: Int?) -> String? {
            guard let season, let number, (0...9999).contains(season), (1...9999).contains(number) else { return nil }
            return "\(season)x\(number)"
        }

        func rows() -> [[String]] {
            order.compactMap { titles[$0] }.map { title in
                let episodes = title.episodes.sorted { $0.key < $1.key }.map { key, watched in
                    // History: each play's day. Watched list: the plays, all on the last day Trakt kept (the only one).
                    let missing = max(0, watched.plays - watched.days.count)
                    let days = watched.days.sorted() + Array(repeating: watched.last ?? "", count: missing)
                    return key + "=" + days.joined(separator: ",")
                }.joined(separator: ";")
                return [
                    title.files.sorted().joined(separator: "+"), title.kind.rawValue, title.name,
                    title.year.map(String.init) ?? "", title.ids?.trakt.map(String.init) ?? "", title.ids?.imdb ?? "",
                    title.ids?.tmdb.map(String.init) ?? "", title.ids?.tvdb.map(String.init) ?? "",
                    title.plays.map(String.init) ?? "", title.lastDay ?? "",
                    title.viewings.sorted().joined(separator: ","),
                    episodes, title.rating.map(String.init) ?? "", title.listed ?? "",
                ]
            }
        }
    }
}
