import AsyncHTTPClient
import Foundation
import Logging

/// What the user asked for on the search page.
public struct SearchRequest: Sendable, Equatable {
    public enum Field: String, Sendable, CaseIterable {
        case all, title, author
    }

    public var text: String
    public var field: Field
    public var startIndex: Int

    /// The longest query sent to a provider, in Unicode scalars (a `Character` can hold any number of them).
    public static let maxTextLength = 300

    public init(text: String, field: Field = .all, startIndex: Int = 0) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        self.text = String(String.UnicodeScalarView(trimmed.unicodeScalars.prefix(Self.maxTextLength)))
        self.field = field
        self.startIndex = min(max(0, startIndex), BoundedNumber.searchStart.upperBound)
    }

    /// Whether `id` has the shape of a Google Books volume id (letters, digits, `-` and `_`), so nothing
    /// else is ever sent to Google as one.
    public static func isVolumeID(_ id: String) -> Bool {
        (1...40).contains(id.utf8.count)
            && id.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// The ISBN when the text is one (hyphens and spaces allowed).
    public var isbn: ISBN? { ISBN(text) }
}

/// Results and whether they came from the cache.
public struct SearchAnswer: Sendable {
    public let results: VolumeSearchResults
    public let cached: Bool
}

/// Finds books through Google Books (Open Library for ISBNs Google lacks or while it fails), with a SQLite
/// cache, shared in-flight requests, retries and a circuit breaker per provider.
public struct BookSearchService: Sendable {
    static let queryLifetime: TimeInterval = 24 * 60 * 60
    static let isbnLifetime: TimeInterval = 7 * 24 * 60 * 60

    let google: GoogleBooksClient
    let openLibrary: OpenLibraryClient
    let cache: SearchCache
    private let searches = RequestCoalescer<VolumeSearchResults>()
    private let volumes = RequestCoalescer<VolumeResult>()
    let enrichments = RequestCoalescer<EnrichedBook>()

    public init(
        settings: SearchSettings, database: AppDatabase, clock: AppClock, logger: Logger,
        http: @escaping @Sendable () -> HTTPClient
    ) {
        func upstream(_ name: String) -> ResilientUpstream {
            ResilientUpstream(
                name: name,
                client: UpstreamClient(http: http, timeout: settings.timeout, maxBodyBytes: settings.maxBodyBytes),
                policy: settings.retry,
                breaker: CircuitBreaker(
                    name: name, threshold: settings.breakerThreshold, coolDown: settings.breakerCoolDown, now: clock.now
                ),
                logger: logger)
        }
        google = GoogleBooksClient(
            baseURL: settings.googleBooksURL, apiKey: settings.googleBooksAPIKey, upstream: upstream("Google Books"))
        openLibrary = OpenLibraryClient(
            baseURL: settings.openLibraryURL, coversBaseURL: settings.openLibraryCoversURL,
            upstream: upstream("Open Library"))
        cache = SearchCache(db: database, now: clock.now)
    }

    /// Runs a search: an ISBN is looked up as such, anything else as a (title/author-scoped) query.
    public func search(_ request: SearchRequest) async throws -> SearchAnswer {
        guard !request.text.isEmpty else {
            return SearchAnswer(results: .init(totalItems: 0, items: []), cached: false)
        }
        if let isbn = request.isbn {
            return try await lookup(isbn: isbn)
        }
        let query: String
        switch request.field {
        case .all: query = request.text
        case .title: query = "intitle:" + request.text
        case .author: query = "inauthor:" + request.text
        }
        return try await search(googleQuery: query, startIndex: request.startIndex)
    }

    /// Google Books' answer to `query` as written (`intitle:`, `inauthor:` …), cached and shared like any search.
    func search(googleQuery query: String, startIndex: Int) async throws -> SearchAnswer {
        let key = "google:q:\(query.lowercased()):\(startIndex)"
        if let cached = try await cache.value(VolumeSearchResults.self, for: key) {
            return SearchAnswer(results: cached, cached: true)
        }
        let results = try await searches.value(for: key) { [google, cache] in
            let results = try await google.search(query, startIndex: startIndex)
            try await cache.store(results, for: key, lifetime: Self.queryLifetime)
            return results
        }
        return SearchAnswer(results: results, cached: false)
    }

    /// Volumes that really carry `isbn`: Google's, or Open Library's edition when Google has none or fails.
    public func lookup(isbn: ISBN) async throws -> SearchAnswer {
        let key = "isbn:\(isbn.isbn13)"
        if let cached = try await cache.value(VolumeSearchResults.self, for: key) {
            return SearchAnswer(results: cached, cached: true)
        }
        let results = try await searches.value(for: key) { [google, openLibrary, cache] in
            var googleFailure: UpstreamFailure?
            do {
                // Google answers ISBN searches with fuzzy matches; keep only volumes carrying the ISBN.
                let verified = try await google.search("isbn:\(isbn.isbn13)", startIndex: 0).items.filter {
                    $0.carries(isbn)
                }
                if !verified.isEmpty {
                    let results = VolumeSearchResults(totalItems: verified.count, items: verified)
                    try await cache.store(results, for: key, lifetime: Self.isbnLifetime)
                    return results
                }
            } catch let failure as UpstreamFailure {
                googleFailure = failure
            }
            let edition: VolumeResult?
            do {
                edition = try await openLibrary.edition(isbn: isbn)
            } catch let failure as UpstreamFailure {
                throw googleFailure ?? failure
            }
            if edition == nil, let googleFailure { throw googleFailure }
            let results = VolumeSearchResults(totalItems: edition == nil ? 0 : 1, items: edition.map { [$0] } ?? [])
            try await cache.store(results, for: key, lifetime: Self.isbnLifetime)
            return results
        }
        return SearchAnswer(results: results, cached: false)
    }

    /// Cover pictures the providers have for `isbn`, best first: Google's volumes that carry it (when Google can
    /// be reached), then Open Library's by ISBN. Addresses are the providers' own, never a visitor's.
    public func coverCandidates(isbn: ISBN) async -> [String] {
        var found: [String] = []
        if let answer = try? await lookup(isbn: isbn) {
            for url in answer.results.items.compactMap(\.coverURL) where !found.contains(url) { found.append(url) }
        }
        found.append("\(openLibrary.coversBaseURL)/b/isbn/\(isbn.isbn13)-L.jpg?default=false")
        return Array(found.prefix(6))
    }

    /// One Google volume with its full metadata (descriptions are longer than in search results).
    public func volume(id: String) async throws -> VolumeResult {
        let key = "volume:\(id)"
        if let cached = try await cache.value(VolumeResult.self, for: key) { return cached }
        return try await volumes.value(for: key) { [google, cache] in
            let volume = try await google.volume(id: id)
            try await cache.store(volume, for: key, lifetime: Self.isbnLifetime)
            return volume
        }
    }
}
