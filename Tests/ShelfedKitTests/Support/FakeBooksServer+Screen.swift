import Foundation
import Hummingbird
import NIOCore

@testable import ShelfedKit

extension SearchSettings {
    /// The film and show providers at `baseURL`'s stand-ins (never the real hosts from a test).
    func pointingFilmsAndShows(at baseURL: String, token: String? = nil) -> SearchSettings {
        var settings = self
        settings.tmdbURL = baseURL + "/tmdb"
        settings.tmdbImagesURL = baseURL + "/tmdbimages"
        settings.tmdbToken = token
        settings.tvmazeURL = baseURL + "/tvmaze"
        settings.wikidataURL = baseURL + "/wikidata"
        return settings
    }
}

/// TMDB, TVmaze and Wikidata as the recordings in ../shared/fixtures show them answering, from the hand-written
/// answers in Tests/Fixtures/tmdb, tvmaze and wikidata (see SOURCES.md), and shows generated to size: 30 seasons and
/// specials (tv 999030), 7,200 episodes in six seasons (tv 999015: more than a season or a show may keep).
extension FakeBooksServer.Fault {
    var isNormal: Bool {
        if case .normal = self { true } else { false }
    }
}

extension FakeBooksServer {
    /// The read token the fake TMDB accepts.
    static let tmdbToken = "eyJhbGciOiJIUzI1NiJ9.good-read-token.for-tests"
    /// What the fake TMDB gives as Dune's (2021) synopsis in Spanish (written for the tests).
    static let spanishDuneOverview = "Paul Atreides viaja al planeta más peligroso del universo."

    var tmdbRequests: [String] { state.withLock { $0.requests.filter { $0.hasPrefix("/tmdb/") } } }
    var tvmazeRequests: [String] { state.withLock { $0.requests.filter { $0.hasPrefix("/tvmaze/") } } }
    var posterRequests: [String] {
        state.withLock { $0.requests.filter { $0.hasPrefix("/tmdbimages/") || $0.hasPrefix("/tvmaze/images/") } }
    }
    var wikidataRequests: [String] { state.withLock { $0.requests.filter { $0.hasPrefix("/wikidata/") } } }

    /// From now on TVmaze's Severance (44778) has a third season — S3E1 aired on 2026-03-20, S3E2 airs on
    /// 2026-04-10 — and a new synopsis: what a refresh of a running show finds.
    func renewSeverance() {
        state.withLock { $0.severanceRenewed = true }
    }

    /// Queues faults for the next requests to "tmdb", "tvmaze" or "wikidata", one fault per request.
    func failScreen(_ provider: String, _ faults: Fault...) {
        state.withLock { $0.screenFaults[provider, default: []] += faults }
    }

    func addScreenRoutes(to router: Router<BasicRequestContext>) {
        router.get("/tmdb/search/:kind") { request, context in
            try await self.screen(request, "tmdb") {
                guard let query = request.uri.queryParameters["query"].map(String.init), !query.isEmpty else {
                    return Response(
                        status: .unprocessableContent, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: #"{"errors": ["query must be provided"]}"#)))
                }
                guard query.lowercased() == "dune" else {
                    return self.json(#"{"page":1,"results":[],"total_pages":0,"total_results":0}"#)
                }
                var page = try Self.object("tmdb/search_multi_dune.json")
                let wanted: String? =
                    switch context.parameters.get("kind") {
                    case "movie": "movie"
                    case "tv": "tv"
                    default: nil
                    }
                if let wanted {
                    // The kind searches have no `media_type`: every item is of the kind asked.
                    page["results"] = (page["results"] as! [[String: Any]]).filter {
                        $0["media_type"] as? String == wanted
                    }
                    .map { item in item.filter { $0.key != "media_type" } }
                }
                return try self.jsonObject(page)
            }
        }
        router.get("/tmdb/configuration") { request, _ in
            try await self.screen(request, "tmdb") { self.json(#"{"images": {"secure_base_url": "x"}}"#) }
        }
        router.get("/tmdb/movie/:id") { request, context in
            try await self.screen(request, "tmdb") {
                guard context.parameters.get("id") == "438631" else { return try Self.tmdbNotFound() }
                // As TMDB answers in another language: the translated synopsis where it has one (Spanish here),
                // an empty one where it has none (German here), the title itself unchanged.
                switch request.uri.queryParameters["language"] {
                case "es-ES":
                    var movie = try Self.object("tmdb/movie_438631.json")
                    movie["overview"] = Self.spanishDuneOverview
                    movie["genres"] = [["id": 878, "name": "Ciencia ficción"], ["id": 12, "name": "Aventura"]]
                    return try self.jsonObject(movie)
                case "de-DE":
                    var movie = try Self.object("tmdb/movie_438631.json")
                    movie["overview"] = ""
                    return try self.jsonObject(movie)
                default:
                    return self.json(String(decoding: try Self.fixture("tmdb/movie_438631.json"), as: UTF8.self))
                }
            }
        }
        router.get("/tmdb/tv/:id") { request, context in
            try await self.screen(request, "tmdb") {
                let appended = (request.uri.queryParameters["append_to_response"].map(String.init) ?? "")
                    .split(separator: ",").map(String.init)
                guard var show = try Self.tmdbShow(context.parameters.get("id") ?? "") else {
                    return try Self.tmdbNotFound()
                }
                let counts = Dictionary(
                    uniqueKeysWithValues: (show["seasons"] as! [[String: Any]]).map {
                        ($0["season_number"] as! Int, $0["episode_count"] as! Int)
                    })
                for part in appended where part.hasPrefix("season/") {
                    guard let number = Int(part.dropFirst("season/".count)), let count = counts[number] else {
                        continue
                    }
                    show[part] = Self.tmdbSeason(number, episodes: count)
                }
                return try self.jsonObject(show)
            }
        }
        router.get("/tmdb/find/:id") { request, context in
            try await self.screen(request, "tmdb") {
                guard request.uri.queryParameters["external_source"] == "imdb_id",
                    context.parameters.get("id") == "tt1160419"
                else {
                    return self.json(
                        #"{"movie_results":[],"person_results":[],"tv_results":[],"tv_episode_results":[],"#
                            + #""tv_season_results":[]}"#)
                }
                return self.json(String(decoding: try Self.fixture("tmdb/find_tt1160419.json"), as: UTF8.self))
            }
        }
        router.get("/tvmaze/lookup/shows") { request, _ in
            try await self.screen(request, "tvmaze") {
                // TVmaze answers a known IMDb id with a redirect to the show, an unknown one with an empty 404.
                guard request.uri.queryParameters["imdb"] == "tt11280740" else {
                    return Response(status: .notFound, headers: [.contentType: "application/json; charset=UTF-8"])
                }
                return Response(status: .movedPermanently, headers: [.location: self.baseURL + "/tvmaze/shows/44778"])
            }
        }
        router.get("/tvmaze/search/shows") { request, _ in
            try await self.screen(request, "tvmaze") {
                let query = request.uri.queryParameters["q"].map(String.init)?.lowercased() ?? ""
                guard query == "severance" else { return self.json("[]") }
                return self.json(self.tvmazeHere(try Self.fixture("tvmaze/search_shows_severance.json")))
            }
        }
        router.get("/tvmaze/shows/:id") { request, context in
            try await self.screen(request, "tvmaze") {
                switch context.parameters.get("id") {
                case "44778" where self.state.withLock({ $0.severanceRenewed }):
                    return self.json(self.tvmazeHere(try Self.renewedSeverance()))
                case "44778": return self.json(self.tvmazeHere(try Self.fixture("tvmaze/show_44778.json")))
                case "1": return self.json(#"{"id": 1, "name": "Under the Dome"}"#)
                default:
                    // TVmaze's "no such show": 404 with an empty body that still claims to be JSON.
                    return Response(status: .notFound, headers: [.contentType: "application/json; charset=UTF-8"])
                }
            }
        }
        router.get("/wikidata/w/api.php") { request, _ in
            try await self.screen(request, "wikidata") {
                let parameters = request.uri.queryParameters
                switch parameters["action"].map(String.init) {
                case "query":
                    let search = parameters["srsearch"].map(String.init)?.lowercased() ?? ""
                    if search == "haswbstatement:p345=tt1160419" {
                        return self.json(
                            String(decoding: try Self.fixture("wikidata/search_P345_tt1160419.json"), as: UTF8.self))
                    }
                    if search == "haswbstatement:p4947=438631" {
                        return self.json(
                            String(decoding: try Self.fixture("wikidata/search_P4947_438631.json"), as: UTF8.self))
                    }
                    guard search.hasPrefix("dune ") else {
                        return self.json(#"{"batchcomplete":"","query":{"search":[]}}"#)
                    }
                    return self.json(String(decoding: try Self.fixture("wikidata/search_dune.json"), as: UTF8.self))
                case "wbgetentities":
                    let props = parameters["props"].map(String.init) ?? ""
                    let ids = parameters["ids"].map(String.init) ?? ""
                    let file: String? =
                        switch (props.contains("claims"), ids) {
                        case (true, "Q37550044"): "wikidata/entity_Q37550044.json"
                        case (true, "Q190192"): "wikidata/entity_Q190192_novel.json"
                        case (true, _): nil
                        case (false, "Q7934"): "wikidata/labels_Q7934_author.json"
                        case (false, _):
                            props.contains("descriptions")
                                ? "wikidata/labels_dune.json" : "wikidata/people_Q37550044.json"
                        }
                    guard let file else {
                        return self.json(#"{"entities":{"\#(ids)":{"id":"\#(ids)","missing":""}},"success":1}"#)
                    }
                    return self.json(String(decoding: try Self.fixture(file), as: UTF8.self))
                default:
                    return self.json(#"{"error":{"code":"badvalue"}}"#)
                }
            }
        }
    }

    /// Counts the request, serves a queued fault, refuses a missing or wrong TMDB token as TMDB does, else `body`.
    private func screen(_ request: Request, _ provider: String, _ body: () throws -> Response) async throws -> Response
    {
        record(request)
        let fault = state.withLock { state -> Fault? in
            state.screenFaults[provider]?.isEmpty == false ? state.screenFaults[provider]!.removeFirst() : nil
        }
        if let fault, !fault.isNormal { return try await respond(with: fault) }
        if provider == "tmdb", request.headers[.authorization] != "Bearer " + Self.tmdbToken {
            return Response(
                status: .unauthorized, headers: [.contentType: "application/json;charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(data: try Self.fixture("tmdb/error_401.json"))))
        }
        return try body()
    }

    private static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name))
    }

    private static func object(_ name: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: try fixture(name)) as! [String: Any]
    }

    private func jsonObject(_ object: Any) throws -> Response {
        json(String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self))
    }

    /// TVmaze's picture links pointed here, so a poster download never leaves the machine.
    private func tvmazeHere(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).replacingOccurrences(
            of: "http://static.tvmaze.com/", with: baseURL + "/tvmaze/images/")
    }

    private static func renewedSeverance() throws -> Data {
        var show = try object("tvmaze/show_44778.json")
        show["summary"] = "<p>Renewed for a third season.</p>"
        var embedded = show["_embedded"] as! [String: Any]
        var episodes = embedded["episodes"] as! [[String: Any]]
        episodes += [
            [
                "id": 990_301, "season": 3, "number": 1, "name": "Cold Harbor Again", "airdate": "2026-03-20",
                "runtime": 55,
            ],
            ["id": 990_302, "season": 3, "number": 2, "name": "Not Yet", "airdate": "2026-04-10", "runtime": 55],
        ]
        embedded["episodes"] = episodes
        show["_embedded"] = embedded
        return try JSONSerialization.data(withJSONObject: show)
    }

    private static func tmdbNotFound() throws -> Response {
        Response(
            status: .notFound, headers: [.contentType: "application/json;charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(data: try fixture("tmdb/error_404.json"))))
    }

    /// The show's details without its appended parts: the written one, or one generated to size.
    private static func tmdbShow(_ id: String) throws -> [String: Any]? {
        switch id {
        case "90228": return try object("tmdb/tv_90228.json")
        case "999030", "999015":
            let long = id == "999030"
            let seasons: [[String: Any]] =
                long
                ? (0...30).map {
                    [
                        "season_number": $0, "name": $0 == 0 ? "Specials" : "Season \($0)",
                        "episode_count": $0 == 0 ? 3 : 10,
                    ]
                }
                : (1...6).map { ["season_number": $0, "name": "Season \($0)", "episode_count": 1_200] }
            return [
                "id": Int(id)!, "name": long ? "Long Runner" : "The Soap",
                "original_name": long ? "Long Runner" : "The Soap",
                "first_air_date": long ? "1990-01-05" : "", "overview": "", "poster_path": NSNull(),
                "episode_run_time": [], "genres": [], "created_by": [], "status": long ? "Ended" : "Returning Series",
                "seasons": seasons, "credits": ["cast": [], "crew": []],
                "external_ids": ["imdb_id": NSNull(), "wikidata_id": NSNull()],
            ]
        default: return nil
        }
    }

    /// A season as TMDB appends it: both `_id` (a string) and `id`, and episodes one day apart.
    private static func tmdbSeason(_ number: Int, episodes: Int) -> [String: Any] {
        let start = Date(timeIntervalSince1970: 631_152_000 + Double(number) * 86_400 * 400)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return [
            "_id": "5256c89f19c2956ff60\(number)", "id": 3_000 + number, "season_number": number,
            "air_date": formatter.string(from: start),
            "episodes": (1...episodes).map { episode in
                [
                    "episode_number": episode, "season_number": number, "name": "Episode \(episode)",
                    "air_date": formatter.string(from: start.addingTimeInterval(Double(episode) * 86_400)),
                    "runtime": 44, "episode_type": episode == episodes ? "finale" : "standard", "still_path": NSNull(),
                ] as [String: Any]
            },
        ]
    }
}
