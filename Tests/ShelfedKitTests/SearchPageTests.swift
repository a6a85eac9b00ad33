import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOEmbedded
import Testing

@testable import ShelfedKit

@Suite("Search pages and adding from search")
struct SearchPageTests {
    @Test("results show cover, title, authors and year, with add buttons posting volume_id and shelf")
    func results() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let page = try await web.get("/search?q=harry+potter")
                #expect(page.status == .ok)
                let html = page.text
                #expect(html.contains("Harry Potter and the Deathly Hallows"))
                #expect(html.contains("href=\"/search/volumes/gCtazG4ZXlQC\""))
                #expect(html.contains("name=\"volume_id\" value=\"gCtazG4ZXlQC\""))
                #expect(html.contains("name=\"shelf\" value=\"want_to_read\""))
                #expect(html.contains("J.K. Rowling · 2015") || html.contains("J. K. Rowling"))
                #expect(html.contains("src=\"\(fake.baseURL)/gcovers/books/content?id=gCtazG4ZXlQC"))
                #expect(html.contains("value=\"harry potter\""))
            }
        }
    }

    @Test("an ISBN typed with hyphens is looked up as isbn:")
    func isbnSearch() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let html = try await web.get("/search?q=0-14-044604-4").text
                #expect(html.contains("The Complete Essays"))
                #expect(fake.googleRequests.last?.contains("q=isbn:9780140446043") == true)
            }
        }
    }

    @Test("adding a result stores its metadata and cover, and never duplicates the book")
    func addFromSearch() async throws {
        let app = TestApp()
        try await FakeBooksServer.run { fake in
            let app = TestApp(clock: app.clock, search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let detail = try await web.get("/search/volumes/0yNhEAAAQBAJ")
                #expect(detail.text.contains("Near to the Wild Heart"))
                #expect(!detail.text.contains("&lt;p&gt;"))

                let added = try await web.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "want_to_read"])
                #expect(added.status == .seeOther)
                let location = try #require(added.headers[.location])
                let book = try #require(try await app.database().writer.read { db in try Book.fetchOne(db) })
                #expect(location == "/books/\(book.id!)?done=added&book=\(book.id!)")
                #expect(book.title == "Near to the Wild Heart")
                #expect(book.authors == ["Clarice Lispector"])
                #expect(book.pageCount == 208)
                #expect(book.publisher == "Random House")
                #expect(book.publishedDate == "2022-04-28")
                #expect(book.isbn13 == "9780241600504")
                #expect(book.isbn10 == "0241600502")
                #expect(book.categories.contains("Fiction / Literary"))
                #expect(book.googleVolumeId == "0yNhEAAAQBAJ")
                #expect(book.source == .google)
                #expect(book.description?.contains("<") == false)
                let cover = try #require(book.coverPath)
                let coverFile = app.config.coversDirectory.appendingPathComponent(cover)
                #expect(FileManager.default.fileExists(atPath: coverFile.path))
                #expect(fake.coverRequests.count == 1)

                let served = try await web.get("/covers/\(cover)")
                #expect(served.status == .ok)
                #expect(served.headers[.contentType] == "image/jpeg")
                #expect(served.headers[.cacheControl]?.contains("max-age=31536000") == true)
                let page = try await web.get(location).text
                #expect(page.contains("src=\"/covers/\(cover)\""))

                // Again from search, by ISBN by hand, and from the results list: still one book.
                let again = try await web.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "read"])
                #expect(again.headers[.location] == "/books/\(book.id!)")
                #expect(try await web.post("/books", ["title": "Near", "isbn": "9780241600504"]).status == .conflict)
                #expect(try await app.database().writer.read { db in try UserBook.fetchCount(db) } == 1)
                let results = try await web.get("/search?q=0241600502")
                #expect(results.status == .ok)

                // Another reader adds the same volume: the catalog row and its cover are shared.
                let bob = WebSession(client)
                try await bob.register("bob")
                let bobAdded = try await bob.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "reading"])
                #expect(bobAdded.headers[.location] == location)
                #expect(try await app.database().writer.read { db in try Book.fetchCount(db) } == 1)
                #expect(fake.coverRequests.count == 1)
            }
        }
    }

    @Test("a book already on a shelf shows that shelf in the results instead of add buttons")
    func inLibraryState() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                try await web.post("/search/add", ["volume_id": "WTBA-wzX7cwC", "shelf": "reading"])
                let detail = try await web.get("/search/volumes/WTBA-wzX7cwC").text
                #expect(detail.contains("On your <a href=\"/books/1\">Reading</a> shelf"))
            }
        }
    }

    @Test("when Google is down the user gets a plain message and a pre-filled manual-add form")
    func friendlyFailure() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                fake.failGoogle(.status(503), .status(503), .status(503))
                let page = try await web.get("/search?q=batman")
                #expect(page.status == .serviceUnavailable)
                #expect(
                    page.text.contains(
                        "Google Books is not answering right now — try again in a minute, or add the book by hand."))
                #expect(page.text.contains("href=\"/books/new?title=batman\""))
                fake.failGoogle(.dailyQuota)
                let quota = try await web.get("/search?q=popular&field=author")
                #expect(quota.status == .tooManyRequests)
                #expect(quota.text.contains("daily limit"))
                #expect(quota.text.contains("href=\"/books/new?authors=popular\""))
                let form = try await web.get("/books/new?title=batman")
                #expect(form.text.contains("id=\"title\" name=\"title\" value=\"batman\""))
            }
        }
    }

    @Test("with both providers gone, the library still renders, covers included, and search says so")
    func offline() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                try await web.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "reading"])
                await fake.stop()

                let cover = try #require(
                    try await app.database().writer.read { db in try Book.fetchOne(db)?.coverPath })
                for path in ["/", "/shelves", "/shelves/reading", "/books/1", "/covers/\(cover)"] {
                    #expect(try await web.get(path).status == .ok, "\(path)")
                }
                #expect(try await web.get("/shelves").text.contains("Near to the Wild Heart"))
                let search = try await web.get("/search?q=something+new")
                #expect(search.status == .serviceUnavailable)
                #expect(search.text.contains("Search is unavailable"))
                #expect(search.text.contains("href=\"/books/new?title=something%20new\""))
            }
        }
    }

    @Test("with the providers' port closed, search says it is unavailable and offers the library and the manual form")
    func portClosed() async throws {
        try await TestApp(search: OfflineSearchTests.refusedSettings).run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let added = try await web.post(
                "/books", ["title": "Dune Messiah", "authors": "Frank Herbert", "shelf": "read"])
            #expect(added.status == .seeOther)
            for _ in 0..<2 {  // The first finds the port closed, the second the breaker open.
                let page = try await web.get("/search?q=dune")
                #expect(page.status == .serviceUnavailable)
                #expect(page.text.contains("Search is unavailable"))
                #expect(page.text.contains("cannot be reached from this server"))
                #expect(page.text.contains("href=\"/books/1\">Dune Messiah</a>"))
                #expect(page.text.contains("href=\"/books/new?title=dune\""))
                #expect(page.text.contains("href=\"/library/search?q=dune\""))
                #expect(page.text.contains("/static/js/busy-form.js"))
            }
            let nothing = try await web.get("/search?q=zzzz")
            #expect(nothing.text.contains("Nothing on your shelves matches"))
        }
    }

    @Test("a provider slower than the page's wait gets a 'slow' page; its answer still reaches the cache")
    func slowProviderFillsCache() async throws {
        try await FakeBooksServer.run { fake in
            var settings = fake.settings(timeout: .seconds(5))
            settings.pageWait = .milliseconds(300)
            try await TestApp(search: settings).run { client in
                let web = WebSession(client)
                try await web.register("alice")
                fake.failGoogle(.hang)  // Answers `{}` after 3 s: no items, but an answer.
                let slow = try await web.get("/search?q=batman")
                #expect(slow.status == .serviceUnavailable)
                #expect(slow.text.contains("Google Books is slow to answer"))
                var answered = false
                for _ in 0..<300 where !answered {  // At most 30 s; the fake answers after 3.
                    try await Task.sleep(for: .milliseconds(100))
                    answered = try await web.get("/search?q=batman").text.contains("No books found for “batman”")
                }
                #expect(answered)
                #expect(fake.googleRequests.count == 1)
            }
        }
    }
}

@Suite("Search page details")
struct SearchPageDetailTests {
    @Test("cover downloads must be images by their bytes, whatever the server calls them")
    func coverSignature() throws {
        let jpeg = try Data(contentsOf: FakeBooksServer.fixtures.appendingPathComponent("images/Landscape_1.jpg"))
        #expect(CoverStore.imageExtension(of: jpeg) == "jpg")
        #expect(CoverStore.imageExtension(of: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])) == "png")
        #expect(CoverStore.imageExtension(of: Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == "webp")
        #expect(CoverStore.imageExtension(of: Data("<html>not a cover</html>".utf8)) == nil)
    }

    @Test("a full page of 20 results links to the next 20 with the same query and field")
    func moreLink() {
        do {
            let volume = VolumeResult(
                provider: .googleBooks, volumeId: "x", title: "T", subtitle: nil, authors: [], publisher: nil,
                publishedDate: nil, description: nil, pageCount: nil, categories: [], language: nil, isbn10: nil,
                isbn13: nil, coverURL: nil, thumbnailURL: nil, averageRating: nil, ratingsCount: nil)
            let views = Array(repeating: SearchResultView(volume, inLibrary: nil), count: 20)
            let request = SearchRequest(text: "old man", field: .title, startIndex: 20)
            let context = AppRequestContext(source: .init(channel: NIOAsyncTestingChannel(), logger: .init(label: "t")))
            let full = SearchPage(context: context, request: request, results: views, total: 100, failure: nil)
            #expect(full.morePath == "/search?q=old%20man&field=title&start=40")
            #expect(full.summary == "Results 21–40")
            let last = SearchPage(
                context: context, request: request, results: Array(views.prefix(7)), total: 100, failure: nil)
            #expect(last.morePath == nil)
        }
    }
}
