import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Filters on the shelf pages and the genres page (issue 24): plain GET parameters, bounded, shown and removable.
@Suite struct LibraryFiltersTests {
    /// The titles of the book cards on a shelf page, in order.
    static func cardTitles(_ html: String) -> [String] {
        html.components(separatedBy: "<h3 class=\"card-title\"><a href=\"").dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last?.components(separatedBy: "</a>").first
        }
    }

    @Test func valuesOutOfBoundsAreIgnoredNotTrusted() {
        let hostile = LibraryFilters(
            query: FormFields(
                urlEncoded:
                    "year_from=99999999999999999999&year_to=-3&rating=4.3&owned=yes&favourite=true&language="
                    + String(repeating: "x", count: 30) + "&category=" + String(repeating: "y", count: 201)
                    + "&author=%00"))
        #expect(hostile.isEmpty)
        #expect(
            hostile.leftOut == [
                "author", "genre", "published from", "published up to", "language", "owned", "rated at least",
                "favourites only",
            ])
        let backwards = LibraryFilters(query: FormFields(urlEncoded: "year_from=2000&year_to=1900&owned="))
        #expect(backwards.yearFrom == 1900 && backwards.yearTo == 2000 && backwards.leftOut.isEmpty)
        let good = LibraryFilters(
            query: FormFields(urlEncoded: "year_from=1990&year_to=2000&rating=3.75&owned=0&favourite=1&category=Sci-Fi")
        )
        #expect(good.yearFrom == 1990 && good.yearTo == 2000 && good.minRating == 3.75 && good.owned == false)
        #expect(good.favourite && good.category == "Sci-Fi")
        #expect(good.query["rating"] == "3.75" && good.query["owned"] == "0")
        #expect(good.descriptions.map(\.label).contains("Published 1990–2000"))
    }

    @Test func aShelfIsNarrowedByGenreYearsAndRatingAndTheFiltersCanBeRemoved() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            var ids: [String: Int64] = [:]
            for (title, year) in [("Old Fantasy", "1954"), ("New Fantasy", "2015"), ("Cookbook", "2015")] {
                ids[title] = try await alice.addBook(["title": title, "published_date": year, "shelf": "read"])
            }
            _ = try await alice.post("/books/\(ids["New Fantasy"]!)/review", ["rating": "4.5"])
            _ = try await alice.post("/books/\(ids["Old Fantasy"]!)/review", ["rating": "5"])
            try await app.database().write { db in
                try db.execute(
                    sql: "UPDATE book SET categories = '[\"Fantasy\", \"Fiction\"]' WHERE title LIKE '%Fantasy'")
                try db.execute(sql: "UPDATE book SET categories = '[\"Cooking\"]' WHERE title = 'Cookbook'")
            }
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobs = try await bob.addBook(["title": "Bob's secret"])
            try await app.database().write { db in
                try db.execute(sql: "UPDATE book SET categories = '[\"Bob Genre\"]' WHERE id = ?", arguments: [bobs])
            }

            let fantasy = try await alice.get("/shelves?category=fantasy").text
            #expect(Self.cardTitles(fantasy) == ["New Fantasy", "Old Fantasy"], "\(fantasy.count)")
            #expect(
                fantasy.contains(#"aria-label="Remove the filter Genre: fantasy""#) && fantasy.contains("Clear all"))
            #expect(!fantasy.contains("Not used, because"))
            // What the list cannot take is named; what it does not know is not copied into every card's links.
            let padded = try await alice.get(
                "/shelves?category=fantasy&year_from=abc&junk=" + String(repeating: "z", count: 5_000)
            ).text
            #expect(Self.cardTitles(padded) == ["New Fantasy", "Old Fantasy"])
            #expect(padded.contains("cannot take: published from."))
            #expect(!padded.contains("zzzz") && padded.count < fantasy.count + 1_000)
            // Genre + years + rating, on the Read shelf; the sort form and the page links keep them.
            let narrowPath = "/shelves/read?category=Fantasy&year_from=2000&year_to=2020&rating=4"
            let narrow = try await alice.get(narrowPath).text
            #expect(Self.cardTitles(narrow) == ["New Fantasy"])
            #expect(narrow.contains("Published 2000–2020") && narrow.contains("Rated 4 stars or more"))
            #expect(narrow.contains(#"<input type="hidden" name="category" value="Fantasy">"#))
            // The genre's rows carry the year (migration v30): editing the date moves the book in and out of range.
            _ = try await alice.post(
                "/books/\(ids["New Fantasy"]!)/edit", ["title": "New Fantasy", "published_date": "1999-05"])
            #expect(Self.cardTitles(try await alice.get(narrowPath).text).isEmpty)
            let widened = try await alice.get("/shelves/read?category=Fantasy&year_from=1999&year_to=2020&rating=4")
            #expect(Self.cardTitles(widened.text) == ["New Fantasy"])
            let quarter = try await alice.get("/shelves?rating=3.75").text
            #expect(quarter.contains(#"<option value="3.75" selected>3¾ stars</option>"#))
            let none = try await alice.get("/shelves?category=Fantasy&rating=5&year_from=2000").text
            #expect(none.contains("No books here match these filters."))
            // Nonsense is ignored: the whole list.
            let ignored = try await alice.get("/shelves?year_from=99999999999999999999&rating=9&owned=maybe")
            #expect(ignored.status == .ok && Self.cardTitles(ignored.text).count == 3)

            let genres = try await alice.get("/genres").text
            #expect(genres.contains(#"<a href="/shelves?category=Fantasy">Fantasy</a>"#))
            #expect(genres.contains("2 books") && genres.contains("1 book"))
            #expect(!genres.contains("Bob Genre"))
            #expect(Self.cardTitles(try await alice.get("/shelves?category=Bob%20Genre").text).isEmpty)
        }
    }

    @Test func aFilteredListIsPagedInItsSortOrderAndCounted() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            // 70 books on Read, all rated 4, added in the reverse of their titles' order (so no id order is also the
            // title order): the even-numbered ones Fantasy from 2001, the odd ones Fantasy from 1950 (out of range).
            try await app.database().write { db in
                let user = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'alice'")
                for number in (0..<70).reversed() {
                    try db.execute(
                        sql: """
                            INSERT INTO book (title, authors, categories, published_date, source, created_at,
                                updated_at, owner_user_id)
                            VALUES (?, '[]', '["Fantasy"]', ?, 'manual', '2024-01-01', '2024-01-01', ?)
                            """,
                        arguments: [
                            String(format: "Book %02d", number), number.isMultiple(of: 2) ? "2001" : "1950", user,
                        ])
                    try db.execute(
                        sql: """
                            INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, added_at, updated_at)
                            VALUES (?, ?, 'read', 0, 4, '2024-01-01', '2024-01-01')
                            """, arguments: [user, db.lastInsertedRowID])
                }
            }
            let even = (0..<70).filter { $0.isMultiple(of: 2) }.map { String(format: "Book %02d", $0) }
            let path = "/shelves/read?category=Fantasy&year_from=2000&rating=4&sort=title&order=desc"
            let first = try await alice.get(path).text
            #expect(Self.cardTitles(first) == Array(even.reversed()))
            #expect(first.contains("1–35 of 35 books"))
            let ascending = try await alice.get(path.replacingOccurrences(of: "desc", with: "asc") + "&page=1").text
            #expect(Self.cardTitles(ascending) == even)
            // Every book in the genre: two pages, the second the last ten, each page counted.
            let all = "/shelves/read?category=Fantasy&sort=title&order=asc"
            let second = try await alice.get(all + "&page=2").text
            #expect(Self.cardTitles(second) == (60..<70).map { String(format: "Book %02d", $0) })
            #expect(second.contains("61–70 of 70 books"))
            // Equal ratings fall back to the newest entry first, across the page boundary too.
            let tied = "/shelves/read?category=Fantasy&sort=rating&order=desc"
            #expect(Self.cardTitles(try await alice.get(tied).text) == (0..<60).map { String(format: "Book %02d", $0) })
            #expect(
                Self.cardTitles(try await alice.get(tied + "&page=2").text)
                    == (60..<70).map { String(format: "Book %02d", $0) })
            let beyond = try await alice.get(all + "&page=5")
            #expect(beyond.status == .ok && Self.cardTitles(beyond.text).isEmpty)
            #expect(beyond.text.contains("This list ends on page 2."))
            #expect(beyond.text.contains(#"&amp;page=2" rel="prev">"#))
            #expect(
                beyond.text.contains(#"href="/shelves/read?category=Fantasy&amp;order=asc&amp;sort=title&amp;page=2""#))
        }
    }

    @Test func ownedAndFormatAreEditedOnTheBookPageAndFilterTheShelves() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let kindle = try await alice.addBook(["title": "On the Kindle"])
            _ = try await alice.addBook(["title": "Borrowed"])
            let page = try await alice.get("/books/\(kindle)").text
            #expect(page.contains(#"<span id="copy-heading">Your copy</span>"#) && page.contains(#"list="formats""#))
            let saved = try await alice.post("/books/\(kindle)/copy", ["owned": "1", "format": "E-book"])
            #expect(saved.headers[.location] == "/books/\(kindle)?saved=copy#copy-heading")
            let shown = try await alice.get("/books/\(kindle)").text
            #expect(shown.contains(#"name="owned" value="1" checked"#) && shown.contains(#"value="E-book""#))
            #expect(Self.cardTitles(try await alice.get("/shelves?owned=1&format=e-book").text) == ["On the Kindle"])
            #expect(Self.cardTitles(try await alice.get("/shelves?owned=0").text) == ["Borrowed"])

            let long = String(repeating: "x", count: 101)
            let refused = try await alice.post("/books/\(kindle)/copy", ["owned": "1", "format": long])
            #expect(refused.status == .unprocessableContent && refused.text.contains(#"value="\#(long)""#))
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/books/\(kindle)/copy", ["owned": "0"]).status == .notFound)
        }
    }

    @Test func categoriesOfBooksFromBeforeAreIndexed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("genres-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v17 did not finish")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, categories, published_date, source, created_at, updated_at)
                        VALUES ('Dune', '[]', '["Science Fiction", " Science Fiction ", 7, ""]', '1965-08', 'google',
                            '2024-01-01', '2024-01-01'),
                            ('Broken', '[]', 'not json', NULL, 'google', '2024-01-01', '2024-01-01');
                        """)
            }
        }
        let database = try AppDatabase(path: path)
        try database.writer.write { db in
            let rows = "SELECT name, published_year FROM book_category ORDER BY name"
            func categories() throws -> [String] {
                try Row.fetchAll(db, sql: rows).map { "\($0[0] as String) \($0[1] as Int? ?? -1)" }
            }
            // Migration v30 gave the rows from before their book's year; the triggers keep it.
            #expect(try categories() == ["Science Fiction 1965"])
            try db.execute(sql: "UPDATE book SET published_date = NULL WHERE title = 'Dune'")
            #expect(try categories() == ["Science Fiction -1"])
            try db.execute(sql: "UPDATE book SET published_date = '1965-08' WHERE title = 'Dune'")
            #expect(try categories() == ["Science Fiction 1965"])
            try db.execute(sql: "UPDATE book SET categories = '[\"Space\", \"Sand\"]' WHERE title = 'Dune'")
            #expect(try categories() == ["Sand 1965", "Space 1965"])
            try db.execute(
                sql: "UPDATE book SET published_date = 'circa 1965', categories = '[\"Space\"]' WHERE title = 'Dune'")
            #expect(try categories() == ["Space 0"])
            try db.execute(
                sql: """
                    INSERT INTO book (title, authors, categories, published_date, source, created_at, updated_at)
                    VALUES ('Emma', '[]', '["Romance"]', '1815-12-23', 'google', '2024-01-01', '2024-01-01')
                    """)
            #expect(try categories() == ["Romance 1815", "Space 0"])
            try db.execute(sql: "DELETE FROM book WHERE title = 'Emma'")
            try db.execute(sql: "UPDATE book SET categories = '[\"Space\"]' WHERE title = 'Dune'")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM book_category") == ["Space"])
            try db.execute(sql: "UPDATE book SET categories = 'still not json' WHERE title = 'Dune'")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_category") == 0)
        }
    }
}
