import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import Testing

@testable import ShelfedKit

/// A search service wired to the fake providers and a fresh database.
func makeSearchService(_ fake: FakeBooksServer, clock: TestClock = TestClock(), settings: SearchSettings? = nil)
    throws -> BookSearchService
{
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("shelfed-search-\(UUID()).sqlite").path
    var logger = Logger(label: "search-tests")
    logger.logLevel = .critical
    return BookSearchService(
        settings: settings ?? fake.settings(), database: try AppDatabase(path: path), clock: clock.appClock,
        logger: logger,
        http: { OutboundHTTP.client })
}

@Suite("Book search service")
struct SearchServiceTests {
    @Test("a general search returns Google's volumes, cleaned")
    func search() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            let answer = try await service.search(SearchRequest(text: "Harry Potter"))
            #expect(answer.cached == false)
            #expect(answer.results.totalItems == 2551)
            #expect(answer.results.items.count == 10)
            let first = try #require(answer.results.items.first)
            #expect(first.volumeId == "gCtazG4ZXlQC")
            #expect(first.isbn13 == "9781781100264")
            #expect(first.isbn10 == "1781100268")
            #expect(first.thumbnailURL?.contains("edge=curl") == false)
            #expect(fake.googleRequests.count == 1)
            #expect(fake.googleRequests[0].contains("maxResults=20"))
        }
    }

    @Test("title and author scoping reach Google as intitle: and inauthor:")
    func scoping() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            _ = try await service.search(SearchRequest(text: "batman", field: .title))
            _ = try await service.search(SearchRequest(text: "batman", field: .author, startIndex: 20))
            #expect(fake.googleRequests[0].contains("q=intitle:batman"))
            #expect(fake.googleRequests[1].contains("q=inauthor:batman"))
            #expect(fake.googleRequests[1].contains("startIndex=20"))
        }
    }

    @Test("the second identical search is answered from the cache without asking Google")
    func cacheHit() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            _ = try await service.search(SearchRequest(text: "batman"))
            let again = try await service.search(SearchRequest(text: "  Batman "))
            #expect(again.cached)
            #expect(again.results.items.first?.title == "Batman: Killing Joke (DELUXE)")
            #expect(fake.googleRequests.count == 1)
        }
    }

    @Test("the cache expires after 24 hours for queries")
    func cacheExpiry() async throws {
        try await FakeBooksServer.run { fake in
            let clock = TestClock()
            let service = try makeSearchService(fake, clock: clock)
            _ = try await service.search(SearchRequest(text: "batman"))
            clock.advance(by: 24 * 60 * 60 + 1)
            let later = try await service.search(SearchRequest(text: "batman"))
            #expect(!later.cached)
            #expect(fake.googleRequests.count == 2)
        }
    }

    @Test("20 identical searches at once make one upstream call")
    func coalescing() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await service.search(SearchRequest(text: "harry potter")).results.items.count }
                }
                for try await count in group { #expect(count == 10) }
            }
            #expect(fake.googleRequests.count == 1)
        }
    }

    @Test("an ISBN lookup keeps only volumes that carry the ISBN")
    func isbnVerification() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            let found = try await service.search(SearchRequest(text: "0-8047-2099-1"))
            #expect(found.results.items.map(\.volumeId) == ["nRo0Pk8djjoC"])
            #expect(fake.googleRequests.last?.contains("q=isbn:9780804720991") == true)
            // Google's only match for this ISBN lists an OTHER identifier, not the ISBN: not trusted.
            let german = try await service.search(SearchRequest(text: "978-3-551-55167-2"))
            #expect(german.results.items.isEmpty)
            #expect(fake.openLibraryRequests.contains("/ol/isbn/9783551551672.json"))
        }
    }

    @Test("an ISBN Google lacks is found on Open Library, following its redirect, with author names")
    func openLibraryFallback() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            let answer = try await service.search(SearchRequest(text: "0060273224"))
            let book = try #require(answer.results.items.first)
            #expect(book.provider == .openLibrary)
            #expect(book.title == "Sabriel")
            #expect(book.authors == ["Garth Nix"])
            #expect(book.publishedDate == "1996")
            #expect(book.publisher == "Harper Trophy")
            #expect(book.pageCount == 491)
            #expect(book.description?.hasPrefix("A young necromancer crosses the Wall") == true)
            #expect(book.isbn13 == "9780060273224")
            #expect(fake.openLibraryRequests.contains("/ol/books/OL22951843M.json"))
        }
    }

    @Test("when Google keeps failing, an ISBN still comes from Open Library")
    func fallbackWhileGoogleFails() async throws {
        try await FakeBooksServer.run { fake in
            fake.failGoogle(.status(503), .status(503), .status(503))
            let service = try makeSearchService(fake)
            let answer = try await service.search(SearchRequest(text: "9780060273224"))
            #expect(answer.results.items.first?.title == "Sabriel")
            #expect(fake.googleRequests.count == 3)
        }
    }

    @Test("transient failures are retried, at most 3 tries")
    func retries() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            fake.failGoogle(.status(500), .status(503))
            #expect(try await service.search(SearchRequest(text: "batman")).results.items.count == 1)
            #expect(fake.googleRequests.count == 3)

            fake.failGoogle(.status(500), .status(502), .status(503))
            await #expect(throws: UpstreamFailure.serverError(status: 503)) {
                try await service.search(SearchRequest(text: "popular"))
            }
            #expect(fake.googleRequests.count == 6)
        }
    }

    @Test("a per-minute 429 waits for Retry-After; without it, or for the daily quota or a 403, no retry")
    func rateLimits() async throws {
        try await FakeBooksServer.run { fake in
            let service = try makeSearchService(fake)
            fake.failGoogle(.rateLimited(retryAfter: "1"))
            let started = ContinuousClock.now
            #expect(try await service.search(SearchRequest(text: "batman")).results.items.count == 1)
            #expect(ContinuousClock.now - started >= .seconds(1))
            #expect(fake.googleRequests.count == 2)

            fake.failGoogle(.rateLimited(retryAfter: nil))
            await #expect(throws: UpstreamFailure.rateLimited(retryAfter: nil, dailyQuota: false)) {
                try await service.search(SearchRequest(text: "popular"))
            }
            fake.failGoogle(.dailyQuota)
            await #expect(throws: UpstreamFailure.rateLimited(retryAfter: nil, dailyQuota: true)) {
                try await service.search(SearchRequest(text: "popular"))
            }
            fake.failGoogle(.status(403))
            await #expect(throws: UpstreamFailure.refused(status: 403)) {
                try await service.search(SearchRequest(text: "popular"))
            }
            #expect(fake.googleRequests.count == 5)
        }
    }

    @Test("a hang past the timeout, malformed JSON and a huge body each fail cleanly")
    func badAnswers() async throws {
        try await FakeBooksServer.run { fake in
            // A second of patience (the hang lasts three): with less, a busy machine running the suites in parallel
            // could time a request out before the fake had taken its fault, and the faults fell out of step.
            let service = try makeSearchService(fake, settings: fake.settings(timeout: .seconds(1)))
            fake.failGoogle(.hang, .hang, .hang)
            await #expect(throws: UpstreamFailure.timeout) { try await service.search(SearchRequest(text: "a")) }
            // A try that timed out before it reached the fake (a starved full run, once) leaves its hang queued,
            // and the next search would take it instead of its own fault: each search starts with only its own.
            fake.clearGoogleFaults()
            fake.failGoogle(.malformedJSON)
            await #expect(throws: UpstreamFailure.malformed) { try await service.search(SearchRequest(text: "b")) }
            fake.clearGoogleFaults()
            fake.failGoogle(.hugeBody)
            await #expect(throws: UpstreamFailure.tooLarge) { try await service.search(SearchRequest(text: "c")) }
        }
    }

    @Test("the circuit opens after 5 failed calls and half-opens after 60 s")
    func circuitBreaker() async throws {
        try await FakeBooksServer.run { fake in
            let clock = TestClock()
            var settings = fake.settings()
            settings.retry.maxAttempts = 1
            let service = try makeSearchService(fake, clock: clock, settings: settings)
            for attempt in 0..<5 {
                fake.failGoogle(.status(500))
                await #expect(throws: UpstreamFailure.serverError(status: 500)) {
                    try await service.search(SearchRequest(text: "query \(attempt)"))
                }
            }
            await #expect(throws: UpstreamFailure.circuitOpen(provider: "Google Books", retryAfterMilliseconds: 60_000))
            {
                try await service.search(SearchRequest(text: "batman"))
            }
            #expect(fake.googleRequests.count == 5)

            clock.advance(by: 61)
            #expect(try await service.search(SearchRequest(text: "batman")).results.items.count == 1)
            #expect(try await service.search(SearchRequest(text: "popular")).results.items.count == 10)
            #expect(fake.googleRequests.count == 7)
        }
    }
}

@Suite("Search with the network down")
struct OfflineSearchTests {
    /// Nothing listens on port 1 of this machine: every connection there is refused at once.
    static let refusedURL = "http://127.0.0.1:1"

    static var refusedSettings: SearchSettings {
        SearchSettings(
            googleBooksURL: refusedURL + "/books/v1", openLibraryURL: refusedURL + "/ol",
            openLibraryCoversURL: refusedURL + "/olcovers", timeout: .seconds(5),
            // A refused connection answers at once; under the whole suite's load the page's usual 2.5 s wait was
            // once over before the refusal came back, and the page said "slow" instead of "cannot be reached".
            pageWait: .seconds(20), retry: RetryPolicy(maxAttempts: 3, baseDelay: .seconds(2)))
    }

    @Test("a refused connection is not retried and opens the breaker at once, for Google and Open Library")
    func refusedOpensBreaker() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shelfed-\(UUID()).sqlite").path
        let service = BookSearchService(
            settings: Self.refusedSettings, database: try AppDatabase(path: path), clock: TestClock().appClock,
            logger: Logger(label: "offline-tests"), http: { OutboundHTTP.client })
        await #expect(throws: UpstreamFailure.unreachable) { try await service.search(SearchRequest(text: "dune")) }
        // A retry would have slept `baseDelay` (2 s) first and counted towards the breaker only after the third try.
        #expect(await service.google.upstream.breaker.state != .closed(failures: 0))
        await #expect(throws: UpstreamFailure.circuitOpen(provider: "Google Books", retryAfterMilliseconds: 60_000)) {
            try await service.search(SearchRequest(text: "another book"))
        }
        // An ISBN falls back to Open Library, which cannot be reached either; then both rest.
        await #expect(throws: UpstreamFailure.self) { try await service.lookup(isbn: ISBN("9780140446043")!) }
        #expect(await service.openLibrary.upstream.breaker.state != .closed(failures: 0))
    }

    @Test("a connection that could not be made is told apart from one lost on the way")
    func classification() {
        #expect(UpstreamFailure.connecting(failedWith: HTTPClientError.connectTimeout) == .unreachable)
        #expect(
            UpstreamFailure.connecting(failedWith: IOError(errnoCode: ECONNREFUSED, reason: "connect")) == .unreachable)
        #expect(UpstreamFailure.connecting(failedWith: HTTPClientError.remoteConnectionClosed) == .network)
        #expect(RetryPolicy().delay(after: .unreachable, attempt: 1) == nil)
    }
}

@Suite("Provider parsing")
struct ProviderParsingTests {
    static let googleFiles = try! FileManager.default.contentsOfDirectory(
        atPath: FakeBooksServer.fixtures.appendingPathComponent("googlebooks").path
    ).filter { $0.hasSuffix(".json") && !$0.hasPrefix("error_") }

    static func google(_ name: String) throws -> Data {
        try Data(contentsOf: FakeBooksServer.fixtures.appendingPathComponent("googlebooks/\(name)"))
    }

    @Test("every Google Books answer written for the tests parses", arguments: googleFiles)
    func everyFixture(file: String) throws {
        let data = try Self.google(file)
        if file.hasPrefix("volume_") {
            let volume = try JSONDecoder().decode(GoogleBooksVolume.self, from: data)
            #expect(volume.result != nil)
        } else {
            let volumes = try JSONDecoder().decode(GoogleBooksVolumes.self, from: data)
            let results = (volumes.items ?? []).compactMap(\.result)
            #expect(results.count == volumes.items?.count ?? 0)
            #expect(results.allSatisfy { !$0.title.isEmpty })
        }
    }

    @Test("a single volume: metadata field by field, https cover without the curl, plain-text description")
    func singleVolume() throws {
        let volume = try JSONDecoder().decode(
            GoogleBooksVolume.self, from: Self.google("volume_0yNhEAAAQBAJ.json"))
        let result = try #require(volume.result)
        #expect(result.title == "Near to the Wild Heart")
        #expect(result.authors == ["Clarice Lispector"])
        #expect(result.publisher == "Random House")
        #expect(result.publishedDate == "2022-04-28")
        #expect(result.pageCount == 208)
        #expect(result.isbn13 == "9780241600504")
        #expect(result.isbn10 == "0241600502")
        #expect(result.categories.first == "Fiction / Literary")
        #expect(result.language == "en")
        #expect(result.coverURL?.hasPrefix("https://books.google.com/books/publisher/content?id=0yNhEAAAQBAJ") == true)
        #expect(result.coverURL?.contains("zoom=6") == true)
        #expect(result.coverURL?.contains("edge=curl") == false)
        let description = try #require(result.description)
        #expect(!description.contains("<"))
        #expect(
            description.hasPrefix("A debut novel that follows Joana from a wild childhood into an unhappy marriage."))
        #expect(description.contains("\nWritten by hand for Shelfed's tests.\nThe markup is the point."))
    }

    @Test("magazines without authors or identifiers, and yyyy-mm dates")
    func magazines() throws {
        let volumes = try JSONDecoder().decode(
            GoogleBooksVolumes.self,
            from: Self.google("search_popular_magazines.json"))
        let first = try #require(volumes.items?.first?.result)
        #expect(first.authors.isEmpty)
        #expect(first.isbn13 == nil)
        #expect(first.publishedDate?.count == 7)
        #expect(first.year?.count == 4)
    }

    @Test("a fuzzy match without a cover, a page count or a description still parses")
    func bareItem() throws {
        let volumes = try JSONDecoder().decode(
            GoogleBooksVolumes.self, from: Self.google("isbn_fuzzy_match_no_imagelinks.json"))
        let item = try #require(volumes.items?.first?.result)
        #expect(item.title == "A Near Match")
        #expect(item.coverURL == nil && item.thumbnailURL == nil)
        #expect(item.pageCount == nil && item.description == nil)
    }

    @Test("an empty answer has no items key")
    func empty() throws {
        let volumes = try JSONDecoder().decode(
            GoogleBooksVolumes.self,
            from: Self.google("empty_isbn_9783868943238.json"))
        #expect(volumes.totalItems == 0)
        #expect(volumes.items == nil)
    }

    @Test("an Open Library description given as {type, value} becomes its text")
    func openLibraryTypedDescription() throws {
        let data = try Data(
            contentsOf: FakeBooksServer.fixtures.appendingPathComponent("openlibrary/edition_markdown_description.json")
        )
        let edition = try JSONDecoder().decode(OpenLibraryEdition.self, from: data)
        let result = try #require(edition.result(authorNames: [], coversBaseURL: "https://covers.example"))
        #expect(result.title == "Small Hours in the Garden")
        #expect(result.isbn13 == "9781000005073")
        #expect(result.description?.contains("Nobody planted the first row") == true)
        #expect(result.language == "eng")
    }

    @Test("HTML descriptions keep paragraphs and line breaks as text, decode entities and run no markup")
    func descriptionText() {
        let html = "<p>One <i>two</i></p><p>three<br>four &amp; &#39;five&#39; &lt;b&gt;</p><script>x()</script>"
        // A script's text is code, not words: it is dropped with its tags.
        #expect(DescriptionText.plain(html) == "One two\nthree\nfour & 'five' <b>")
    }

    @Test("cover links: https for Google hosts, no curl, other hosts untouched")
    func coverLinks() {
        #expect(
            CoverLink.cleaned("http://books.google.com/books/content?id=x&zoom=1&edge=curl&source=gbs_api")
                == "https://books.google.com/books/content?id=x&zoom=1&source=gbs_api")
        #expect(CoverLink.cleaned("http://127.0.0.1:9/gcovers/a?edge=curl") == "http://127.0.0.1:9/gcovers/a")
    }
}
