import Foundation
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// More like this across kinds (issue 37): a book's page leads with the film of the same story, and the film's page
/// with the book, from the same on-device model; a film that only shares a name with a book is not called the same
/// story.
@Suite(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
struct ScreenSimilarTests {
    @Test func storyKeysMatchTellingsOfOneStory() {
        #expect(SimilarBooks.storyKey("Dune") == SimilarBooks.storyKey("DUNE: Part Two"))
        #expect(SimilarBooks.storyKey("The Martian") == SimilarBooks.storyKey("Martian (2015)"))
        #expect(SimilarBooks.storyKey("Dune") != SimilarBooks.storyKey("Dune Messiah"))
        #expect(SimilarBooks.storyKey("The") == "the")
    }

    @Test func theFilmOfABookLeadsMoreLikeThisAndTheBookTheFilms() async throws {
        let app = MeaningSearchTests.app()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            try await web.register("alice")
            let novel = try await web.addBook([
                "title": "Dune", "authors": "Frank Herbert",
                "description": """
                On the desert planet Arrakis, the only source of the spice melange, young Paul Atreides and his \
                family take over the planet's rule, are betrayed, and Paul flees into the deep desert to live \
                among the Fremen and their giant sandworms.
                """,
            ])
            let film = try await web.addBook([
                "kind": "movie", "title": "Dune", "authors": "Denis Villeneuve", "published_date": "2021",
                "description": """
                Paul Atreides, a brilliant young man, travels to the dangerous desert planet Arrakis to secure \
                the future of his family and people, as forces clash over the planet's spice and the Fremen wait \
                in the sand among the sandworms.
                """,
            ])
            for (title, description) in [
                ("Emma", "A young woman in an English village meddles in her neighbours' marriages and love affairs."),
                ("The Hobbit", "A hobbit is swept into a quest with dwarves to win back their mountain from a dragon."),
                (
                    "Heat",
                    "A magazine writer leaves his job to work in an Italian restaurant kitchen and learn to cook."
                ),
            ] {
                _ = try await web.addBook(["title": title, "description": description])
            }
            let robbers = try await web.addBook([
                "kind": "movie", "title": "Heat", "published_date": "1995",
                "description": "A detective in Los Angeles hunts a crew of professional bank robbers.",
            ])
            try await MeaningSearchTests.waitForVectors(app, count: 6)

            let bookPage = try await web.get("/books/\(novel)").text
            let section = try #require(bookPage.components(separatedBy: "More like this</h2>").last)
            #expect(MeaningSearchTests.similarTitles(section).first == "Dune", "\(section)")
            #expect(section.contains("The same story as a film"))
            #expect(section.contains("/books/\(film)"))
            let filmPage = try await web.get("/books/\(film)").text
            #expect(filmPage.contains("The same story as a book"))
            // A name in common is not a story in common.
            let heat = try await web.get("/books/\(robbers)").text
            #expect(!heat.contains("The same story as a book"))

            // Kept between pages (issue 36): a cover changed behind the server's back (another connection, as another
            // process would) is not seen while nothing the list is made of has changed through the server…
            try await Self.waitForNeighbours(app)
            _ = try await web.get("/books/\(novel)")
            try await app.database().write { db in
                try db.execute(sql: "UPDATE book SET cover_path = 'quietly.jpg' WHERE id = ?", arguments: [film])
            }
            #expect(!(try await web.get("/books/\(novel)").text.contains("quietly.jpg")))
            // … and is, once a shelf changes.
            _ = try await web.post("/books/\(film)/shelf", ["shelf": "read"])
            #expect(try await web.get("/books/\(novel)").text.contains("/covers/quietly.jpg"))
            // The reasons in the reader's words.
            _ = try await web.post("/language", ["language": "es", "back": "/"])
            #expect(try await web.get("/books/\(novel)").text.contains("La misma historia en película"))
        }
    }

    /// Until the background pass has found every book's neighbours (its queue empty), at most a minute.
    static func waitForNeighbours(_ app: TestApp) async throws {
        let database = try app.database()
        for _ in 0..<240 {
            let waiting = try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_neighbours_pending") ?? 0
            }
            if waiting == 0 { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        Issue.record("the books' neighbours were not found within a minute")
    }
}
