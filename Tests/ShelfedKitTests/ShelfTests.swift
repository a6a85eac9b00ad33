import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Shelves and books")
struct ShelfTests {
    @Test("a book added by hand keeps its metadata, with the ISBN-10 stored beside its ISBN-13")
    func manualAdd() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook([
                "title": "Dune", "authors": "Frank Herbert, ", "isbn": "0-441-17271-7", "page_count": "412",
                "published_date": "1965-08", "publisher": "Chilton", "description": "Desert planet.\nSpice.",
                "shelf": "want_to_read",
            ])
            let book = try #require(try await app.database().writer.read { db in try Book.fetchOne(db, key: id) })
            #expect(book.authors == ["Frank Herbert"])
            #expect(book.isbn13 == "9780441172719")
            #expect(book.isbn10 == "0441172717")
            #expect(book.pageCount == 412)
            #expect(book.source == .manual)
            let page = try await web.get("/books/\(id)").text
            #expect(page.contains("<h1>Dune</h1>"))
            #expect(page.contains("by Frank Herbert"))
            #expect(page.contains("9780441172719"))
            // The first paragraph leads; the rest waits behind "More" (issue 36).
            #expect(page.contains("<p>Desert planet.</p>"))
            #expect(page.contains(#"<details class="description-more"><summary>More</summary><p>Spice.</p>"#))
            #expect(page.contains("/static/img/cover-placeholder.svg"))
            #expect(page.contains("value=\"want_to_read\" class=\"segment\" aria-current=\"true\""))
        }
    }

    @Test("invalid manual input re-renders the form with every value kept and a message per field")
    func manualAddValidation() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let response = try await web.post(
                "/books",
                [
                    "title": "", "authors": "Ann Author", "isbn": "978-0-441-17271-0", "page_count": "lots",
                    "published_date": "1965-13", "shelf": "reading", "description": "<b>kept</b>",
                ])
            #expect(response.status == .unprocessableContent)
            let html = response.text
            #expect(html.contains("Enter the book&#39;s title.") || html.contains("Enter the book's title."))
            #expect(html.contains("not a valid ISBN-10 or ISBN-13"))
            #expect(html.contains("Enter the number of pages"))
            #expect(html.contains("Use a year (1999)"))
            #expect(html.contains("value=\"Ann Author\""))
            #expect(html.contains("value=\"978-0-441-17271-0\""))
            #expect(html.contains("value=\"lots\""))
            #expect(html.contains("&lt;b&gt;kept&lt;/b&gt;"))
            #expect(html.contains("<option value=\"reading\" selected>"))
            #expect(try await app.database().writer.read { db in try Book.fetchCount(db) } == 0)
        }
    }

    @Test("the same book cannot be on a user's shelves twice")
    func noDuplicates() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune", "isbn": "9780441172719"])
            let again = try await web.post("/books", ["title": "Dune (again)", "isbn": "0441172717"])
            #expect(again.status == .conflict)
            #expect(again.text.contains("already in your library"))
            #expect(again.text.contains("href=\"/books/\(id)\""))
            _ = try await web.addBook(["title": "Notes", "authors": "Me"])
            #expect(try await web.post("/books", ["title": "notes", "authors": "me"]).status == .conflict)
            let rows = try await app.database().writer.read { db in try UserBook.fetchCount(db) }
            #expect(rows == 2)
        }
    }

    @Test("moving to Reading sets started_at, to Read sets finished_at, and the book page edits both")
    func movesAndDates() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune"])
            let moved = try await web.post("/books/\(id)/shelf", ["shelf": "reading", "return_to": "/shelves"])
            // Back to the same card on the same list, saying what happened (with Undo).
            #expect(moved.headers[.location] == "/shelves?done=moved&book=\(id)&from=want_to_read#book-\(id)")
            var entry = try await app.database().writer.read { db in try UserBook.fetchOne(db) }
            #expect(entry?.shelf == .reading)
            #expect(entry?.startedAt == "2026-03-15")

            app.clock.advance(by: 3 * 24 * 60 * 60)
            try await web.post("/books/\(id)/shelf", ["shelf": "read"])
            entry = try await app.database().writer.read { db in try UserBook.fetchOne(db) }
            #expect(entry?.shelf == .read)
            #expect(entry?.startedAt == "2026-03-15")
            #expect(entry?.finishedAt == "2026-03-18")
            #expect(try await web.get("/shelves/read").text.contains("Finished 2026-03-18"))

            let saved = try await web.post(
                "/books/\(id)/dates", ["started_at": "2026-01-02", "finished_at": "2026-02-03"])
            #expect(saved.status == .seeOther)
            entry = try await app.database().writer.read { db in try UserBook.fetchOne(db) }
            #expect(entry?.startedAt == "2026-01-02")
            #expect(entry?.finishedAt == "2026-02-03")
            let page = try await web.get("/books/\(id)").text
            #expect(page.contains("name=\"started_at\" type=\"date\" value=\"2026-01-02\""))
            #expect(page.contains("name=\"finished_at\" type=\"date\" value=\"2026-02-03\""))
        }
    }

    @Test("bad dates re-render the book page with the typed dates and nothing saved")
    func invalidDates() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune", "shelf": "reading"])
            let response = try await web.post(
                "/books/\(id)/dates", ["started_at": "2026-02-30", "finished_at": "2026-01-01"])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("value=\"2026-02-30\""))
            #expect(response.text.contains("Use a date like 2024-03-17."))
            let order = try await web.post(
                "/books/\(id)/dates", ["started_at": "2026-02-03", "finished_at": "2026-01-01"])
            #expect(order.text.contains("The finish date is before the start date."))
            let entry = try await app.database().writer.read { db in try UserBook.fetchOne(db) }
            #expect(entry?.startedAt == "2026-03-15")
            #expect(entry?.finishedAt == nil)
        }
    }

    @Test("removing asks first, then takes the book off the shelves")
    func remove() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune"])
            let confirm = try await web.get("/books/\(id)/remove")
            #expect(confirm.status == .ok)
            #expect(confirm.text.contains("Remove “Dune”?"))
            #expect(try await app.database().writer.read { db in try UserBook.fetchCount(db) } == 1)
            let removed = try await web.post("/books/\(id)/remove")
            #expect(removed.headers[.location] == "/shelves")
            #expect(try await app.database().writer.read { db in try UserBook.fetchCount(db) } == 0)
            #expect(try await web.get("/books/\(id)").status == .notFound)
        }
    }

    @Test("favourites toggle from a card and list on /favourites with a way to remove each")
    func favourites() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let dune = try await web.addBook(["title": "Dune"])
            _ = try await web.addBook(["title": "Emma"])
            #expect(try await web.get("/favourites").text.contains("No favourites yet"))

            let starred = try await web.post("/books/\(dune)/favourite", ["favourite": "1", "return_to": "/shelves"])
            #expect(starred.headers[.location] == "/shelves?done=favourited&book=\(dune)#book-\(dune)")
            let list = try await web.get("/favourites").text
            #expect(list.contains(">Dune</a>"))
            #expect(!list.contains(">Emma</a>"))
            #expect(list.contains("aria-label=\"Remove Dune from favourites\""))

            try await web.post("/books/\(dune)/favourite", ["favourite": "0"])
            #expect(!(try await web.get("/favourites").text.contains(">Dune</a>")))
            try await web.post("/books/\(dune)/favourite")
            #expect(try await web.get("/favourites").text.contains(">Dune</a>"))
        }
    }

    @Test("home shows Currently reading first, then recently added and finished; empty state when new")
    func home() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            #expect(try await web.get("/").text.contains("Your library is empty"))
            _ = try await web.addBook(["title": "Emma", "shelf": "read"])
            _ = try await web.addBook(["title": "Dune", "shelf": "reading"])
            let html = try await web.get("/").text
            let reading = try #require(html.range(of: "Currently reading"))
            let added = try #require(html.range(of: "Recently added"))
            let finished = try #require(html.range(of: "Recently finished"))
            #expect(reading.lowerBound < added.lowerBound && added.lowerBound < finished.lowerBound)
            #expect(html[reading.upperBound..<added.lowerBound].contains(">Dune</a>"))
            #expect(html[finished.upperBound...].contains(">Emma</a>"))
        }
    }
}
