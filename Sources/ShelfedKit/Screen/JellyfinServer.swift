import AsyncHTTPClient
import Foundation
import GRDB
import Logging

/// The household's own Jellyfin server (issue 38): its address and an API key the admin made in Jellyfin (Dashboard →
/// API Keys), checked when saved and by `doctor`. With it, each member can bring in what they have played there, once:
/// every film and episode Jellyfin marks played, counted on the day it was last played, as the webhook counts one.
struct JellyfinServer: Sendable {
    static let urlKey = "jellyfin_url"
    static let apiKeyKey = "jellyfin_api_key"
    static let maxURLLength = 300

    let db: AppDatabase
    let upstream: ResilientUpstream

    init(db: AppDatabase, upstream: ResilientUpstream) {
        self.db = db
        self.upstream = upstream
    }

    /// With the search's timeout and retries, and a breaker of its own (a Jellyfin at home that is off says nothing
    /// about the internet's providers).
    init(
        db: AppDatabase, settings: SearchSettings, clock: AppClock, logger: Logger,
        http: @escaping @Sendable () -> HTTPClient
    ) {
        self.db = db
        upstream = ResilientUpstream(
            name: "Jellyfin",
            client: UpstreamClient(http: http, timeout: settings.timeout, maxBodyBytes: 8 * 1_048_576),
            policy: settings.retry,
            breaker: CircuitBreaker(
                name: "Jellyfin", threshold: settings.breakerThreshold, coolDown: settings.breakerCoolDown,
                now: clock.now),
            logger: logger)
    }

    /// The saved address and key, when both are.
    func saved() async throws -> (url: String, apiKey: String)? {
        try await db.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, value FROM household_setting WHERE key IN (?, ?)",
                arguments: [Self.urlKey, Self.apiKeyKey])
            let values = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as String) })
            guard let url = values[Self.urlKey], let key = values[Self.apiKeyKey] else { return nil }
            return (url, key)
        }
    }

    func save(url: String, apiKey: String, now: Date) async throws {
        try await db.write { db in
            for (key, value) in [(Self.urlKey, url), (Self.apiKeyKey, apiKey)] {
                try db.execute(
                    sql: """
                        INSERT INTO household_setting (key, value, changed_at) VALUES (?, ?, ?)
                        ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at
                        """, arguments: [key, value, now])
            }
        }
    }

    func forget() async throws {
        try await db.write { db in
            try db.execute(
                sql: "DELETE FROM household_setting WHERE key IN (?, ?)", arguments: [Self.urlKey, Self.apiKeyKey])
        }
    }

    func client(url: String, apiKey: String) -> JellyfinClient {
        JellyfinClient(baseURL: url, apiKey: apiKey, upstream: upstream)
    }

    /// For the admin's check of what they typed: asked once, past the breaker (a mistyped port must not make the
    /// corrected address look unreachable for a minute).
    func checkingClient(url: String, apiKey: String) -> JellyfinClient {
        let once = ResilientUpstream(
            name: "Jellyfin (check)", client: upstream.client, policy: RetryPolicy(maxAttempts: 1),
            breaker: CircuitBreaker(name: "Jellyfin (check)", threshold: 1_000, coolDown: 1, now: { Date() }),
            logger: upstream.logger)
        return JellyfinClient(baseURL: url, apiKey: apiKey, upstream: once)
    }

    /// The address as typed, made into a base URL: http or https with a host, no query, no trailing slash; nil for
    /// anything else.
    static func baseURL(_ typed: String) -> String? {
        var text = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix("/") { text.removeLast() }
        guard text.utf8.count <= maxURLLength, !NewBookForm.hasControlCharacters(text), !text.contains(" "),
            let components = URLComponents(string: text), components.scheme == "http" || components.scheme == "https",
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        return text
    }

    /// An API key as Jellyfin makes them (32 hex digits): letters and digits only, so nothing else reaches the
    /// `Token="…"` header.
    static func isPlausibleKey(_ key: String) -> Bool {
        (16...200).contains(key.utf8.count) && key.utf8.allSatisfy(\.isASCIIAlphanumeric)
    }
}

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

extension JellyfinWebhookStore {
    /// How a member's played history came in.
    struct HistoryOutcome: Sendable, Equatable {
        var counted = 0
        var alreadyCounted = 0
        /// Episodes of shows the member does not have, items of other kinds or without a day: nothing on a guess.
        var passedOver = 0
        /// Jellyfin listed more than `JellyfinClient`'s limit: the latest plays were brought in.
        var capped = false
    }

    /// Counts each played item for `userID` on the day it was last played (each once a day, as the webhook does:
    /// bringing the history in again adds nothing).
    func countHistory(_ items: [JellyfinClient.Item], for userID: Int64, timeZone: TimeZone, today: String, now: Date)
        async throws -> HistoryOutcome
    {
        var outcome = HistoryOutcome()
        for item in items {
            let event = item.event
            guard let day = event.playedDay(in: timeZone, today: today) else {
                outcome.passedOver += 1
                continue
            }
            switch try await count(event, for: userID, day: day, now: now) {
            case .counted: outcome.counted += 1
            case .alreadyCounted: outcome.alreadyCounted += 1
            case .ignored, .notInLibrary: outcome.passedOver += 1
            }
        }
        return outcome
    }
}
