import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// A show watched episode by episode (issue 37, DESIGN §17): up next, one episode, "up to here" and a whole season
/// marked in the open viewing; the first episode moves it to Watching and the last aired one to Watched; specials and
/// episodes not aired yet never counted; watching again opens a new viewing and keeps the first's days; marking is
/// idempotent and bounded; another person's show or a missing episode is a 404.
@Suite struct ShowEpisodeTests {
    static func add(_ web: WebSession, _ source: String, _ id: String, shelf: String = "want_to_read") async throws
        -> Int64
    {
        let added = try await web.post("/titles/add", ["source": source, "id": id, "kind": "show", "shelf": shelf])
        return try #require(ScreenAddTests.bookID(from: added))
    }

    static func watches(_ app: TestApp, _ bookID: Int64) async throws -> [String] {
        try await app.database().writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT v.number, e.season, e.number, w.watched_on FROM episode_watch w
                    JOIN show_viewing v ON v.id = w.viewing_id JOIN episode e ON e.id = w.episode_id
                    WHERE e.book_id = ? ORDER BY v.number, e.season, e.number
                    """, arguments: [bookID]
            ).map { "\($0[0] as Int):S\($0[1] as Int)E\($0[2] as Int)" }
        }
    }

    @Test func episodesAreMarkedOneUpToHereAndBySeasonAndMoveTheShowAlong() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let id = try await Self.add(web, "tvmaze", "44778")
                var page = try await web.get("/books/\(id)").text
                #expect(page.contains("0 of 7 episodes watched."))
                #expect(
                    page.contains("Up next: <strong>S1E1</strong> <span class=\"episode-title\">Good News About Hell"))
                #expect(page.contains("Season 1 <span class=\"season-count\">0/4</span>"))
                #expect(page.contains("Season 2 <span class=\"season-count\">0/3</span>"))

                // The first episode starts the show.
                let first = try await web.post(
                    "/books/\(id)/episodes", ["season": "1", "episode": "1", "scope": "one"])
                #expect(first.headers[.location] == "/books/\(id)?season=1&saved=episode-watched#episodes")
                page = try await web.get("/books/\(id)?season=1&saved=episode-watched").text
                #expect(page.contains(#"<span class="shelf-badge">Watching</span>"#))
                #expect(page.contains("Up next: <strong>S1E2</strong>") && page.contains("Marked the episode watched."))
                // Marking it again changes nothing.
                _ = try await web.post("/books/\(id)/episodes", ["season": "1", "episode": "1", "scope": "one"])
                #expect(try await Self.watches(app, id) == ["1:S1E1"])

                _ = try await web.post("/books/\(id)/episodes", ["season": "2", "mark": "up_to:1"])
                #expect(try await Self.watches(app, id) == ["1:S1E1", "1:S1E2", "1:S1E3", "1:S1E4", "1:S2E1"])
                // Season 2's last episode has not aired: the season is caught up without it, and so is the show.
                page = try await web.get("/books/\(id)?season=2").text
                #expect(page.contains("Not aired yet"))
                let season = try await web.post("/books/\(id)/episodes", ["season": "2", "scope": "season"])
                #expect(season.headers[.location]?.contains("saved=show-caught-up") == true)
                page = try await web.get("/books/\(id)").text
                #expect(page.contains(#"<span class="shelf-badge">Watched</span>"#))
                #expect(page.contains("7 of 7 episodes watched — all caught up.") && !page.contains("Up next:"))

                // Unmarking one takes it out; the show stays on Watched until the person moves it.
                // As the episode list's buttons send it.
                _ = try await web.post("/books/\(id)/episodes", ["season": "2", "mark": "unwatch:3"])
                page = try await web.get("/books/\(id)").text
                #expect(page.contains("6 of 7 episodes watched.") && page.contains("Up next: <strong>S2E3</strong>"))
            }
        }
    }

    @Test func theHomePageOffersEachShowsNextEpisodeInOneTap() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let id = try await Self.add(web, "tvmaze", "44778", shelf: "reading")
                var home = try await web.get("/").text
                #expect(home.contains("Up next: <strong>S1E1</strong> Good News About Hell"))
                #expect(home.contains(#"action="/books/\#(id)/episodes" class="up-next""#))
                let done = try await web.post(
                    "/books/\(id)/episodes", ["season": "1", "episode": "1", "return_to": "/"])
                #expect(done.headers[.location] == "/?saved=episode-watched")
                home = try await web.get("/?saved=episode-watched").text
                #expect(home.contains("Up next: <strong>S1E2</strong> Half Loop"))
                #expect(home.contains("Marked the episode watched."))
                // Somewhere else is not a place to return to.
                let away = try await web.post(
                    "/books/\(id)/episodes", ["season": "1", "episode": "2", "return_to": "https://evil.example/"])
                #expect(away.headers[.location]?.hasPrefix("/books/\(id)") == true)
            }
        }
    }

    @Test func watchingAgainOpensANewViewingAndKeepsTheFirstsDays() async throws {
        try await FakeBooksServer.run { fake in
            let clock = TestClock()
            let app = TestApp(clock: clock, search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let id = try await Self.add(web, "tvmaze", "44778", shelf: "reading")
                // Not finished yet: "watch again" leaves the viewing as it is.
                #expect(try await web.post("/books/\(id)/read-again").headers[.location] == "/books/\(id)")
                for season in ["1", "2"] {
                    _ = try await web.post("/books/\(id)/episodes", ["season": season, "scope": "season"])
                }
                #expect(try await web.get("/books/\(id)").text.contains("Watch it again"))
                clock.advance(by: 86_400 * 2)
                let again = try await web.post("/books/\(id)/read-again")
                #expect(again.headers[.location] == "/books/\(id)?saved=watching-again#episodes")
                var page = try await web.get("/books/\(id)").text
                #expect(page.contains(#"<span class="shelf-badge">Watching</span>"#))
                #expect(page.contains("Viewing 2: 0 of 7 episodes watched.") && page.contains("Up next: <strong>S1E1"))
                _ = try await web.post("/books/\(id)/episodes", ["season": "1", "episode": "1", "scope": "one"])
                let rows = try await app.database().writer.read { db in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT v.number, v.started_on, v.finished_on, COUNT(w.episode_id), MIN(w.watched_on)
                            FROM show_viewing v LEFT JOIN episode_watch w ON w.viewing_id = v.id
                            WHERE v.book_id = ? GROUP BY v.id ORDER BY v.number
                            """, arguments: [id]
                    ).map {
                        "\($0[0] as Int) \($0[1] as String) \(($0[2] as String?) ?? "-") \($0[3] as Int) \($0[4] as String)"
                    }
                }
                #expect(rows == ["1 2026-03-15 2026-03-15 7 2026-03-15", "2 2026-03-17 - 1 2026-03-17"])
                page = try await web.get("/books/\(id)").text
                #expect(page.contains("Viewing 2: 1 of 7 episodes watched."))
            }
        }
    }

    @Test func specialsAreNeverCountedAndNonsenseOrAnotherPersonsShowIsRefused() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let id = try await Self.add(web, "tmdb", "90228")
                var page = try await web.get("/books/\(id)").text
                #expect(page.contains("Specials <span class=\"season-count\">0/2</span>"))
                _ = try await web.post("/books/\(id)/episodes", ["season": "0", "scope": "season"])
                page = try await web.get("/books/\(id)").text
                #expect(page.contains("0 of 6 episodes watched.") && page.contains("Up next: <strong>S1E1"))
                #expect(page.contains(#"<span class="shelf-badge">Want to watch</span>"#), "specials start nothing")

                for fields in [
                    ["season": "x", "episode": "1"], ["season": "1", "episode": "0"],
                    ["season": "1", "scope": "up_to"],
                    ["season": "99999", "scope": "season"], ["season": "1", "episode": "1", "scope": "sideways"],
                    ["season": "1", "mark": "sideways:1"], ["season": "1", "mark": "one:x"],
                    ["season": "1", "mark": ""],
                ] {
                    #expect(try await web.post("/books/\(id)/episodes", fields).status == .badRequest, "\(fields)")
                }
                #expect(
                    try await web.post("/books/\(id)/episodes", ["season": "1", "episode": "99"]).status == .notFound)
                #expect(
                    try await web.post("/books/\(id)/episodes", ["season": "7", "scope": "season"]).status == .notFound)
                let film = try await web.addBook(["kind": "movie", "title": "Heat"])
                #expect(
                    try await web.post("/books/\(film)/episodes", ["season": "1", "episode": "1"]).status == .notFound)

                let bob = WebSession(client)
                try await bob.register("bob")
                #expect(
                    try await bob.post("/books/\(id)/episodes", ["season": "1", "episode": "1"]).status == .notFound)
                #expect(try await bob.post("/books/\(id)/read-again").status == .notFound)
                #expect(try await Self.watches(app, id) == ["1:S0E1", "1:S0E2"])
            }
        }
    }

    @Test func aWholeLongShowIsMarkedInOneRequestAndAHugeSeasonIsPaged() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let long = try await Self.add(web, "tmdb", "999030", shelf: "reading")
                for _ in 1...2 {
                    let all = try await web.post(
                        "/books/\(long)/episodes", ["season": "30", "episode": "10", "scope": "up_to"])
                    #expect(all.status == .seeOther)
                }
                let marked = try await Self.watches(app, long)
                #expect(marked.count == 300 && Set(marked).count == 300)
                #expect(
                    try await web.get("/books/\(long)").text.contains("300 of 300 episodes watched — all caught up."))

                let soap = try await Self.add(web, "tmdb", "999015")
                var page = try await web.get("/books/\(soap)").text
                #expect(page.components(separatedBy: "<li class=\"episode").count - 1 == LibraryStore.episodesPerPage)
                #expect(page.contains("?season=1&amp;from=100#episodes") && !page.contains("Earlier episodes"))
                page = try await web.get("/books/\(soap)?season=1&from=999999").text
                #expect(
                    page.contains("S1E1000") && page.contains("Earlier episodes") && !page.contains("Later episodes"))
                page = try await web.get("/books/\(soap)?season=abc&from=-5").text
                #expect(page.contains("S1E1 ") || page.contains("S1E1<"))
            }
        }
    }

    @Test func theEdgesOfWatchingAShowFoundInReview() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                // "Up to here" among the specials marks the specials before it.
                let prophecy = try await Self.add(web, "tmdb", "90228")
                let specials = try await web.post(
                    "/books/\(prophecy)/episodes", ["season": "0", "mark": "up_to:2"])
                #expect(specials.status == .seeOther)
                #expect(try await Self.watches(app, prophecy) == ["1:S0E1", "1:S0E2"])

                // Taking an episode back from a show never watched opens no viewing.
                let long = try await Self.add(web, "tmdb", "999030")
                _ = try await web.post("/books/\(long)/episodes", ["season": "1", "mark": "unwatch:1"])
                let viewings = try await app.database().writer.read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM show_viewing WHERE book_id = ?", arguments: [long])
                }
                #expect(viewings == 0)

                // A show put on Watched by its shelf, watched again: its first pass is recorded, the new one second.
                _ = try await web.post("/books/\(long)/shelf", ["shelf": "read"])
                _ = try await web.post("/books/\(long)/read-again")
                let numbers = try await app.database().writer.read { db in
                    try Int.fetchAll(
                        db, sql: "SELECT number FROM show_viewing WHERE book_id = ? ORDER BY number", arguments: [long])
                }
                #expect(numbers == [1, 2])

                // Finished and watched again the same day: the finished pass is kept as an earlier watch.
                let severance = try await Self.add(web, "tvmaze", "44778", shelf: "reading")
                for season in ["1", "2"] {
                    _ = try await web.post("/books/\(severance)/episodes", ["season": season, "scope": "season"])
                }
                _ = try await web.post("/books/\(severance)/read-again")
                let kept = try await app.database().writer.read { db in
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM read_through JOIN user_book ON user_book.id = read_through.user_book_id
                            WHERE user_book.book_id = ?
                            """, arguments: [severance])
                }
                #expect(kept == 1)

                // An episode not aired yet, marked by a hand-made form, is never counted as watched on the page.
                _ = try await web.post("/books/\(severance)/episodes", ["season": "2", "episode": "4"])
                #expect(try await web.get("/books/\(severance)?season=2").text.contains("Viewing 2: 0 of 7 episodes"))
            }
        }
    }
}
