import Foundation

/// The few calls of Jellyfin's API Shelfed makes, with the key in the `Authorization` header Jellyfin documents.
struct JellyfinClient: Sendable {
    let baseURL: String
    let apiKey: String
    let upstream: ResilientUpstream

    /// At most this many played items are brought in (a page of 200, fifty pages).
    static let pageSize = 200
    static let maxPages = 50

    struct Info: Decodable, Sendable {
        let serverName: String?
        let version: String?

        enum CodingKeys: String, CodingKey {
            case serverName = "ServerName"
            case version = "Version"
        }
    }

    struct User: Decodable, Sendable {
        let id: String?
        let name: String?

        enum CodingKeys: String, CodingKey {
            case id = "Id"
            case name = "Name"
        }
    }

    /// One played film or episode, as `/Users/{id}/Items` lists it, read leniently as the webhook's calls are: a
    /// field of another type (`"Tvdb": null` among the ids) is as good as absent, never the whole page's failure.
    struct Item: Decodable, Sendable {
        struct UserData: Decodable, Sendable {
            var played: Bool?
            var lastPlayedDate: String?

            enum CodingKeys: String, CodingKey {
                case played = "Played"
                case lastPlayedDate = "LastPlayedDate"
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                played = try? container.decodeIfPresent(Bool.self, forKey: .played)
                lastPlayedDate = try? container.decodeIfPresent(String.self, forKey: .lastPlayedDate)
            }
        }

        var id: String?
        var name: String?
        var originalTitle: String?
        var type: String?
        var productionYear: Int?
        var seriesName: String?
        var seasonNumber: Int?
        var episodeNumber: Int?
        var providerIDs: [String: String]?
        var userData: UserData?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) -> String? {
                (try? container.decodeIfPresent(String.self, forKey: key)).flatMap { $0.utf8.count <= 1_000 ? $0 : nil }
            }
            id = text(.id)
            name = text(.name)
            originalTitle = text(.originalTitle)
            type = text(.type)
            productionYear = try? container.decodeIfPresent(Int.self, forKey: .productionYear)
            seriesName = text(.seriesName)
            seasonNumber = try? container.decodeIfPresent(Int.self, forKey: .seasonNumber)
            episodeNumber = try? container.decodeIfPresent(Int.self, forKey: .episodeNumber)
            providerIDs = (try? container.decodeIfPresent([String: String?].self, forKey: .providerIDs))?
                .compactMapValues { $0 }
            userData = try? container.decodeIfPresent(UserData.self, forKey: .userData)
        }

        enum CodingKeys: String, CodingKey {
            case id = "Id"
            case name = "Name"
            case originalTitle = "OriginalTitle"
            case type = "Type"
            case productionYear = "ProductionYear"
            case seriesName = "SeriesName"
            case seasonNumber = "ParentIndexNumber"
            case episodeNumber = "IndexNumber"
            case providerIDs = "ProviderIds"
            case userData = "UserData"
        }

        /// The item as the webhook's event reads it (bounded the same way): a played item is "marked played".
        var event: JellyfinEvent {
            var event = JellyfinEvent()
            event.notificationType = "UserDataSaved"
            event.played = userData?.played
            event.itemType = type.flatMap { ["Movie", "Episode"].contains($0) ? $0 : nil }
            event.itemID = id.flatMap { $0.utf8.count <= 64 ? JellyfinWebhookStore.compactID($0) : nil }
            event.name = name.flatMap(Self.text)
            event.seriesName = seriesName.flatMap(Self.text)
            event.year = productionYear.flatMap { BoundedNumber.year.contains($0) ? $0 : nil }
            event.seasonNumber = seasonNumber.flatMap { ScreenLimits.seasonNumbers.contains($0) ? $0 : nil }
            event.episodeNumber = episodeNumber.flatMap { ScreenLimits.episodeNumbers.contains($0) ? $0 : nil }
            event.utcTimestamp = userData?.lastPlayedDate.flatMap { $0.utf8.count <= 40 ? $0 : nil }
            let ids = providerIDs ?? [:]
            event.tmdbID = (ids["Tmdb"] ?? ids["tmdb"]).flatMap {
                $0.utf8.count <= 20 && !$0.isEmpty && $0.allSatisfy(\.isNumber) ? $0 : nil
            }
            event.imdbID = (ids["Imdb"] ?? ids["imdb"]).flatMap { ScreenImportValues.imdbID($0) }
            return event
        }

        private static func text(_ value: String) -> String? {
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty || trimmed.count > 500 || NewBookForm.hasControlCharacters(trimmed) ? nil : trimmed
        }
    }

    private struct Page: Decodable {
        let items: [Item]?
        let totalRecordCount: Int?

        enum CodingKeys: String, CodingKey {
            case items = "Items"
            case totalRecordCount = "TotalRecordCount"
        }
    }

    /// `/System/Info`: answers for a key Jellyfin accepts (401 for one it does not).
    func info() async throws -> Info {
        try decode(Info.self, try await get("/System/Info", []))
    }

    /// `/Users`: the server's users.
    func users() async throws -> [User] {
        try decode([User].self, try await get("/Users", []))
    }

    /// Every film and episode `userID` has played, the latest first, page by page; `capped` when there were more
    /// than `maxPages` pages' worth (the oldest are left out).
    func playedItems(of userID: String) async throws -> (items: [Item], capped: Bool) {
        var items: [Item] = []
        for page in 0..<Self.maxPages {
            let answer = try decode(
                Page.self,
                try await get(
                    "/Users/\(userID)/Items",
                    [
                        ("Recursive", "true"), ("IncludeItemTypes", "Movie,Episode"), ("Filters", "IsPlayed"),
                        ("Fields", "ProviderIds,ProductionYear"), ("EnableUserData", "true"),
                        ("SortBy", "DatePlayed"), ("SortOrder", "Descending"),
                        ("StartIndex", String(page * Self.pageSize)), ("Limit", String(Self.pageSize)),
                    ]))
            // A page longer than asked for is cut to the page size: the total stays bounded whatever it sends.
            let found = (answer.items ?? []).prefix(Self.pageSize)
            items += found
            if found.count < Self.pageSize || items.count >= (answer.totalRecordCount ?? Int.max) {
                return (items, false)
            }
        }
        return (items, true)
    }

    /// Every film and show on the server (what the API key may see), page by page, up to `maxPages` pages: the
    /// house's library, for "At home". Those past the cap are left out (a house of 10,000 films is told nothing).
    func libraryItems() async throws -> [Item] {
        var items: [Item] = []
        for page in 0..<Self.maxPages {
            let answer = try decode(
                Page.self,
                try await get(
                    "/Items",
                    [
                        ("Recursive", "true"), ("IncludeItemTypes", "Movie,Series"),
                        ("Fields", "ProviderIds,ProductionYear,OriginalTitle"), ("EnableUserData", "false"),
                        ("SortBy", "SortName"), ("StartIndex", String(page * Self.pageSize)),
                        ("Limit", String(Self.pageSize)),
                    ]))
            let found = (answer.items ?? []).prefix(Self.pageSize)
            items += found
            if found.count < Self.pageSize || items.count >= (answer.totalRecordCount ?? Int.max) { break }
        }
        return items
    }

    private func get(_ path: String, _ query: [(String, String)]) async throws -> Data {
        var components = URLComponents(string: baseURL + path)
        if !query.isEmpty { components?.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        guard let url = components?.string else { throw UpstreamFailure.notFound }
        return try await upstream.get(url, headers: [("Authorization", "MediaBrowser Token=\"\(apiKey)\"")])
    }

    private func decode<Answer: Decodable>(_ type: Answer.Type, _ data: Data) throws -> Answer {
        guard let answer = try? JSONDecoder().decode(type, from: data) else { throw UpstreamFailure.malformed }
        return answer
    }
}
