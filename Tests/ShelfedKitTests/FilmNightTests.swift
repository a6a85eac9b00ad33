import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Film night (issue 38): what everyone on the sofa has on Want to watch — only members who share take part; one film
/// added by two people as two rows is one film; owned copies first, then the shortest; "ends by" keeps what fits and
/// says what it left out; a hostile link is answered, never trusted.
@Suite struct FilmNightTests {
    @Test func theSofaSeesWhatEveryoneWantsOwnedFirstShortestFirstAndWhatFits() async throws {
        let clock = TestClock()  // 2026-03-15 10:00 UTC
        let app = TestApp(clock: clock)
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let carol = WebSession(client)
            try await carol.register("carol")
            for person in [alice, bob] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
            func add(_ person: WebSession, _ title: String, _ kind: String, year: String, runtime: String? = nil)
                async throws -> Int64
            {
                var fields = ["title": title, "kind": kind, "published_date": year, "shelf": "want_to_read"]
                if let runtime, kind == "movie" { fields["runtime"] = runtime }
                return try await person.addBook(fields)
            }
            let heat = try await add(alice, "Heat", "movie", year: "1995", runtime: "170")
            let up = try await add(alice, "Up", "movie", year: "2009", runtime: "96")
            _ = try await add(alice, "Alien", "movie", year: "1979")
            _ = try await add(alice, "Dune", "movie", year: "2021", runtime: "155")
            let severance = try await add(alice, "Severance", "show", year: "2022")
            _ = try await add(bob, "HEAT", "movie", year: "1995", runtime: "170")
            _ = try await add(bob, "Up", "movie", year: "2009")
            _ = try await add(bob, "Alien", "movie", year: "1979")
            _ = try await add(bob, "Severance", "show", year: "2022")
            _ = try await add(carol, "Up", "movie", year: "2009", runtime: "96")
            let db = try app.database()
            try await db.write { db in
                // Bob owns his Heat on disc; the show's episodes run 50 minutes.
                try db.execute(
                    sql:
                        "UPDATE user_book SET owned = 1 WHERE user_id = 2 AND book_id IN (SELECT id FROM book WHERE title = 'HEAT')"
                )
                try db.execute(sql: "UPDATE book SET runtime_minutes = 50 WHERE id = ?", arguments: [severance])
            }
            let night = FilmNight(db: db)
            let evening = try await night.evening(for: 1, with: [2, 3], kind: nil, fitsIn: nil)
            // Carol does not share: she is passed over. Dune is Alice's alone.
            #expect(evening.people.count == 1)
            #expect(evening.candidates.map(\.title) == ["Heat", "Severance", "Up", "Alien"])
            #expect(evening.candidates.first?.ownedInHouse == true && evening.candidates.first?.bookID == heat)
            #expect(evening.candidates.first { $0.title == "Up" }?.bookID == up)

            let short = try await night.evening(for: 1, with: [2], kind: nil, fitsIn: 120)
            #expect(short.candidates.map(\.title) == ["Severance", "Up"])
            #expect(short.tooLong == 1 && short.unknownRuntime == 1)
            let films = try await night.evening(for: 1, with: [2], kind: .movie, fitsIn: nil)
            #expect(!films.candidates.contains { $0.kind == .show })

            // The page: 10:00 now, ends by 12:00 — two hours.
            let page = try await alice.get("/film-night?with=2&with=3&until=12:00")
            #expect(page.status == .ok)
            #expect(page.text.contains("2 titles on the Want to watch of you and Bob that end in time (2 h from now)."))
            #expect(page.text.contains("1 more run longer than that; 1 have no running time yet"))
            #expect(!page.text.contains(#"name="with" value="3""#), "Carol does not share: she is not offered")
            // Hostile links: an unreadable hour is said so; thousands of ids and a book kind are answered, not trusted.
            let odd = try await alice.get("/film-night?until=99:99&kind=book&with=" + String(repeating: "9", count: 40))
            #expect(odd.status == .ok && odd.text.contains("Type the time it should end by"))
            let many = (1...5_000).map { "with=\($0)" }.joined(separator: "&")
            #expect(try await alice.get("/film-night?" + many).status == .ok)
        }
    }

    @Test func anEveningIsKeptUntilAShelfChanges() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            for person in [alice, bob] {
                _ = try await person.post("/profile/sharing", ["shares": "1"])
                for title in ["Heat", "Up"] {
                    _ = try await person.addBook([
                        "title": title, "kind": "movie", "published_date": "1995", "shelf": "want_to_read",
                    ])
                }
            }
            let db = try app.database()
            let night = FilmNight(db: db, memo: FilmNightMemo(database: db))
            let first = try await night.evening(for: 1, with: [2], kind: nil, fitsIn: nil)
            #expect(first.candidates.map(\.title) == ["Heat", "Up"])
            // A write the memo cannot see (another connection, as another process would): the kept evening answers,
            // which shows it was kept; "ends by" is worked out from it.
            let other = try app.database()
            try await other.write { db in
                try db.execute(
                    sql:
                        "UPDATE user_book SET shelf = 'read' WHERE user_id = 2 AND book_id IN (SELECT id FROM book WHERE title = 'Up')"
                )
            }
            #expect(try await night.evening(for: 1, with: [2], kind: nil, fitsIn: nil) == first)
            #expect(try await night.evening(for: 1, with: [2], kind: nil, fitsIn: 60).unknownRuntime == 2)
            // A background stamp on a title (a refresh looked at it) is not a change to the evening.
            try await db.write { db in try db.execute(sql: "UPDATE book SET provider_checked_at = '2026-01-01'") }
            #expect(try await night.evening(for: 1, with: [2], kind: nil, fitsIn: nil) == first)
            // A commit to a shelf: worked out again.
            try await db.write { db in
                try db.execute(sql: "UPDATE user_book SET shelf = shelf WHERE user_id = 2")
            }
            #expect(
                try await night.evening(for: 1, with: [2], kind: nil, fitsIn: nil).candidates.map(\.title) == ["Heat"])
            // A commit it watches (Bob's sharing, a shelf, a title): worked out again, Up gone.
            try await db.write { db in try db.execute(sql: "UPDATE user SET display_name = 'Bobby' WHERE id = 2") }
            let again = try await night.evening(for: 1, with: [2], kind: nil, fitsIn: nil)
            #expect(again.candidates.map(\.title) == ["Heat"] && again.people == ["Bobby"])
        }
    }

    @Test func timesOfDayAreReadStrictlyAndCountedToTheNextOne() {
        #expect(FilmNightController.minutesOfDay("23:00") == 1_380)
        #expect(FilmNightController.minutesOfDay("0:30") == 30)
        for bad in ["24:00", "9:5", "99:99", "12", "12:00:00", "-1:00", "１２:００"] {
            #expect(FilmNightController.minutesOfDay(bad) == nil, "\(bad)")
        }
        let utc = TimeZone(identifier: "UTC")!
        let evening = ISO8601DateFormatter().date(from: "2026-03-15T22:30:00Z")!
        #expect(FilmNightController.minutes(from: evening, until: 1_380, in: utc) == 30)
        #expect(FilmNightController.minutes(from: evening, until: 60, in: utc) == 150)
        let madrid = TimeZone(identifier: "Europe/Madrid")!
        #expect(FilmNightController.minutes(from: evening, until: 1_380, in: madrid) == 1_380 - 1_410 + 1_440)
    }
}
