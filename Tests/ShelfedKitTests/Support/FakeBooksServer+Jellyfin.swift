import Foundation
import Hummingbird
import NIOCore

@testable import ShelfedKit

/// A household's Jellyfin server (issue 38), answering in the shapes Jellyfin's API documents (no recorded answer of
/// `/Users/{id}/Items` exists in ../shared/fixtures; these are written here, in code): `/System/Info`, `/Users`, a
/// user's played items and the server's films and shows (`/Items`), with the key in the `Authorization: MediaBrowser Token="…"` header, else 401 as Jellyfin
/// answers.
extension FakeBooksServer {
    static let jellyfinKey = "0123456789abcdef0123456789abcdef"
    static let jellyfinUserID = "4c1a2b3c4d5e6f708192a3b4c5d6e7f8"

    var jellyfinRequests: [String] { state.withLock { $0.requests.filter { $0.hasPrefix("/jellyfin/") } } }

    func addJellyfinRoutes(to router: Router<BasicRequestContext>) {
        router.get("/jellyfin/System/Info") { request, _ in
            try self.jellyfin(request) {
                self.json(
                    #"{"ServerName":"Living room","Version":"10.10.3","Id":"f00df00d","OperatingSystem":"Linux"}"#)
            }
        }
        router.get("/jellyfin/Users") { request, _ in
            try self.jellyfin(request) {
                self.json(
                    #"[{"Name":"Rain","ServerId":"f00df00d","Id":"\#(Self.jellyfinUserID)","HasPassword":true},"#
                        + #"{"Name":"guest","ServerId":"f00df00d","Id":"99999999999999999999999999999999"}]"#)
            }
        }
        router.get("/jellyfin/Items") { request, _ in
            try self.jellyfin(request) {
                // What Shelfed asks for, or a 400: every film and show, all the way down the folders.
                let query = request.uri.queryParameters
                guard query["IncludeItemTypes"] == "Movie,Series", query["Recursive"] == "true" else {
                    return Response(status: .badRequest)
                }
                let start = Int(query["StartIndex"] ?? "0") ?? 0
                let limit = Int(query["Limit"] ?? "100") ?? 100
                let items = Self.libraryItems
                let body: [String: Any] = [
                    "Items": Array(items.dropFirst(start).prefix(limit)), "TotalRecordCount": items.count,
                    "StartIndex": start,
                ]
                return self.json(String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
            }
        }
        router.get("/jellyfin/Users/:id/Items") { request, context in
            try self.jellyfin(request) {
                guard context.parameters.get("id") == Self.jellyfinUserID else {
                    return Response(status: .notFound)
                }
                // What Shelfed asks for, or a 400: played films and episodes, the latest first.
                let query = request.uri.queryParameters
                guard query["Filters"] == "IsPlayed", query["IncludeItemTypes"] == "Movie,Episode",
                    query["SortBy"] == "DatePlayed", query["SortOrder"] == "Descending", query["Recursive"] == "true"
                else { return Response(status: .badRequest) }
                let start = Int(request.uri.queryParameters["StartIndex"] ?? "0") ?? 0
                let limit = Int(request.uri.queryParameters["Limit"] ?? "100") ?? 100
                let items = Self.playedItems
                let page = Array(items.dropFirst(start).prefix(limit))
                let body: [String: Any] = ["Items": page, "TotalRecordCount": items.count, "StartIndex": start]
                return self.json(String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
            }
        }
    }

    /// What the server holds: Dune with its ids, Severance with its IMDb id only, Arrival by its title and year
    /// alone, and a season (not a title: passed over).
    static var libraryItems: [[String: Any]] {
        [
            [
                "Name": "Dune", "Id": "bb000000000000000000000000000001", "Type": "Movie", "ProductionYear": 2021,
                "ProviderIds": ["Tmdb": "438631", "Imdb": "tt1160419"],
            ],
            [
                "Name": "Severance", "Id": "bb000000000000000000000000000002", "Type": "Series",
                "ProductionYear": 2022, "ProviderIds": ["Imdb": "tt11280740", "Tvdb": NSNull()] as [String: Any],
            ],
            ["Name": "Arrival", "Id": "bb000000000000000000000000000003", "Type": "Movie", "ProductionYear": 2016],
            ["Name": "Season 1", "Id": "bb000000000000000000000000000004", "Type": "Season", "ProductionYear": 1995],
        ]
    }

    /// A film with its ids, two episodes of Severance, an episode of a show nobody has, and a film with no day.
    static var playedItems: [[String: Any]] {
        [
            [
                "Name": "Dune", "Id": "aa000000000000000000000000000001", "Type": "Movie", "ProductionYear": 2021,
                "ProviderIds": ["Tmdb": "438631", "Imdb": "tt1160419"],
                "UserData": ["Played": true, "PlayCount": 1, "LastPlayedDate": "2026-02-01T20:15:00.0000000Z"],
            ],
            [
                "Name": "Good News About Hell", "Id": "aa000000000000000000000000000002", "Type": "Episode",
                "SeriesName": "Severance", "ParentIndexNumber": 1, "IndexNumber": 1,
                "ProviderIds": [:] as [String: String],
                "UserData": ["Played": true, "PlayCount": 1, "LastPlayedDate": "2026-02-03T21:00:00.0000000Z"],
            ],
            [
                "Name": "Half Loop", "Id": "aa000000000000000000000000000003", "Type": "Episode",
                "SeriesName": "Severance", "ParentIndexNumber": 1, "IndexNumber": 2,
                "UserData": ["Played": true, "PlayCount": 2, "LastPlayedDate": "2026-02-04T21:00:00.0000000Z"],
            ],
            [
                "Name": "Pilot", "Id": "aa000000000000000000000000000004", "Type": "Episode",
                "SeriesName": "Nobody's Show",
                "ParentIndexNumber": 1, "IndexNumber": 1,
                "UserData": ["Played": true, "PlayCount": 1, "LastPlayedDate": "2026-02-05T21:00:00.0000000Z"],
            ],
            // Played, but with no day (a watched flag from a file), and an id of another type among its ids.
            [
                "Name": "Heat", "Id": "aa000000000000000000000000000005", "Type": "Movie", "ProductionYear": 1995,
                "ProviderIds": ["Tvdb": NSNull(), "Imdb": "tt0113277"] as [String: Any],
                "UserData": ["Played": true, "PlayCount": 1],
            ],
        ]
    }

    private func jellyfin(_ request: Request, _ body: () throws -> Response) throws -> Response {
        record(request)
        guard request.headers[.authorization] == #"MediaBrowser Token="\#(Self.jellyfinKey)""# else {
            return Response(status: .unauthorized)
        }
        return try body()
    }
}
