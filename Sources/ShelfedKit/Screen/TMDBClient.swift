import Foundation

/// TMDB v3 with the household's own read token (DESIGN §17): search, and a film's or a show's details with its
/// credits, ids and seasons batched into as few requests as `append_to_response` allows.
struct TMDBClient: Sendable {
    let baseURL: String
    let token: String
    let posters: TMDBPosters
    let upstream: ResilientUpstream
    /// The language TMDB answers in: titles, synopses and genres in the person's language where TMDB has them
    /// (`language=`). English asks without the parameter, as before.
    var language: Language = .en

    /// TMDB answers at most twenty appended parts in one request.
    static let appendLimit = 20
    /// Seasons are asked for in batches of at most this many episodes, so one answer stays within the body cap
    /// (TMDB's episodes carry their crew and guest stars: about 15 KB each).
    static let episodesPerRequest = 400
    /// The show's details, then its seasons: bounded whatever the show claims (a soap opera lists thousands).
    static let seasonRequests = 12

    /// `/search/movie`, `/search/tv`, or `/search/multi` for both (people in its answer are left out).
    func search(_ query: String, kind: TitleKind?) async throws -> [ScreenTitle] {
        let path =
            switch kind {
            case .movie: "/search/movie"
            case .show: "/search/tv"
            default: "/search/multi"
            }
        let data = try await get(
            path, [URLQueryItem(name: "query", value: query), URLQueryItem(name: "include_adult", value: "false")])
        guard let page = try? JSONDecoder().decode(TMDBSearchPage.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        return (page.results ?? []).compactMap { $0.title(kind: kind, posters: posters) }
            .prefix(ScreenLimits.searchResults).map { $0 }
    }

    /// `/movie/{id}?append_to_response=credits,external_ids`
    func movie(id: Int) async throws -> ScreenTitle {
        let data = try await get(
            "/movie/\(id)", [URLQueryItem(name: "append_to_response", value: "credits,external_ids")])
        guard let movie = try? JSONDecoder().decode(TMDBMovie.self, from: data) else { throw UpstreamFailure.malformed }
        guard var title = movie.title(posters: posters) else { throw UpstreamFailure.notFound }
        if title.overview == nil, language != .en {
            title.overview = try? await english.overview(of: "/movie/\(id)", TMDBMovie.self, \.overview)
        }
        return title
    }

    /// TMDB leaves a synopsis it has no translation for empty (a title falls back to the original by itself): the
    /// English one is asked for then, without the credits and seasons already read.
    private func overview<Payload: Decodable>(
        of path: String, _ payload: Payload.Type, _ field: KeyPath<Payload, String?>
    ) async throws -> String? {
        let data = try await get(path, [])
        return ScreenText.overview((try? JSONDecoder().decode(payload, from: data))?[keyPath: field])
    }

    private var english: TMDBClient {
        var client = self
        client.language = .en
        return client
    }

    /// `/tv/{id}` with its credits and ids, then the seasons it lists, appended to further requests in batches (twenty
    /// seasons or `episodesPerRequest` episodes): a show of 30 seasons and specials takes three requests. A batch
    /// too large to read is left out, so a show with an absurd season is still added, without that season's episodes.
    func show(id: Int) async throws -> ScreenTitle {
        let details = try await showPart(id: id, appending: ["credits", "external_ids"])
        var fetched: [Int: TMDBShow.Season] = [:]
        var pending = Self.seasonBatches(details.seasonEpisodeCounts)
        var requests = 0
        while !pending.isEmpty, requests < Self.seasonRequests {
            let batch = pending.removeFirst()
            requests += 1
            do {
                let part = try await showPart(id: id, appending: batch.map { "season/\($0)" })
                fetched.merge(part.appendedSeasons.filter { batch.contains($0.key) }) { kept, _ in kept }
            } catch UpstreamFailure.tooLarge {
                // Too much at once: its seasons one at a time next; a single season too large is left out.
                if batch.count > 1 { pending.insert(contentsOf: batch.map { [$0] }, at: 0) }
            }
        }
        guard var title = details.title(posters: posters, seasons: fetched) else { throw UpstreamFailure.notFound }
        if title.overview == nil, language != .en {
            title.overview = try? await english.overview(of: "/tv/\(id)", TMDBShow.self, \.overview)
        }
        return title
    }

    /// Season numbers grouped for `append_to_response`: at most twenty to a request and, past the first season of a
    /// request, no more than `episodesPerRequest` episodes.
    static func seasonBatches(_ seasons: [(number: Int, episodes: Int)]) -> [[Int]] {
        var batches: [[Int]] = []
        var current: [Int] = []
        var episodes = 0
        for season in seasons {
            if !current.isEmpty, current.count == appendLimit || episodes + season.episodes > episodesPerRequest {
                batches.append(current)
                current = []
                episodes = 0
            }
            current.append(season.number)
            episodes += max(0, season.episodes)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// `/find/{id}?external_source=imdb_id`: TMDB's id for the film or show IMDb numbers `imdbID`, nil when it
    /// knows none. The answer lists films, shows and episodes apart; only the kind asked for is read (an id of
    /// another kind is not this title).
    func find(imdb imdbID: String, kind: TitleKind) async throws -> Int? {
        guard let imdbID = ScreenIDs.imdbID(imdbID), kind != .book else { return nil }
        let data = try await get("/find/\(imdbID)", [URLQueryItem(name: "external_source", value: "imdb_id")])
        guard let found = try? JSONDecoder().decode(TMDBFindAnswer.self, from: data) else {
            throw UpstreamFailure.malformed
        }
        let items = (kind == .movie ? found.movieResults : found.tvResults) ?? []
        return items.lazy.compactMap(\.id).first { $0 > 0 }
    }

    /// `/configuration`: answers 200 for any token TMDB accepts, 401 for one it does not.
    func checkToken() async throws {
        _ = try await get("/configuration", [])
    }

    private func showPart(id: Int, appending parts: [String]) async throws -> TMDBShow {
        let data = try await get(
            "/tv/\(id)", [URLQueryItem(name: "append_to_response", value: parts.joined(separator: ","))])
        guard let show = try? JSONDecoder().decode(TMDBShow.self, from: data) else { throw UpstreamFailure.malformed }
        return show
    }

    /// A v4 read token goes in `Authorization`; an older 32-character v3 key can only go in the query (nothing logs
    /// these URLs).
    private func get(_ path: String, _ items: [URLQueryItem]) async throws -> Data {
        var components = URLComponents(string: baseURL + path)!
        var query = items
        var headers: [(String, String)] = []
        if Self.isV3Key(token) {
            query.append(URLQueryItem(name: "api_key", value: token))
        } else {
            headers.append(("Authorization", "Bearer " + token))
        }
        if let code = language.tmdbCode {
            query.append(URLQueryItem(name: "language", value: code))
        }
        components.queryItems = query.isEmpty ? nil : query
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return try await upstream.get(components.string!, headers: headers)
    }

    static func isV3Key(_ token: String) -> Bool {
        token.utf8.count == 32 && token.utf8.allSatisfy(\.isASCIIAlphanumeric)
    }

    /// Whether `token` could be a TMDB credential at all (a v3 key or a v4 read token): printable ASCII without
    /// spaces, of a sane length, so nothing else reaches a header.
    static func isPlausibleToken(_ token: String) -> Bool {
        (20...1_000).contains(token.utf8.count) && token.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
}

extension Language {
    /// TMDB's tag for the language: its own region for each, and Brazil's for Portuguese, where nearly all of TMDB's
    /// Portuguese synopses are. English is TMDB's default and needs none.
    var tmdbCode: String? {
        switch self {
        case .en: nil
        case .es: "es-ES"
        case .de: "de-DE"
        case .fr: "fr-FR"
        case .it: "it-IT"
        case .pt: "pt-BR"
        }
    }

    /// Kept apart in the answer cache: nothing for English, whose keys predate the languages.
    var cacheSuffix: String { self == .en ? "" : ":" + rawValue }
}
