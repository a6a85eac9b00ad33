import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// "Watched together" (issue 38): telling housemates from a film's or show's page, their yes (the title on their shelf
/// with the same day) or no (nothing written), the house feed's "Alice and Bob watched", and the together / only me
/// filter. Nothing reaches another person's shelf without their yes; every id that is not theirs is a 404.
@Suite struct WatchedTogetherTests {
    static func entries(_ app: TestApp, _ userID: Int64) async throws -> [String] {
        try await app.database().read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT book.title, user_book.shelf, user_book.finished_at, book.owner_user_id
                    FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?
                    ORDER BY book.title
                    """, arguments: [userID]
            ).map { "\($0[0] as String) \($0[1] as String) \(($0[2] as String?) ?? "-") \(($0[3] as Int64?) ?? 0)" }
        }
    }

    @Test func aFilmToldIsOnTheirShelfOnlyAfterTheirYes() async throws {
        let app = TestApp()  // 2026-03-15 10:00
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let carol = WebSession(client)
            try await carol.register("carol")
            for person in [alice, bob] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
            let heat = try await alice.addBook(
                ["title": "Heat", "kind": "movie", "published_date": "1995", "shelf": "want_to_read"])
            // Not watched yet: nothing to tell.
            #expect(!(try await alice.get("/books/\(heat)").text.contains("Watched it with someone?")))
            _ = try await alice.post("/books/\(heat)/shelf", ["shelf": "read"])
            // Watched, day unknown: nothing to tell of yet.
            #expect(!(try await alice.get("/books/\(heat)").text.contains("Watched it with someone?")))
            _ = try await alice.post("/books/\(heat)/dates", ["started_at": "", "finished_at": "2026-03-15"])
            let page = try await alice.get("/books/\(heat)").text
            #expect(page.contains("Watched it with someone?") && page.contains(#"<option value="2026-03-15">today"#))
            #expect(page.contains(#"name="member" value="2""#) && page.contains(#"name="member" value="3""#))

            // Refused: nobody ticked, a day without a viewing; someone not in the house, or herself.
            let none = try await alice.post("/books/\(heat)/together", pairs: [("day", "2026-03-15")])
            #expect(none.status == .unprocessableContent && none.text.contains("Tick who you watched it with."))
            let otherDay = try await alice.post(
                "/books/\(heat)/together", pairs: [("member", "2"), ("day", "2026-03-01")])
            #expect(otherDay.status == .unprocessableContent && otherDay.text.contains("You watched nothing of it"))
            for member in ["1", "99", "x"] {
                let refused = try await alice.post(
                    "/books/\(heat)/together", pairs: [("member", member), ("day", "2026-03-15")])
                #expect(refused.status == .notFound || refused.status == .unprocessableContent, "\(member)")
            }
            // Someone else's film: 404.
            #expect(
                try await bob.post("/books/\(heat)/together", pairs: [("member", "1"), ("day", "2026-03-15")]).status
                    == .notFound)
            let told = try await alice.post(
                "/books/\(heat)/together", pairs: [("member", "2"), ("member", "3"), ("day", "2026-03-15")])
            #expect(told.status == .seeOther && told.headers[.location]?.contains("saved=together-told") == true)
            #expect(try await Self.entries(app, 2).isEmpty)
            #expect(try await Self.entries(app, 3).isEmpty)
            let toldPage = try await alice.get("/books/\(heat)").text
            #expect(toldPage.contains("With Bob, today: waiting for their answer."))

            // Bob's For you: counted in the header, answered there.
            let forYou = try await bob.get("/for-you").text
            #expect(forYou.contains("Alice watched <em>Heat</em> with you, today."), "not on Bob's shelf: no link")
            let offer = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM watched_together WHERE to_user = 2")
                })
            // Carol cannot answer Bob's; an answer that is neither is a 400.
            #expect(try await carol.post("/together/\(offer)", ["answer": "yes"]).status == .notFound)
            #expect(try await bob.post("/together/\(offer)", ["answer": "maybe"]).status == .badRequest)
            let yes = try await bob.post("/together/\(offer)", ["answer": "yes", "return_to": "/for-you"])
            #expect(yes.status == .seeOther && yes.headers[.location]?.contains("saved=together-added") == true)
            // A copy of Alice's own row, Bob's own, on Watched that day.
            #expect(try await Self.entries(app, 2) == ["Heat read 2026-03-15 2"])
            #expect(try await bob.post("/together/\(offer)", ["answer": "yes"]).status == .notFound)
            let bobsID = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT book_id FROM user_book WHERE user_id = 2")
                })
            #expect(try await bob.get("/books/\(bobsID)").text.contains("With Alice, today."))

            // Carol says no: nothing on her shelf, and Alice's page says so.
            let carolsOffer = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM watched_together WHERE to_user = 3")
                })
            #expect(try await carol.post("/together/\(carolsOffer)", ["answer": "no"]).status == .seeOther)
            #expect(try await Self.entries(app, 3).isEmpty)
            let answered = try await alice.get("/books/\(heat)").text
            #expect(answered.contains("With Bob, today: on their shelf too."))
            #expect(answered.contains("With Carol, today: they said it was not them."))
            #expect(!(try await carol.get("/for-you").text.contains("Heat")))

            // The feed, for Carol: one line for the two of them, without a rating (theirs may differ).
            _ = try await alice.post("/books/\(heat)/rating", ["rating": "4"])
            let feed = HouseFeedEpisodeTests.lines(try await carol.get("/house/feed").text)
            #expect(feed.contains("today Alice and Bob watched Heat"), "\(feed)")
            #expect(!feed.contains { $0.contains("Alice watched Heat") })
            // The API keeps each person's line, as its clients have always read it.
            var api = APIClient(client)
            try await api.signIn("carol@example.com")
            let items = try #require(try await api.get("/api/v1/household/feed").json?["items"] as? [[String: Any]])
            #expect(items.filter { $0["title"] as? String == "Heat" }.count == 2)

            // Filters: watched together, and only me.
            let dune = try await alice.addBook(
                ["title": "Dune", "kind": "movie", "published_date": "2021", "shelf": "want_to_read"])
            _ = try await alice.post("/books/\(dune)/shelf", ["shelf": "read"])
            let together = try await alice.get("/shelves/read?together=1").text
            #expect(together.contains("Heat") && !together.contains("Dune") && together.contains("Watched together"))
            let alone = try await alice.get("/shelves/read?together=0").text
            #expect(alone.contains("Dune") && !alone.contains(">Heat<"))
            #expect(try await bob.get("/shelves/read?together=1").text.contains("Heat"))
        }
    }

    @Test func aShowsEpisodesOfTheDayGoToTheirOpenViewing() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())  // 2026-03-15, 10:00
            try await app.run { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                let bob = WebSession(client)
                try await bob.register("bob")
                let carol = WebSession(client)
                try await carol.register("carol")
                for person in [alice, bob] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
                let show = try await ShowEpisodeTests.add(alice, "tvmaze", "44778")
                let bobsShow = try await ShowEpisodeTests.add(bob, "tvmaze", "44778")
                #expect(show == bobsShow, "a provider's show is one shared row")
                for person in [alice, bob] {
                    _ = try await person.post(
                        "/books/\(show)/episodes", ["season": "1", "episode": "1", "scope": "one"])
                }
                app.clock.advance(by: 86_400)
                _ = try await alice.post("/books/\(show)/episodes", ["season": "1", "mark": "up_to:3"])
                // Marked: the page opens "Watched it with someone?" on the day just watched.
                let marked = try await alice.get("/books/\(show)?saved=episodes-up-to").text
                #expect(marked.contains(#"<details class="together" id="together" open>"#))
                #expect(marked.contains(#"<option value="2026-03-16">today"#))
                let told = try await alice.post(
                    "/books/\(show)/together", pairs: [("member", "2"), ("day", "2026-03-16")])
                #expect(told.status == .seeOther, "\(told.text)")
                #expect(try await bob.get("/for-you").text.contains("Alice watched 2 episodes (up to S1E3) of"))
                #expect(try await ShowEpisodeTests.watches(app, show).filter { $0.hasPrefix("1:") }.count == 4)
                let offer = try #require(
                    try await app.database().read { db in
                        try Int64.fetchOne(db, sql: "SELECT id FROM watched_together WHERE to_user = 2")
                    })
                _ = try await bob.post("/together/\(offer)", ["answer": "yes"])
                let bobs = try await app.database().read { db in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT e.season, e.number, w.watched_on FROM episode_watch w
                            JOIN show_viewing v ON v.id = w.viewing_id JOIN episode e ON e.id = w.episode_id
                            WHERE v.user_id = 2 ORDER BY e.season, e.number
                            """
                    ).map { "S\($0[0] as Int)E\($0[1] as Int) \($0[2] as String)" }
                }
                #expect(bobs == ["S1E1 2026-03-15", "S1E2 2026-03-16", "S1E3 2026-03-16"])
                let feed = HouseFeedEpisodeTests.lines(try await carol.get("/house/feed").text)
                #expect(feed.first == "today Alice and Bob watched 2 episodes of Severance, up to S1E3", "\(feed)")
            }
        }
    }
}
