import Foundation
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Books, films and shows on the same shelves (issue 37): the favourites tab shows every kind with a kind filter,
/// every list can be narrowed to one kind, and sorted by year or (for films and shows) running time.
@Suite struct ScreenShelfTests {
    /// The titles of the cards on a list page, in order.
    static func titles(_ page: String) -> [String] {
        page.components(separatedBy: "<h3 class=\"card-title\">").dropFirst().compactMap { card in
            card.range(of: "\">").flatMap { start in
                card[start.upperBound...].range(of: "</a>").map { String(card[start.upperBound..<$0.lowerBound]) }
            }
        }
    }

    @Test func favouritesShowEveryKindAndNarrowToOne() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune Messiah", "published_date": "1969", "shelf": "read"])
            let film = try await web.addBook(ScreenTitleTests.film.merging(["shelf": "read"]) { $1 })
            let show = try await web.addBook(
                ["kind": "show", "title": "Severance", "published_date": "2022", "shelf": "read"])
            let short = try await web.addBook(
                ["kind": "movie", "title": "La Jetée", "published_date": "1962", "runtime": "28", "shelf": "read"])
            _ = try await web.addBook(["title": "Not a favourite", "shelf": "read"])
            for id in [book, film, show, short] {
                _ = try await web.post("/books/\(id)/favourite", ["favourite": "true"])
            }

            let all = try await web.get("/favourites").text
            #expect(Set(Self.titles(all)) == ["Dune Messiah", "Dune", "Severance", "La Jetée"])
            #expect(all.contains(#"<nav class="shelf-tabs kind-tabs" aria-label="Kinds">"#))
            #expect(all.contains(#"aria-current="page">All</a>"#))
            #expect(all.contains("1–4 of 4 titles"))
            let films = try await web.get("/favourites?kind=movie").text
            #expect(Set(Self.titles(films)) == ["Dune", "La Jetée"])
            #expect(films.contains(#"aria-current="page">Films</a>"#))
            #expect(films.contains("Films only") && films.contains("1–2 of 2 films"))
            #expect(Self.titles(try await web.get("/favourites?kind=show").text) == ["Severance"])
            #expect(Self.titles(try await web.get("/favourites?kind=book").text) == ["Dune Messiah"])
            // Any shelf narrows the same way, from its filter form.
            let shelf = try await web.get("/shelves/read").text
            #expect(shelf.contains(#"<select id="filter-kind" name="kind">"#))
            #expect(Self.titles(try await web.get("/shelves/read?kind=show").text) == ["Severance"])
            // A kind the list cannot take is said to be left out, never trusted.
            let odd = try await web.get("/favourites?kind=podcast%27--").text
            #expect(odd.contains("Not used, because the link gave a value this list cannot take: kind."))
            #expect(Self.titles(odd).count == 4)
        }
    }

    @Test func listsSortByYearAndFilmsAndShowsByRunningTime() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            _ = try await web.addBook(["title": "Undated"])
            _ = try await web.addBook(["title": "Emma", "published_date": "1815-12-23"])
            _ = try await web.addBook(ScreenTitleTests.film)
            _ = try await web.addBook(["kind": "movie", "title": "La Jetée", "published_date": "1962", "runtime": "28"])
            _ = try await web.addBook(["kind": "movie", "title": "Untimed", "published_date": "2000"])

            // Newest first by default; what has no year comes last either way.
            #expect(
                Self.titles(try await web.get("/shelves?sort=year").text)
                    == ["Dune", "Untimed", "La Jetée", "Emma", "Undated"])
            #expect(
                Self.titles(try await web.get("/shelves?sort=year&order=asc").text)
                    == ["Emma", "La Jetée", "Untimed", "Dune", "Undated"])

            // Running time is offered once the list is of films, shortest first.
            #expect(!(try await web.get("/shelves").text.contains(#"<option value="runtime""#)))
            let films = try await web.get("/shelves?kind=movie").text
            #expect(films.contains(#"<option value="runtime">Running time</option>"#))
            #expect(
                Self.titles(try await web.get("/shelves?kind=movie&sort=runtime").text)
                    == ["La Jetée", "Dune", "Untimed"])
            #expect(
                Self.titles(try await web.get("/shelves?kind=movie&sort=runtime&order=desc").text)
                    == ["Dune", "La Jetée", "Untimed"])
        }
    }
}
