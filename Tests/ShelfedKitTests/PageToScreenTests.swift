import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Page to screen (issue 38) against a fake Wikidata answering in the shapes of the recordings: a film someone adds
/// is looked up in the background — its Wikidata item from TMDB's id for it, or found by its TMDB id (P4947) — and
/// what it is "based on" (P144) is kept; the film's page names the book ("Based on the book Dune by Frank Herbert"),
/// asks "Read it first?" while it waits on Want to watch, and says who in the house read it and watched it; the
/// book's page names its films. Nothing is named from someone who does not share.
@Suite struct PageToScreenTests {
    static func waitForCheck(_ app: TestApp, _ bookID: Int64) async throws -> Bool {
        for _ in 0..<200 {
            let checked = try await app.database().read { db in
                try Bool.fetchOne(
                    db, sql: "SELECT adaptations_checked_at IS NOT NULL FROM book WHERE id = ?", arguments: [bookID])
            }
            if checked == true { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    static func text(_ html: String) -> String {
        html.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
    }

    @Test func aFilmNamesItsBookAndTheBookItsFilm() async throws {
        try await FakeBooksServer.run { fake in
            var finding = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            finding.config.findsAdaptations = true
            let app = finding
            try await app.run { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                let sam = WebSession(client)
                try await sam.register("sam")
                let kit = WebSession(client)
                try await kit.register("kit")
                for person in [alice, sam] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
                // Sam read the novel; Kit too, but Kit does not share.
                let samsBook = try await sam.addBook(
                    ["title": "Dune", "authors": "Frank Herbert", "shelf": "read"])
                _ = try await kit.addBook(["title": "Dune", "authors": "Frank Herbert", "shelf": "read"])

                let added = try await alice.post(
                    "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "want_to_read"])
                let film = try #require(ScreenAddTests.bookID(from: added))
                #expect(try await Self.waitForCheck(app, film))
                let kept = try await app.database().read { db in
                    try String.fetchAll(
                        db,
                        sql: "SELECT source_title || ' / ' || source_author FROM adaptation WHERE screen_book_id = ?",
                        arguments: [film])
                }
                #expect(kept == ["Dune / Frank Herbert"])

                var page = Self.text(try await alice.get("/books/\(film)").text)
                #expect(page.contains("Based on the book Dune by Frank Herbert"))
                #expect(page.contains("Read it first? You have not read Dune yet."))
                #expect(page.contains("In the house: Sam read it."), "Kit does not share")
                #expect(try await alice.get("/books/\(film)").text.contains(#"href="/house/books/\#(samsBook)""#))

                // Alice puts the book on Want to read: her own copy is linked, and still "read it first".
                let alicesBook = try await alice.addBook(
                    ["title": "DUNE", "authors": "Frank Herbert", "shelf": "want_to_read"])
                let again = try await alice.get("/books/\(film)").text
                #expect(again.contains(#"href="/books/\#(alicesBook)""#))
                #expect(Self.text(again).contains("Read it first? Dune is on your Want to read."))
                // In Alice's language: the lines are made inside the page's database read, on a database thread.
                _ = try await alice.post("/language", ["language": "es", "back": "/"])
                let spanish = Self.text(try await alice.get("/books/\(film)").text)
                #expect(spanish.contains("Basada en el libro Dune de Frank Herbert"), "\(spanish)")
                #expect(spanish.contains("¿Leerlo antes? Dune está en tu estantería Quiero leer."))
                _ = try await alice.post("/language", ["language": "en", "back": "/"])

                // The book's page names the film; once Sam watched it, so does In the house.
                _ = try await sam.post(
                    "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "read"])
                page = Self.text(try await alice.get("/books/\(alicesBook)").text)
                #expect(page.contains("On screen") && page.contains("The film Dune (2021)"))
                #expect(page.contains("In the house: Sam watched it."))
                #expect(try await alice.get("/books/\(alicesBook)").text.contains(#"href="/books/\#(film)""#))
                // Watched: no more "read it first".
                _ = try await alice.post("/books/\(film)/shelf", ["shelf": "read"])
                page = Self.text(try await alice.get("/books/\(film)").text)
                #expect(!page.contains("Read it first?") && page.contains("In the house: Sam read it, Sam watched it."))

                // Another author's "Dune" is not this film's book.
                let other = try await alice.addBook(["title": "Dune", "authors": "Someone Else", "shelf": "read"])
                #expect(!(try await alice.get("/books/\(other)").text.contains("On screen")))

                // Without TMDB's Wikidata id, the item is found by the film's TMDB id (P4947). A change to someone's
                // shelves rings the worker.
                try await app.database().write { db in
                    try db.execute(
                        sql: """
                            UPDATE book SET external_ids = '{"imdb":"tt1160419"}', adaptations_checked_at = NULL
                            WHERE id = ?
                            """, arguments: [film])
                    try db.execute(sql: "DELETE FROM adaptation")
                }
                _ = try await alice.post("/books/\(film)/favourite", ["favourite": "1"])
                #expect(try await Self.waitForCheck(app, film))
                #expect(fake.wikidataRequests.contains { $0.removingPercentEncoding?.contains("P4947=438631") == true })
                let found = try await app.database().read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM adaptation") ?? 0
                }
                #expect(found == 1)
            }
        }
    }
}
