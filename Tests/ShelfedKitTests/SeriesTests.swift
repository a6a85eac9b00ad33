import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// A book's place in a series, read from titles and providers' strings (issue 24).
@Suite("Series places")
struct SeriesPlaceTests {
    @Test(
        "Goodreads titles give their series; anything else is left a title",
        arguments: [
            ("Leviathan Wakes (The Expanse, #1)", "Leviathan Wakes", "The Expanse", 1.0),
            ("Gods of Risk (The Expanse, #2.5)", "Gods of Risk", "The Expanse", 2.5),
            ("1Q84 (1Q84, #1-3)", "1Q84", "1Q84", 1.0),
            ("Dune (Dune #1)", "Dune", "Dune", 1.0),
            ("Prequel (Cycle, #0)", "Prequel", "Cycle", 0.0),
        ])
    func titles(title: String, bare: String, series: String, position: Double) throws {
        let split = try #require(SeriesPlace.split(title: title))
        #expect(split.title == bare && split.series.name == series && split.series.position == position)
    }

    @Test(
        "titles that only look like a series stay whole",
        arguments: [
            "Saga (Vol. 1)", "(Dune, #1)", "Dune, #1", "Dune (Dune, #)", "Dune (, #1)", "Dune (Dune, #10000)",
            "Dune (Dune, #1.234)", "Dune (Dune, #-1)", "Dune (Dune, #١)", "Dune (Dune, #1)\u{301}", "Dune (D\u{0}, #1)",
            "Dune (Dune, #99999999999999999999999)",
        ])
    func notSeries(title: String) {
        #expect(SeriesPlace.split(title: title) == nil)
    }

    @Test(
        "Open Library's series strings with a number are read; a publisher's series without one is not",
        arguments: [
            ("The Expanse ; 3", "The Expanse", 3.0),
            ("Discworld -- 12", "Discworld", 12.0),
            ("Harry Potter (1)", "Harry Potter", 1.0),
            ("A Song of Ice and Fire, bk. 3", "A Song of Ice and Fire", 3.0),
            ("Culture #2", "Culture", 2.0),
            ("Milano 3", "Milano", 3.0),
            ("Foundation series ; no.2.", "Foundation series", 2.0),
        ])
    func openLibrary(text: String, name: String, position: Double) throws {
        let place = try #require(SeriesPlace.fromOpenLibrary(text))
        #expect(place.name == name && place.position == position)
    }

    @Test func openLibraryNoiseIsNotASeries() {
        for text in ["Penguin classics", "Book 1", "1984", "", "#3", String(repeating: "a", count: 5_000) + " 3"] {
            #expect(SeriesPlace.fromOpenLibrary(text) == nil, "\(text.prefix(20))")
        }
    }

    @Test func positionsAreParsedWithinBoundsAndSpelledAsReadersWriteThem() {
        #expect(SeriesPlace.parsePosition("3") == 3 && SeriesPlace.parsePosition("2.5") == 2.5)
        #expect(SeriesPlace.parsePosition("2.25") == 2.25 && SeriesPlace.parsePosition("9999") == 9999)
        for bad in ["", "-1", "+1", "1e3", "2.255", "10000", "1.", ".5", "1..2", " 1", "١", "0x1"] {
            #expect(SeriesPlace.parsePosition(bad) == nil, "\(bad)")
        }
        #expect(
            SeriesPlace.spelled(3) == "3" && SeriesPlace.spelled(2.5) == "2.5" && SeriesPlace.spelled(2.25) == "2.25")
        #expect(SeriesPlace(name: "The Expanse", position: 3)?.phrase == "Book 3 of The Expanse")
        #expect(SeriesPlace(name: "The Expanse", position: nil)?.phrase == "Part of The Expanse")
        #expect(SeriesPlace(name: "  ", position: 1) == nil && SeriesPlace(name: "X", position: .nan) == nil)
    }
}

/// Series on the web: set by hand, shown on the book page with the next book, listed in order on the series page,
/// and never another member's own books.
@Suite("Series pages")
struct SeriesPageTests {
    @Test func aSeriesIsTypedOnTheEditFormAndShownInOrderWithTheNextBook() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            #expect(try await alice.get("/series").text.contains("None of your books is in a series yet"))
            var ids: [Int64] = []
            for (title, shelf) in [
                ("Caliban's War", "reading"), ("Leviathan Wakes", "read"), ("Abaddon's Gate", "want_to_read"),
            ] {
                ids.append(try await alice.addBook(["title": title, "authors": "James S. A. Corey", "shelf": shelf]))
            }
            // A number with no series, and a number that is not one, are refused with the typed text kept.
            let noSeries = try await alice.post(
                "/books/\(ids[0])/edit", ["title": "Caliban's War", "series_position": "2"])
            #expect(noSeries.status == .unprocessableContent)
            #expect(noSeries.text.contains(#"id="series-error""#))
            let wrong = try await alice.post(
                "/books/\(ids[0])/edit", ["title": "Caliban's War", "series": "The Expanse", "series_position": "two"])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"value="two""#) && wrong.text.contains(#"value="The Expanse""#))
            #expect(wrong.text.contains(#"id="series_position-error""#))

            for (id, position) in zip(ids, ["2", "1", "3"]) {
                let saved = try await alice.post(
                    "/books/\(id)/edit",
                    ["title": try await Self.title(app, id), "series": "The Expanse", "series_position": position])
                #expect(saved.status == .seeOther)
            }
            #expect(try await alice.get("/books/\(ids[0])/edit").text.contains(#"name="series_position" value="2""#))

            let page = try await alice.get("/books/\(ids[0])").text
            #expect(page.contains(#"<a href="/series?name=The%20Expanse">Book 2 of The Expanse</a>"#))
            #expect(page.contains(#"next: <a href="/books/\#(ids[2])">Abaddon&#39;s Gate</a>"#))

            // Bob's own typed book in a series of the same name is his alone.
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobs = try await bob.addBook(["title": "Bob's Expanse fan fiction"])
            _ = try await bob.post(
                "/books/\(bobs)/edit",
                ["title": "Bob's Expanse fan fiction", "series": "the expanse", "series_position": "1.5"])

            let series = try await alice.get("/series?name=the+expanse")
            #expect(series.status == .ok)
            let titles = MeaningSearchTests.titles(series.text)
            #expect(titles == ["Leviathan Wakes", "Caliban's War", "Abaddon's Gate"], "\(titles)")
            #expect(series.text.contains("3 books · 3 in your library · 1 read"))
            #expect(!series.text.contains("fan fiction"))
            let index = try await alice.get("/series").text
            #expect(index.contains(#"<a href="/series?name=The%20Expanse">The Expanse</a>"#))
            #expect(index.contains("3 in your library · 1 read"))

            // Bob sees only his own book in it; a series nobody has is a 404 page.
            let bobsSeries = try await bob.get("/series?name=The%20Expanse").text
            #expect(MeaningSearchTests.titles(bobsSeries) == ["Bob's Expanse fan fiction"])
            #expect(try await alice.get("/series?name=Discworld").status == .notFound)
            #expect(try await alice.get("/series?name=" + String(repeating: "x", count: 5_000)).status == .notFound)

            // Clearing the series takes the book out of it.
            _ = try await alice.post("/books/\(ids[2])/edit", ["title": "Abaddon's Gate", "series": ""])
            #expect(!(try await alice.get("/books/\(ids[0])").text.contains("next:")))
        }
    }

    /// The other books of a series lead "More like this", ahead of the same author's, with their place as the reason.
    @Test(
        .enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)),
        .enabled(if: SharedFixtures.available, SharedFixtures.skipReason))
    func moreLikeThisPutsTheSeriesFirst() async throws {
        let books = try MeaningSearchTests.realBooks()
        let app = MeaningSearchTests.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let ids = try await MeaningSearchTests.add(books, to: alice)
            // Two books no reader would pair, put in one series by hand.
            let stone = try #require(ids["Harry Potter and the Sorcerer's Stone"])
            let morel = try #require(ids["The Invention of Morel"])
            for (id, title, position) in [
                (stone, "Harry Potter and the Sorcerer's Stone", "1"), (morel, "The Invention of Morel", "2"),
            ] {
                let book = try #require(books.first { $0.title == title })
                _ = try await alice.post(
                    "/books/\(id)/edit",
                    [
                        "title": title, "authors": book.authors, "description": book.description,
                        "series": "Test Cycle", "series_position": position,
                    ])
            }
            try await MeaningSearchTests.waitForVectors(app, count: books.count)
            let page = try await alice.get("/books/\(stone)").text
            let section = try #require(page.components(separatedBy: "More like this</h2>").last)
            let similar = MeaningSearchTests.similarTitles(section)
            #expect(similar.first == "The Invention of Morel", "\(similar)")
            #expect(section.contains("Book 2 of Test Cycle"))
        }
    }

    @Test func theAPIListsSeriesAndASeriesInOrderButNeverAnotherMembersBooks() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let second = try await alice.addBook([
                "title": "Caliban's War", "series": "The Expanse", "series_position": "2",
            ])
            _ = try await alice.addBook(
                ["title": "Leviathan Wakes", "series": "The Expanse", "series_position": "1", "shelf": "read"])
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.addBook(["title": "Bob's own", "series": "The Expanse", "series_position": "3"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")

            let list = try await api.get("/api/v1/series")
            #expect(list.status == .ok)
            let series = try #require(list.json?["series"] as? [[String: Any]])
            #expect(series.count == 1 && series[0]["name"] as? String == "The Expanse")
            #expect(series[0]["book_count"] as? Int == 2 && series[0]["read_count"] as? Int == 1)

            let books = try await api.get("/api/v1/series/books?name=the+expanse")
            #expect(books.status == .ok && books.json?["name"] as? String == "The Expanse")
            let items = try #require(books.json?["books"] as? [[String: Any]])
            #expect(items.map { $0["title"] as? String } == ["Leviathan Wakes", "Caliban's War"])
            #expect(items[1]["id"] as? Int == Int(second) && items[1]["position"] as? Double == 2)
            #expect(items[0]["shelf_id"] as? Int == Shelf.read.readerID)

            #expect(try await api.get("/api/v1/series/books?name=Discworld").status == .notFound)
            #expect(try await api.get("/api/v1/series/books").status == .badRequest)
            let long = String(repeating: "x", count: 5_000)
            #expect(try await api.get("/api/v1/series/books?name=\(long)").status == .notFound)
            var bobsAPI = APIClient(client)
            try await bobsAPI.signIn("bob@example.com")
            let bobs = try await bobsAPI.get("/api/v1/series/books?name=The%20Expanse")
            #expect((bobs.json?["books"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Bob's own"])
        }
    }

    static func title(_ app: TestApp, _ id: Int64) async throws -> String {
        try await app.database().read { db in
            try String.fetchOne(db, sql: "SELECT title FROM book WHERE id = ?", arguments: [id])
        } ?? ""
    }
}
