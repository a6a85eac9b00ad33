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
            // What it holds goes with it: nothing says "At home" for a server no longer linked.
            try JellyfinLibrary.forget(db)
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
