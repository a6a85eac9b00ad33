import Foundation
import GRDB

/// The shapes of `/api/v1/titles…` (DESIGN §17): films and shows as the API lists them. `year` is an integer or null
/// everywhere, days are `YYYY-MM-DD` or null, `rating` is 0.5–5 in half steps or null.
enum TitleJSON {
    struct IDs: Encodable, Sendable, Equatable {
        var tmdb: Int?
        var tvmaze: Int?
        var imdb: String?
        var wikidata: String?

        enum CodingKeys: String, CodingKey {
            case tmdb, tvmaze, imdb, wikidata
        }

        init(_ ids: ScreenIDs) {
            (tmdb, tvmaze, imdb, wikidata) = (ids.tmdb, ids.tvmaze, ids.imdb, ids.wikidata)
        }

        init(catalog: [String: String]) {
            tmdb = catalog["tmdb"].flatMap { Int($0) }
            tvmaze = catalog["tvmaze"].flatMap { Int($0) }
            imdb = catalog["imdb"].flatMap(ScreenIDs.imdbID)
            wikidata = catalog["wikidata"].flatMap(ScreenIDs.wikidataID)
        }

        // Absent ids are null, never left out: a client reads the same keys every time.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tmdb, forKey: .tmdb)
            try container.encode(tvmaze, forKey: .tvmaze)
            try container.encode(imdb, forKey: .imdb)
            try container.encode(wikidata, forKey: .wikidata)
        }
    }

    /// One search result.
    struct Result: Encodable, Sendable {
        let kind: String
        let title: String
        let year: Int?
        let overview: String?
        let posterURL: String?
        let ids: IDs
        /// The provider's id and name, to add it with `POST /api/v1/titles`.
        let source: String

        init(_ title: ScreenTitle) {
            kind = title.kind.rawValue
            self.title = title.title
            year = title.year
            overview = title.overview
            posterURL = title.posterURL
            ids = IDs(title.ids)
            source = title.source.rawValue
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(year, forKey: .year)
            try container.encode(overview, forKey: .overview)
            try container.encode(posterURL, forKey: .posterURL)
            try container.encode(ids, forKey: .ids)
            try container.encode(source, forKey: .source)
        }

        enum CodingKeys: String, CodingKey {
            case kind, title, year, overview, posterURL, ids, source
        }
    }

    struct SearchAnswer: Encodable, Sendable {
        let results: [Result]
        let source: String
    }

    /// A film or show on the person's shelves.
    struct Title: Encodable, Sendable {
        let id: Int64
        let kind: String
        let title: String
        let year: Int?
        let shelf: String
        let rating: Double?
        let favourite: Bool
        let ids: IDs
        let creators: [String]
        let cast: [String]
        let runtimeMinutes: Int?
        let posterURL: String?
        let added: Date

        /// `externalIDs`: the row's `external_ids`, read apart (the catalog's other readers never need them).
        init(_ entry: LibraryEntry, externalIDs: [String: String]) {
            let book = entry.book
            id = entry.bookID
            kind = book.kind.rawValue
            title = book.title
            year = ScreenText.year(book.publishedDate)
            shelf = entry.userBook.shelf.titleAPIID
            // The web rates in quarter stars; the API promises half steps (DESIGN §17): the nearest half, 0.5 at least.
            rating = entry.userBook.rating.map { max(0.5, ($0 * 2).rounded() / 2) }
            favourite = entry.userBook.favourite
            ids = IDs(catalog: externalIDs)
            creators = book.authors
            cast = book.castNames
            runtimeMinutes = book.runtimeMinutes
            posterURL = book.coverPath.map { BookCover.url(for: $0) }
            added = entry.userBook.addedAt
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(kind, forKey: .kind)
            try container.encode(title, forKey: .title)
            try container.encode(year, forKey: .year)
            try container.encode(shelf, forKey: .shelf)
            try container.encode(rating, forKey: .rating)
            try container.encode(favourite, forKey: .favourite)
            try container.encode(ids, forKey: .ids)
            try container.encode(creators, forKey: .creators)
            try container.encode(cast, forKey: .cast)
            try container.encode(runtimeMinutes, forKey: .runtimeMinutes)
            try container.encode(posterURL, forKey: .posterURL)
            try container.encode(added, forKey: .added)
        }

        enum CodingKeys: String, CodingKey {
            case id, kind, title, year, shelf, rating, favourite, ids, creators, cast, runtimeMinutes, posterURL, added
        }
    }

    struct TitleList: Encodable, Sendable {
        let titles: [Title]
        let total: Int
    }

    struct ShelfCount: Encodable, Sendable {
        let id: String
        let name: String
        let count: Int
    }

    struct Viewing: Encodable, Sendable {
        let id: Int64
        let started: String?
        let finished: String?
        let episodesWatched: Int

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(started, forKey: .started)
            try container.encode(finished, forKey: .finished)
            try container.encode(episodesWatched, forKey: .episodesWatched)
        }

        enum CodingKeys: String, CodingKey {
            case id, started, finished, episodesWatched
        }
    }

    struct Episode: Encodable, Sendable {
        let number: Int
        let title: String?
        let airDate: String?
        let watched: Bool
        let watchedOn: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            try container.encode(title, forKey: .title)
            try container.encode(airDate, forKey: .airDate)
            try container.encode(watched, forKey: .watched)
            try container.encode(watchedOn, forKey: .watchedOn)
        }

        enum CodingKeys: String, CodingKey {
            case number, title, airDate, watched, watchedOn
        }
    }

    struct Season: Encodable, Sendable {
        let number: Int
        let episodes: [Episode]
    }

    struct Episodes: Encodable, Sendable {
        let viewing: Int?
        let watched: Int
        let aired: Int
        let seasons: [Season]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(viewing, forKey: .viewing)
            try container.encode(watched, forKey: .watched)
            try container.encode(aired, forKey: .aired)
            try container.encode(seasons, forKey: .seasons)
        }

        enum CodingKeys: String, CodingKey {
            case viewing, watched, aired, seasons
        }
    }

    /// `0.5`, `1`, … `5`: Letterboxd's half stars, and IMDb's and Trakt's 1–10 halved, exactly.
    static func isValidRating(_ rating: Double) -> Bool {
        rating.isFinite && (0.5...5).contains(rating) && (rating * 2).rounded() == rating * 2
    }
}

extension Shelf {
    /// The titles API's names for the shelves: `want_to_watch`, `watching`, `watched`, `stopped`.
    var titleAPIID: String {
        switch self {
        case .wantToRead: "want_to_watch"
        case .reading: "watching"
        case .read: "watched"
        case .didNotFinish: "stopped"
        }
    }

    init?(titleAPIID: String) {
        guard let shelf = Shelf.allCases.first(where: { $0.titleAPIID == titleAPIID }) else { return nil }
        self = shelf
    }
}
