import AsyncHTTPClient
import Foundation
import GRDB
import Logging

/// A search for films and shows, and where its answer came from.
public struct TitleSearchAnswer: Codable, Sendable {
    public var results: [ScreenTitle]
    /// `tmdb`, `tvmaze`, `wikidata`, or `tvmaze+wikidata` when both answered a search of every kind.
    public var source: String
    public var cached = false
    /// The household's TMDB token was refused, so the keyless providers answered instead: the admin should know.
    public var tokenRefused = false
}

/// Finds films and shows (DESIGN §17): TMDB when the household has a token, else TVmaze for shows and Wikidata for
/// films. The same SQLite cache, shared in-flight requests, retries and per-provider circuit breakers as the book
/// search, so the pages answer within the wait whatever the network does.
public struct TitleSearchService: Sendable {
    static let queryLifetime: TimeInterval = 24 * 60 * 60
    /// Details are kept for a week in the cache; the catalog row they fill is refreshed after six months.
    static let detailsLifetime: TimeInterval = 7 * 24 * 60 * 60

    let tmdbURL: String
    let tmdbPosters: TMDBPosters
    let tmdbUpstream: ResilientUpstream
    let tvmaze: TVmazeClient
    let wikidata: WikidataClient
    let cache: SearchCache
    let tokens: TMDBToken
    private let searches = RequestCoalescer<TitleSearchAnswer>()
    private let details = RequestCoalescer<ScreenTitle>()

    public init(
        settings: SearchSettings, database: AppDatabase, clock: AppClock, logger: Logger,
        http: @escaping @Sendable () -> HTTPClient
    ) {
        func upstream(_ name: String) -> ResilientUpstream {
            // A show's seasons batched into one answer run to megabytes; a book search's cap would refuse them.
            ResilientUpstream(
                name: name,
                client: UpstreamClient(http: http, timeout: settings.timeout, maxBodyBytes: settings.maxBodyBytes * 4),
                policy: settings.retry,
                breaker: CircuitBreaker(
                    name: name, threshold: settings.breakerThreshold, coolDown: settings.breakerCoolDown, now: clock.now
                ),
                logger: logger)
        }
        tmdbURL = settings.tmdbURL
        tmdbPosters = TMDBPosters(baseURL: settings.tmdbImagesURL)
        tmdbUpstream = upstream("TMDB")
        tvmaze = TVmazeClient(baseURL: settings.tvmazeURL, upstream: upstream("TVmaze"))
        wikidata = WikidataClient(baseURL: settings.wikidataURL, upstream: upstream("Wikidata"))
        cache = SearchCache(db: database, now: clock.now)
        tokens = TMDBToken(db: database, fromEnvironment: settings.tmdbToken)
    }

    func tmdb(_ token: String, in language: Language = .en) -> TMDBClient {
        TMDBClient(
            baseURL: tmdbURL, token: token, posters: tmdbPosters, upstream: tmdbUpstream, language: language)
    }

    /// Films and shows matching `query` (`kind` nil: both), from TMDB when there is a token and it is accepted.
    /// `within`: how long a page waits; asking both keyless providers, each gets most of it, so one that hangs does
    /// not hide the other's answer.
    public func search(_ query: String, kind: TitleKind?, within: Duration = .seconds(10)) async throws
        -> TitleSearchAnswer
    {
        let query = String(String.UnicodeScalarView(query.unicodeScalars.prefix(SearchRequest.maxTextLength)))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !query.isEmpty, kind != .book else { return TitleSearchAnswer(results: [], source: "library") }
        if let token = try await tokens.current() {
            do {
                let language = Language.current
                return try await cached("tmdb", query, kind, in: language) {
                    try await tmdb(token, in: language).search(query, kind: kind)
                }
            } catch UpstreamFailure.refused(status: 401) {
                var answer = try await keyless(query, kind: kind, within: within)
                answer.tokenRefused = true
                return answer
            } catch UpstreamFailure.circuitOpen {
                // TMDB is resting after failures of its own: the keyless providers may still answer.
                return try await keyless(query, kind: kind, within: within)
            }
        }
        return try await keyless(query, kind: kind, within: within)
    }

    /// TVmaze for shows and Wikidata for films; for both, whichever answers (the two asked at once).
    private func keyless(_ query: String, kind: TitleKind?, within: Duration) async throws -> TitleSearchAnswer {
        switch kind {
        case .show: return try await cached("tvmaze", query, kind) { try await tvmaze.search(query) }
        case .movie: return try await cached("wikidata", query, kind) { try await wikidata.search(query) }
        default:
            // Each within most of the page's wait: one that hangs leaves the other's answer in time.
            let each = within * 0.9
            async let shows = Self.outcome {
                try await resultWithin(each) {
                    try await cached("tvmaze", query, .show) { try await tvmaze.search(query) }
                }
            }
            async let films = Self.outcome {
                try await resultWithin(each) {
                    try await cached("wikidata", query, .movie) { try await wikidata.search(query) }
                }
            }
            switch (await films, await shows) {
            case (.success(let films), .success(let shows)):
                return TitleSearchAnswer(
                    results: Self.interleaved(films.results, shows.results), source: "wikidata+tvmaze",
                    cached: films.cached && shows.cached)
            case (.success(let answer), .failure), (.failure, .success(let answer)):
                return answer
            case (.failure(let failure), .failure):
                throw failure
            }
        }
    }

    private static func outcome(_ work: () async throws -> TitleSearchAnswer) async -> Result<
        TitleSearchAnswer, any Error
    > {
        do { return .success(try await work()) } catch { return .failure(error) }
    }

    /// Films and shows one after the other, so neither kind is pushed below the fold.
    static func interleaved(_ first: [ScreenTitle], _ second: [ScreenTitle]) -> [ScreenTitle] {
        var merged: [ScreenTitle] = []
        for index in 0..<max(first.count, second.count) {
            if index < first.count { merged.append(first[index]) }
            if index < second.count { merged.append(second[index]) }
        }
        return merged
    }

    private func cached(
        _ source: String, _ query: String, _ kind: TitleKind?, in language: Language = .en,
        _ work: @escaping @Sendable () async throws -> [ScreenTitle]
    ) async throws -> TitleSearchAnswer {
        let key = "screen:\(source):q:\(kind?.rawValue ?? "all"):\(query.lowercased())" + language.cacheSuffix
        if var answer = try await cache.value(TitleSearchAnswer.self, for: key) {
            answer.cached = true
            return answer
        }
        return try await searches.value(for: key) { [cache] in
            let answer = TitleSearchAnswer(results: try await work(), source: source)
            try await cache.store(answer, for: key, lifetime: Self.queryLifetime)
            return answer
        }
    }

    /// Whether TMDB accepts `token`: nil when it does, else why not. Asked once, past the breaker: an admin's
    /// mistyped tokens say nothing about TMDB, and an open breaker must not let an unchecked token through.
    func check(token: String) async -> UpstreamFailure? {
        let once = ResilientUpstream(
            name: "TMDB (token check)", client: tmdbUpstream.client, policy: RetryPolicy(maxAttempts: 1),
            breaker: CircuitBreaker(name: "TMDB (token check)", threshold: 1_000, coolDown: 1, now: { Date() }),
            logger: tmdbUpstream.logger)
        do {
            try await TMDBClient(baseURL: tmdbURL, token: token, posters: tmdbPosters, upstream: once).checkToken()
            return nil
        } catch let failure as UpstreamFailure {
            return failure
        } catch {
            return .network
        }
    }

    /// One film or show with everything adding it writes: credits, ids, genres, and a show's seasons. `fresh` asks
    /// the provider even when the cache has an answer (the background refresh, `ScreenRefreshWorker`).
    public func title(source: ScreenSource, id: String, kind: TitleKind, fresh: Bool = false) async throws
        -> ScreenTitle
    {
        // TMDB answers in the person's language, so each language's answer is kept apart (English's key as before).
        let language = source == .tmdb ? Language.current : .en
        let key = "screen:\(source.rawValue):\(kind.rawValue):\(id)" + language.cacheSuffix
        if !fresh, let cached = try await cache.value(ScreenTitle.self, for: key) { return cached }
        return try await details.value(for: key) { [self] in
            let title: ScreenTitle
            switch (source, kind) {
            case (.tmdb, .movie), (.tmdb, .show):
                guard let number = BoundedNumber.id(id), let token = try await tokens.current()
                else { throw UpstreamFailure.notFound }
                let client = tmdb(token, in: language)
                title = try await kind == .movie ? client.movie(id: Int(number)) : client.show(id: Int(number))
            case (.tvmaze, .show):
                guard let number = BoundedNumber.id(id) else { throw UpstreamFailure.notFound }
                title = try await tvmaze.show(id: Int(number))
            case (.wikidata, .movie):
                title = try await wikidata.movie(id: id)
            default:
                throw UpstreamFailure.notFound
            }
            try await cache.store(title, for: key, lifetime: Self.detailsLifetime)
            return title
        }
    }
}

/// The household's TMDB token: the one the admin typed in Settings, else `SHELFED_TMDB_TOKEN`, else none.
struct TMDBToken: Sendable {
    let db: AppDatabase
    let fromEnvironment: String?

    func current() async throws -> String? {
        try await typed() ?? fromEnvironment
    }

    /// The token the admin typed in Settings, if any.
    func typed() async throws -> String? {
        try await db.read { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT value FROM household_setting WHERE key = 'tmdb_token'"))
        }
    }

    /// Keeps `token` (nil: forget it, so the environment's, if any, is used again). Imported titles no provider
    /// knew are asked again now, through TMDB, rather than six months on.
    func set(_ token: String?, now: Date) async throws {
        try await db.write { db in
            if let token {
                try db.execute(
                    sql: """
                        INSERT INTO household_setting (key, value, changed_at) VALUES ('tmdb_token', ?, ?)
                        ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at
                        """, arguments: [token, now])
                try db.execute(
                    sql: """
                        UPDATE book SET title_match = NULL, title_match_checked_at = NULL
                        WHERE title_match = 'none' AND provider_key IS NULL
                        """)
            } else {
                try db.execute(sql: "DELETE FROM household_setting WHERE key = 'tmdb_token'")
            }
        }
    }
}
