import Foundation
import GRDB
import HummingbirdTesting
import Testing
import ZIPFoundation

@testable import ShelfedKit

/// Films and TV shows in the catalog beside books (issue 37, first slice): their kind, added by hand, the shelves'
/// words for them, and the book contracts (DESIGN §6) untouched by them.
@Suite struct ScreenTitleTests {
    static let film = [
        "kind": "movie", "title": "Dune", "authors": "Denis Villeneuve", "published_date": "2021", "runtime": "155",
    ]

    @Test func rowsWrittenBeforeAreBooksAndAKindNeverChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shelfed.sqlite").path
        let old = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "v39 house library indexes")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO book (title, authors, categories, source, created_at, updated_at)
                    VALUES ('Emma', '["Jane Austen"]', '[]', 'manual', '2026-01-01', '2026-01-01')
                    """)
        }
        try old.close()

        let database = try AppDatabase(path: path)
        try database.writer.write { db in
            #expect(try String.fetchOne(db, sql: "SELECT kind FROM book WHERE title = 'Emma'") == "book")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE book SET kind = 'movie' WHERE title = 'Emma'")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at, kind)
                        VALUES ('Odd', '[]', '[]', 'manual', '2026-01-01', '2026-01-01', 'podcast')
                        """)
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at, kind,
                            runtime_minutes)
                        VALUES ('Long', '[]', '[]', 'manual', '2026-01-01', '2026-01-01', 'movie', 60001)
                        """)
            }
            // Other columns change as before, a film's too; only the kind is fixed.
            try db.execute(sql: "UPDATE book SET title = 'Emma.' WHERE title = 'Emma'")
            #expect(try String.fetchOne(db, sql: "SELECT kind FROM book WHERE title = 'Emma.'") == "book")
            try db.execute(
                sql: """
                    INSERT INTO book (title, authors, categories, source, created_at, updated_at, kind)
                    VALUES ('Heat', '[]', '[]', 'manual', '2026-01-01', '2026-01-01', 'movie')
                    """)
            try db.execute(sql: "UPDATE book SET runtime_minutes = 170, kind = 'movie' WHERE title = 'Heat'")
            #expect(try Int.fetchOne(db, sql: "SELECT runtime_minutes FROM book WHERE title = 'Heat'") == 170)
        }
    }

    @Test func aFilmAddedByHandSpeaksOfWatching() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let form = try await web.get("/books/new?kind=movie")
            #expect(form.status == .ok)
            #expect(form.text.contains("<h1>Add a film</h1>"))
            #expect(form.text.contains("Directed by") && form.text.contains("name=\"runtime\""))
            #expect(!form.text.contains("name=\"isbn\"") && !form.text.contains("name=\"page_count\""))
            #expect(form.text.contains(">Want to watch</option>") && !form.text.contains(">Want to read</option>"))

            let id = try await web.addBook(Self.film)
            let page = try await web.get("/books/\(id)").text
            #expect(page.contains("Film · 2021 · 2 h 35 min"))
            #expect(page.contains("Directed by Denis Villeneuve"))
            #expect(page.contains("Want to watch") && page.contains("Watched it"))
            #expect(!page.contains("Start reading"))

            // "Watched it" moves it to Watched, and the shelf's card and toast say so.
            let moved = try await web.post("/books/\(id)/shelf", ["shelf": "read"])
            #expect(moved.status == .seeOther)
            let shelf = try await web.get("/shelves/read").text
            #expect(shelf.contains("<span class=\"badge\">Watched</span>"))
            #expect(shelf.contains("→ Want to watch") && shelf.contains("→ Watching"))

            let show = try await web.addBook(["kind": "show", "title": "Severance", "published_date": "2022"])
            let showPage = try await web.get("/books/\(show)").text
            #expect(showPage.contains("TV show · 2022") && showPage.contains("Start watching"))
            // Being watched, a show has no page box (a book being read has one).
            _ = try await web.post("/books/\(show)/shelf", ["shelf": "reading"])
            let watching = try await web.get("/books/\(show)").text
            #expect(watching.contains("Watched it") && !watching.contains(#"id="page""#))
            let reading = try await web.addBook(["title": "Emma", "shelf": "reading"])
            #expect(try await web.get("/books/\(reading)").text.contains(#"id="page""#))
        }
    }

    @Test func wrongFilmInputKeepsWhatWasTypedAndSaysWhy() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            for (field, value, message) in [
                ("runtime", "two hours", "Enter the running time in minutes"),
                ("runtime", "99999", "Enter the running time in minutes"),
                ("isbn", "9780441172719", "A film has no ISBN"),
                ("page_count", "300", "A film has no pages"),
            ] {
                var fields = Self.film
                fields[field] = value
                let response = try await web.post("/books", fields)
                #expect(response.status == .unprocessableContent, "\(field)=\(value)")
                #expect(response.text.contains(message), "\(field)=\(value)")
                #expect(response.text.contains("value=\"Denis Villeneuve\""))
            }
            let showWithRuntime = try await web.post("/books", ["kind": "show", "title": "Severance", "runtime": "50"])
            #expect(showWithRuntime.status == .unprocessableContent)
            #expect(showWithRuntime.text.contains("Only a film has a running time"))
            let unknown = try await web.post("/books", ["kind": "podcast", "title": "Serial"])
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.text.contains("Choose a book, a film or a TV show."))
            #expect(try await web.get("/shelves").text.contains("Your shelves are empty"))
        }
    }

    @Test func aBookAndItsFilmWithTheSameTitleAreTwoTitles() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Arrival"])
            let film = try await web.addBook(["kind": "movie", "title": "Arrival"])
            #expect(book != film)
            let again = try await web.post("/books", ["kind": "movie", "title": "arrival"])
            #expect(again.status == .conflict)
            #expect(again.text.contains("/books/\(film)"))
        }
    }

    /// The Reader app sees exactly what it saw before films and shows came in (DESIGN §17).
    @Test func theBookContractsAnswerAsBeforeWithFilmsInTheLibrary() async throws {
        try await TestApp().run { client in
            let (web, api, ids) = try await ReaderAPITests.aliceWithBooks(client)
            _ = try await web.post("/books/\(ids[1])/favourite", ["favourite": "1"])
            let paths = ["/api/v1/shelves", "/api/v1/books", "/api/v1/shelves/1", "/api/v1/shelves/2"]
            var before: [String: String] = [:]
            for path in paths { before[path] = try await api.get(path).text }

            let film = try await web.addBook(Self.film.merging(["shelf": "reading"]) { $1 })
            _ = try await web.post("/books/\(film)/favourite", ["favourite": "1"])
            let show = try await web.addBook(["kind": "show", "title": "Severance", "shelf": "want_to_read"])
            for path in paths {
                #expect(try await api.get(path).text == before[path], "\(path) changed with films in the library")
            }
            // The web shelves count them all.
            #expect(try await web.get("/shelves").text.contains("Severance"))

            for id in [film, show] {
                #expect(try await api.get("/api/v1/books/\(id)").status == .notFound)
                let patch = try await api.send(.patch, "/api/v1/books/\(id)", json: ["rating": 4, "shelf_id": 3])
                #expect(patch.status == .notFound)
                #expect(try await api.send(.delete, "/api/v1/books/\(id)").status == .notFound)
                #expect(try await api.get("/api/v1/books/\(id)/progress").status == .notFound)
            }
            // Nothing the refused calls touched was written: the film is still on Watching, unrated.
            let page = try await web.get("/books/\(film)").text
            #expect(page.contains("Dune") && page.contains(#"<span class="shelf-badge">Watching</span>"#))
            #expect(!page.contains("quick-rating-summary"))
            #expect(try await api.get("/api/v1/books/\(ids[0])").status == .ok)
        }
    }

    /// Until films and shows get figures of their own, a watched film is never counted as a book read: not on the
    /// profile, the year's statistics, the year in review or the house challenge.
    @Test func aWatchedFilmIsNotABookRead() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            // Both finished on the same day, the same way.
            for fields in [["title": "Emma"], Self.film] {
                let id = try await web.addBook(fields.merging(["shelf": "read"]) { $1 })
                let dated = try await web.post("/books/\(id)/dates", ["started_at": "", "finished_at": "2026-03-10"])
                #expect(dated.status == .seeOther)
            }
            let statistics = StatisticsStore(db: try app.database())
            #expect(try await statistics.allTime(of: 1).booksRead == 1)
            #expect(try await statistics.year(2026, of: 1).booksFinished == 1)
            #expect(try await statistics.review(2026, of: 1).finished.map(\.title) == ["Emma"])
            _ = try await web.post("/profile/sharing", ["shares": "1"])
            let challenge = try await web.post("/household/challenge", ["measure": "books", "goal": "10"])
            #expect(challenge.status == .seeOther)
            #expect(try await web.get("/").text.contains("1 book of 10"))
        }
    }

    /// A Goodreads file is for books; the person's own export keeps every title with its kind.
    @Test func exportsKeepFilmsOutOfGoodreadsAndInTheirOwnFile() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            _ = try await web.addBook(["title": "Emma", "authors": "Jane Austen"])
            _ = try await web.addBook(Self.film)
            let goodreads = try await web.get("/export/goodreads")
            #expect(goodreads.status == .ok)
            #expect(goodreads.text.contains("Emma") && !goodreads.text.contains("Dune"))
            let download = try await web.get("/profile/my-data")
            #expect(download.status == .ok)
            let zip = FileManager.default.temporaryDirectory.appendingPathComponent("mine-\(UUID().uuidString).zip")
            defer { try? FileManager.default.removeItem(at: zip) }
            try Data(buffer: download.body).write(to: zip)
            let archive = try Archive(url: zip, accessMode: .read)
            var json = Data()
            _ = try archive.extract(try #require(archive["my-data.json"]), consumer: { json.append($0) })
            let mine = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
            let books = try #require(mine["books"] as? [[String: Any]])
            let film = try #require(books.first { $0["title"] as? String == "Dune" })
            #expect(film["kind"] as? String == "movie" && film["runtimeMinutes"] as? Int == 155)
            #expect(books.first { $0["title"] as? String == "Emma" }?["kind"] as? String == "book")
        }
    }

    /// A rewatch is a new dated viewing and never overwrites one before (DESIGN §17); two on one day are two.
    @Test func aFilmWatchedAgainKeepsEveryViewing() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let film = try await web.addBook(Self.film.merging(["shelf": "read"]) { $1 })
            _ = try await web.post("/books/\(film)/dates", ["started_at": "", "finished_at": "2026-03-10"])
            let first = try await web.get("/books/\(film)").text
            #expect(first.contains("Watched it again on") && first.contains(#"max="2026-03-15""#))
            #expect(!first.contains("seen ") && !first.contains("Earlier viewings"))

            // Today (the test clock's 2026-03-15) when no day is given; then twice on one earlier day.
            let again = try await web.post("/books/\(film)/read-again", ["watched_on": ""])
            #expect(again.status == .seeOther)
            #expect(again.headers[.location]?.contains("saved=watched-again") == true)
            for _ in 0..<2 {
                #expect(
                    try await web.post("/books/\(film)/read-again", ["watched_on": "2025-12-24"]).status == .seeOther)
            }
            let page = try await web.get("/books/\(film)").text
            #expect(page.contains("seen 4 times"))
            #expect(page.contains("Earlier viewings"))
            #expect(page.components(separatedBy: #"Watched <time datetime="2025-12-24">"#).count == 3)
            let latestFirst = try #require(page.range(of: #"Watched <time datetime="2026-03-10">"#))
            let older = try #require(page.range(of: #"Watched <time datetime="2025-12-24">"#))
            #expect(latestFirst.lowerBound < older.lowerBound)
            #expect(page.contains("Dune") && page.contains("Watched</span>"))

            // Refused with the day typed kept (escaped) and why; nothing written.
            for bad in ["yesterday", "2026-03-16", "2026-02-30", "<script>"] {
                let refused = try await web.post("/books/\(film)/read-again", ["watched_on": bad])
                #expect(refused.status == .unprocessableContent, "\(bad)")
                #expect(refused.text.contains("Enter the day you watched it"), "\(bad)")
                #expect(refused.text.contains("aria-invalid=\"true\" aria-describedby=\"watched_on-error\""))
                #expect(!refused.text.contains(#"value="<script>""#))
            }
            #expect(try await web.get("/books/\(film)").text.contains("seen 4 times"))

            // A book read again goes back to Reading, as before.
            let book = try await web.addBook(["title": "Emma", "shelf": "read"])
            _ = try await web.post("/books/\(book)/dates", ["started_at": "", "finished_at": "2026-03-01"])
            _ = try await web.post("/books/\(book)/read-again", [:])
            #expect(try await web.get("/books/\(book)").text.contains(#"<span class="shelf-badge">Reading</span>"#))

            // A film not yet watched has nothing to watch again; another person's film is a 404.
            let waiting = try await web.addBook(["kind": "movie", "title": "Arrival"])
            #expect(try await web.post("/books/\(waiting)/read-again", ["watched_on": ""]).status == .seeOther)
            #expect(!(try await web.get("/books/\(waiting)").text.contains("seen ")))
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/books/\(film)/read-again", ["watched_on": ""]).status == .notFound)
        }
    }

    /// A show on Watching is on the home page without a page box, and no page can be noted for it.
    @Test func aShowBeingWatchedHasNoPageToNote() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let show = try await web.addBook(["kind": "show", "title": "Severance", "shelf": "reading"])
            let book = try await web.addBook(["title": "Emma", "shelf": "reading"])
            let home = try await web.get("/").text
            #expect(home.contains("id=\"progress-\(show)\"") && home.contains("id=\"page-\(book)\""))
            #expect(!home.contains("id=\"page-\(show)\""))
            #expect(home.contains(">Watched it</button>") && home.contains(">Finished it</button>"))
            let refused = try await web.post("/books/\(show)/progress", ["page": "12"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("A film or TV show has no pages to note"))
            #expect(try await web.post("/books/\(book)/progress", ["page": "12"]).status == .seeOther)
        }
    }

    /// The house reads "Sam watched *Dune*", not "finished".
    @Test func theFeedTellsOfWatching() async throws {
        try await TestApp().run { client in
            let sam = WebSession(client)
            try await sam.register("sam")
            _ = try await sam.post("/profile/sharing", ["shares": "1"])
            let film = try await sam.addBook(Self.film.merging(["shelf": "read"]) { $1 })
            _ = try await sam.post("/books/\(film)/dates", ["started_at": "", "finished_at": "2026-03-14"])
            _ = try await sam.addBook(["kind": "show", "title": "Severance", "shelf": "reading"])
            _ = try await sam.addBook(["title": "Emma", "shelf": "reading"])
            let bob = WebSession(client)
            try await bob.register("bob")
            let lines = try await bob.get("/house/feed").text.components(separatedBy: "<li>").dropFirst().map {
                $0.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
                    .components(separatedBy: "\n")[0]
            }
            #expect(lines.contains("yesterday Sam watched Dune"))
            #expect(lines.contains("today Sam started watching Severance"))
            #expect(lines.contains("today Sam started Emma"))
        }
    }

    /// A film taken off Watched and back (a mistaken tap) is still seen once; seen twice in a day, moved off
    /// Watched and back, it is still seen twice.
    @Test func movingAFilmOffWatchedAndBackCountsNoExtraViewing() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let film = try await web.addBook(Self.film.merging(["shelf": "read"]) { $1 })
            _ = try await web.post("/books/\(film)/dates", ["started_at": "", "finished_at": "2026-03-10"])
            for shelf in ["reading", "read"] { _ = try await web.post("/books/\(film)/shelf", ["shelf": shelf]) }
            var page = try await web.get("/books/\(film)").text
            #expect(page.contains("10 Mar") && !page.contains("seen ") && !page.contains("Earlier viewings"))

            _ = try await web.post("/books/\(film)/read-again", ["watched_on": "2026-03-10"])
            #expect(try await web.get("/books/\(film)").text.contains("seen 2 times"))
            for shelf in ["did_not_finish", "read"] { _ = try await web.post("/books/\(film)/shelf", ["shelf": shelf]) }
            page = try await web.get("/books/\(film)").text
            #expect(page.contains("seen 2 times"), "a viewing was lost or doubled moving off Watched and back")
        }
    }

    /// An imported book never lands on a film of the same title: it is a book of its own.
    @Test func anImportedBookIsNotMergedIntoAFilm() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let film = try await web.addBook(["kind": "movie", "title": "Arrival", "shelf": "want_to_read"])
            let csv = "Book Id,Title,Author,My Rating,Exclusive Shelf,Date Read\r\n1,Arrival,,4,read,2019/05/01\r\n"
            let uploaded = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "goodreads.csv", contentType: "text/csv", data: Data(csv.utf8))])
            let job = try #require(uploaded.headers[.location])
            _ = try await web.post(job + "/confirm", [:])
            _ = try await ImportWebTests.waitForResults(web, job)
            let filmPage = try await web.get("/books/\(film)").text
            #expect(filmPage.contains(#"<span class="shelf-badge">Want to watch</span>"#))
            #expect(!filmPage.contains("quick-rating-summary"))
            let read = try await web.get("/shelves/read").text
            #expect(read.contains("Arrival") && read.contains(#"<span class="badge">Read</span>"#))
        }
    }
}
