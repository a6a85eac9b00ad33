import Foundation

/// TVmaze's answers, as far as Shelfed reads them: shows without a key (DESIGN §17). Summaries are HTML; `image`,
/// `externals` members, `genres` and `rating` may be null or empty; fields added since the 2017 recordings
/// (`averageRuntime`, an episode's `type`) are optional like the rest.
struct TVmazeSearchHit: Decodable {
    let show: TVmazeShow?
}

struct TVmazeShow: Decodable {
    struct Image: Decodable {
        let medium: String?
        let original: String?
    }

    struct Externals: Decodable {
        let imdb: String?
    }

    struct Embedded: Decodable {
        let episodes: [TVmazeEpisode]?
        let cast: [CastMember]?
        let crew: [CrewMember]?
    }

    struct Person: Decodable {
        let name: String?
    }

    struct CastMember: Decodable {
        let person: Person?
    }

    struct CrewMember: Decodable {
        let type: String?
        let person: Person?
    }

    let id: Int?
    let name: String?
    let premiered: String?
    let summary: String?
    let image: Image?
    let externals: Externals?
    let genres: [String]?
    let runtime: Int?
    let averageRuntime: Int?
    let status: String?
    let embedded: Embedded?

    enum CodingKeys: String, CodingKey {
        case id, name, premiered, summary, image, externals, genres, runtime, averageRuntime, status
        case embedded = "_embedded"
    }

    func title(images: TVmazeImages) -> ScreenTitle? {
        guard let id, id > 0, let title = ScreenText.clean(name) else { return nil }
        let episodes = (embedded?.episodes ?? []).compactMap { episode -> (season: Int?, episode: ScreenEpisode)? in
            // TVmaze lists a special without a number inside a regular season: never counted, so never kept.
            guard let number = episode.number, episode.type.map({ $0 == "regular" }) ?? true else { return nil }
            return (
                episode.season,
                ScreenEpisode(
                    number: number, title: ScreenText.clean(episode.name, limit: 300),
                    airDate: ScreenText.day(episode.airdate), runtimeMinutes: ScreenText.minutes(episode.runtime))
            )
        }
        let creators = (embedded?.crew ?? []).filter { $0.type == "Creator" }.map(\.person?.name)
        return ScreenTitle(
            kind: .show, source: .tvmaze, title: title, year: ScreenText.year(premiered),
            overview: ScreenText.overview(summary, html: true),
            posterURL: images.url(image?.original ?? image?.medium),
            ids: ScreenIDs(tvmaze: id, imdb: externals?.imdb),
            creators: ScreenText.names(creators, limit: ScreenLimits.creators),
            cast: ScreenText.names((embedded?.cast ?? []).map(\.person?.name), limit: ScreenLimits.castNames),
            runtimeMinutes: ScreenText.minutes(averageRuntime ?? runtime),
            genres: ScreenText.names(genres ?? [], limit: ScreenLimits.genres),
            seasons: .bounded(episodes),
            running: status.map { $0 == "Running" || $0 == "In Development" || $0 == "To Be Determined" })
    }
}

struct TVmazeEpisode: Decodable {
    let season: Int?
    let number: Int?
    let name: String?
    let airdate: String?
    let runtime: Int?
    let type: String?
}

/// TVmaze's pictures live on `static.tvmaze.com` (the 2017 answers say http; it serves https). A picture anywhere
/// else is not fetched: an answer that named an address inside the house would have the server call it.
struct TVmazeImages: Sendable {
    /// The configured API base, where a stand-in server also serves its pictures.
    let baseURL: String

    func url(_ link: String?) -> String? {
        guard let link, link.utf8.count <= 500, var components = URLComponents(string: link) else { return nil }
        if components.host == "static.tvmaze.com" {
            components.scheme = "https"
            return components.string
        }
        return link.hasPrefix(baseURL + "/") ? link : nil
    }
}
