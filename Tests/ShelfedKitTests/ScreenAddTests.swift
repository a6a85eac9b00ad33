import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Finding a film or show and adding it with its details (issue 37): the search page, the add buttons, the title's
/// page with what the provider knew, a poster kept in the media folder, episodes stored, one shared catalog row, and
/// a page that stays useful when the providers are down or the token is refused.
@Suite struct ScreenAddTests {
    static func bookID(from response: TestResponse) -> Int64? {
        guard let location = response.headers[.location] else { return nil }
        return location.split(separator: "?")[0].split(separator: "/").last.flatMap { Int64($0) }
    }

    @Test func aFilmFoundThroughTMDBIsAddedWithItsDetailsPosterAndOneSharedRow() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let page = try await web.get("/titles/search?q=dune&kind=movie")
                #expect(page.status == .ok)
                #expect(page.text.contains("Film · 2021"))
                // Results: no "nothing found" above them, and the way to add one by hand below.
                #expect(!page.text.contains("Nothing found for") && page.text.contains("Not here?"))
                #expect(page.text.contains(#"name="source" value="tmdb""#) && page.text.contains(#"value="438631""#))
                #expect(page.text.contains("+ Want to watch") && !page.text.contains("+ Want to read"))
                // The synopsis's markup is text, never markup.
                #expect(page.text.contains("&lt;script&gt;") && !page.text.contains("<script>alert"))
                #expect(page.text.contains(#"Data from <a href="/about">TMDB</a>"#))

                let added = try await web.post(
                    "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "want_to_read"])
                #expect(added.status == .seeOther)
                let id = try #require(Self.bookID(from: added))
                let film = try await web.get("/books/\(id)").text
                #expect(film.contains("Film · 2021 · 2 h 35 min"))
                #expect(film.contains("Directed by Denis Villeneuve"))
                #expect(film.contains("With Timothée Chalamet, Rebecca Ferguson, Josh Brolin, Zendaya"))
                #expect(film.contains("Want to watch"))
                let database = try app.database()
                let row = try await database.writer.read { db in
                    try Row.fetchOne(
                        db, sql: "SELECT kind, cover_path, provider_key, external_ids, source FROM book WHERE id = ?",
                        arguments: [id])
                }
                #expect(row?["kind"] == "movie" && row?["provider_key"] == "tmdb:movie:438631")
                #expect(row?["source"] == "tmdb")
                #expect((row?["cover_path"] as String?) != nil, "the poster is kept in the media folder")
                #expect((row?["external_ids"] as String?)?.contains(#""imdb":"tt1160419""#) == true)

                // Searching again says where it is; adding it again goes there instead of a second row.
                #expect(
                    try await web.get("/titles/search?q=dune&kind=movie").text.contains(
                        "On your <a href=\"/books/\(id)\">Want to watch</a> shelf"))
                let again = try await web.post(
                    "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "read"])
                #expect(again.headers[.location] == "/books/\(id)")

                // A housemate adding it shares the catalog row (and its poster), with a shelf entry of their own.
                let bob = WebSession(client)
                try await bob.register("bob")
                let theirs = try await bob.post(
                    "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "read"])
                #expect(Self.bookID(from: theirs) == id)
                let counts = try await database.writer.read { db in
                    (
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE provider_key IS NOT NULL"),
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book WHERE book_id = ?", arguments: [id])
                    )
                }
                #expect(counts.0 == 1 && counts.1 == 2)
                #expect(fake.posterRequests == ["/tmdbimages/w500/d5NXSklXo0qyIYkgV94XAgMIckC.jpg"], "fetched once")
            }
        }
    }

    @Test func withoutATokenAShowComesFromTVmazeWithItsEpisodesAndCredit() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let page = try await web.get("/titles/search?q=Severance")
                #expect(page.status == .ok)
                #expect(page.text.contains("TV show · 2022") && page.text.contains("Show data from"))
                let added = try await web.post(
                    "/titles/add", ["source": "tvmaze", "id": "44778", "kind": "show", "shelf": "reading"])
                let id = try #require(Self.bookID(from: added))
                let show = try await web.get("/books/\(id)").text
                #expect(show.contains("TV show · 2022 · 52 min episodes") && show.contains("Created by Dan Erickson"))
                #expect(show.contains(#"Show data from <a href="https://www.tvmaze.com">TVmaze</a>"#))
                #expect(show.contains("Watching"))
                let episodes = try await app.database().writer.read { db in
                    try Row.fetchAll(
                        db, sql: "SELECT season, number FROM episode WHERE book_id = ? ORDER BY season, number",
                        arguments: [id]
                    ).map { "S\($0[0] as Int)E\($0[1] as Int)" }
                }
                #expect(episodes == ["S1E1", "S1E2", "S1E3", "S1E4", "S2E1", "S2E2", "S2E3", "S2E4"])

                // Films without a token come from Wikidata, without a poster but with their people.
                let film = try await web.post(
                    "/titles/add", ["source": "wikidata", "id": "Q37550044", "kind": "movie", "shelf": "read"])
                let filmID = try #require(Self.bookID(from: film))
                let filmPage = try await web.get("/books/\(filmID)").text
                #expect(filmPage.contains("Directed by Denis Villeneuve") && filmPage.contains("2 h 35 min"))
                #expect(filmPage.contains("No cover"))
            }
        }
    }

    @Test func aRefusedTokenStillFindsTitlesAndTellsTheAdminWhereToFixIt() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: "eyJ.refused-token.for-tests"))
            try await app.run { client in
                let admin = WebSession(client)
                try await admin.register("alice")
                let page = try await admin.get("/titles/search?q=severance&kind=show")
                #expect(page.status == .ok && page.text.contains("Severance"))
                #expect(page.text.contains("TMDB token was refused") && page.text.contains(#"href="/household/tmdb""#))
            }
        }
    }

    @Test func withTheProvidersDownThePageAnswersWithinTheWaitWithAWayForward() async throws {
        try await FakeBooksServer.run { fake in
            var settings = fake.settings(tmdbToken: FakeBooksServer.tmdbToken)
            settings.pageWait = .seconds(2)
            let app = TestApp(search: settings)
            try await fake.stop()
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                // Refused connections fail at once; benchmarks/screen_search.py times the page against a provider
                // that hangs (issue 37's 3 s budget).
                let page = try await web.get("/titles/search?q=dune")
                #expect(page.status == .serviceUnavailable)
                // "Cannot be reached", or under a loaded run "slow to answer": either way the way forward is there.
                #expect(page.text.contains("Film and TV search is unavailable") && page.text.contains("Add it by hand"))
                let add = try await web.post(
                    "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "read"])
                #expect(add.status == .serviceUnavailable && add.text.contains("film and TV providers"))
            }
        }
    }

    @Test func nonsenseInTheAddFormIsRefusedAndTheAboutPageCreditsEveryProvider() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                for fields in [
                    ["source": "tmdb", "id": "438631", "kind": "book", "shelf": "read"],
                    ["source": "imdb", "id": "438631", "kind": "movie", "shelf": "read"],
                    ["source": "tmdb", "id": String(repeating: "9", count: 40), "kind": "movie", "shelf": "read"],
                    ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "elsewhere"],
                ] {
                    #expect(try await web.post("/titles/add", fields).status == .badRequest, "\(fields)")
                }
                #expect(
                    try await web.post("/titles/add", ["source": "tmdb", "id": "-1", "kind": "movie", "shelf": "read"])
                        .status == .notFound)
                let about = try await web.get("/about").text
                #expect(about.contains("This product uses the TMDB API but is not endorsed or certified by TMDB."))
                #expect(about.contains("TVmaze") && about.contains("Wikidata"))
            }
        }
    }

    @Test func theSearchFromAnywhereListsFilmsAndShowsBesideBooks() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let page = try await web.get("/find?q=Severance")
                #expect(page.status == .ok)
                #expect(page.text.contains("Films and TV shows to add"))
                #expect(page.text.contains(#"name="id" value="44778""#) && page.text.contains("+ Want to watch"))
                #expect(page.text.contains(#"href="/titles/search?q=Severance""#))
                // TVmaze and Wikidata were asked at the same time as Google Books, once each.
                #expect(fake.tvmazeRequests.count == 1 && fake.wikidataRequests.count == 1)
                try await fake.stop()
                let down = try await web.get("/find?q=Heat")
                #expect(down.status == .ok && down.text.contains("film and TV providers cannot be reached"))
            }
        }
    }

    @Test func seasonsAreAskedForInBatchesTMDBAndTheBodyCapAllow() {
        let thirty = (0...30).map { (number: $0, episodes: 10) }
        #expect(TMDBClient.seasonBatches(thirty).map(\.count) == [20, 11])
        let soap = (1...3).map { (number: $0, episodes: 2_500) }
        #expect(TMDBClient.seasonBatches(soap) == [[1], [2], [3]])
        let mixed = [(number: 0, episodes: 5), (number: 1, episodes: 390), (number: 2, episodes: 10)]
        #expect(TMDBClient.seasonBatches(mixed) == [[0, 1], [2]])
    }
}

/// The admin's TMDB token page: checked with TMDB before it is kept, never shown back whole, a 404 for anyone else.
@Suite struct TMDBTokenPageTests {
    @Test func theAdminTypesATokenTMDBChecksItAndSearchesUseIt() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let admin = WebSession(client)
                try await admin.register("alice")
                #expect(try await admin.get("/household").text.contains(#"href="/household/tmdb""#))
                #expect(try await admin.get("/household/tmdb").text.contains("No token: TV shows come from TVmaze"))

                let refused = try await admin.post("/household/tmdb", ["token": "eyJ.refused-token.for-tests"])
                #expect(refused.status == .unprocessableContent && refused.text.contains("TMDB refused this token"))
                #expect(!refused.text.contains("eyJ.refused-token.for-tests"), "a refused secret is not sent back")
                let garbage = try await admin.post("/household/tmdb", ["token": "not a token\u{7}"])
                #expect(garbage.status == .unprocessableContent && garbage.text.contains("API Read Access Token"))

                let saved = try await admin.post("/household/tmdb", ["token": FakeBooksServer.tmdbToken])
                #expect(saved.headers[.location] == "/household/tmdb?saved=tmdb")
                let page = try await admin.get("/household/tmdb").text
                #expect(page.contains("ending in …" + String(FakeBooksServer.tmdbToken.suffix(4))))
                #expect(!page.contains(FakeBooksServer.tmdbToken))
                let search = try await admin.get("/titles/search?q=dune&kind=movie").text
                #expect(search.contains(#"name="source" value="tmdb""#))

                let member = WebSession(client)
                try await member.register("bob")
                #expect(try await member.get("/household/tmdb").status == .notFound)
                #expect(try await member.post("/household/tmdb", ["action": "forget"]).status == .notFound)

                _ = try await admin.post("/household/tmdb", ["action": "forget"])
                #expect(try await admin.get("/titles/search?q=dune&kind=movie").text.contains(#"value="wikidata""#))
            }
        }
    }
}
