import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// `/profile/year/:year` (issue 24): a year's books, pages, best month, highest rated, re-reads and books put down,
/// for any year with reading; nobody else's. Today is 2026-03-15.
@Suite struct YearReviewTests {
    @Test func aYearOfReadingReadsAsAStory() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            var ids: [String: Int64] = [:]
            for (title, pages, started, finished, rating) in [
                ("Dune", "400", "2025-12-01", "2026-01-10", "5"), ("Emma", "300", "2026-01-11", "2026-01-20", "3"),
                ("Middlemarch", "880", "2026-02-01", "2026-02-10", ""),
            ] {
                let id = try await alice.addBook(["title": title, "page_count": pages, "shelf": "read"])
                _ = try await alice.post("/books/\(id)/dates", ["started_at": started, "finished_at": finished])
                if !rating.isEmpty { _ = try await alice.post("/books/\(id)/review", ["rating": rating]) }
                ids[title] = id
            }
            // Middlemarch was read once before, in 2025.
            let middlemarch = ids["Middlemarch"]!
            try await app.database().write { db in
                try db.execute(
                    sql: """
                        INSERT INTO read_through (user_book_id, started_at, finished_at)
                        SELECT id, '2025-05-01', '2025-06-01' FROM user_book WHERE book_id = ?
                        """, arguments: [middlemarch])
            }
            let ulysses = try await alice.addBook(["title": "Ulysses", "shelf": "reading"])
            _ = try await alice.post("/books/\(ulysses)/did-not-finish", ["reason": "Dublin."])

            let page = try await alice.get("/profile/year/2026")
            #expect(page.status == .ok)
            let text = page.text
            #expect(text.contains("Your 2026 in books"))
            #expect(
                text.contains("<strong>3</strong> books finished") && text.contains("<strong>1,580</strong> pages read")
            )
            #expect(text.contains("Your busiest month: <strong>January: 2 books, 700 pages</strong>."))
            #expect(text.contains("Longest: <a href=\"/books/\(ids["Middlemarch"]!)\">Middlemarch</a>"))
            let rated = try #require(text.components(separatedBy: "Highest rated</h2>").last)
            #expect(rated.range(of: ">Dune<")!.lowerBound < rated.range(of: ">Emma<")!.lowerBound)
            #expect(text.contains("1 book read again."))
            #expect(text.contains(">Ulysses</a> <span class=\"muted\">2026-03-15</span>"))
            #expect(
                text.components(separatedBy: "<ul class=\"cover-mosaic\">").last!.components(separatedBy: "</ul>")[0]
                    .components(separatedBy: "<li>").count - 1 == 3)
            #expect(text.contains(#"href="/profile/year/2025""#) && text.contains(#"aria-current="page">2026</a>"#))

            // The earlier read of Middlemarch makes 2025 a year with reading.
            let earlier = try await alice.get("/profile/year/2025").text
            #expect(earlier.contains("<strong>1</strong> book finished") && earlier.contains("Middlemarch"))
            // A book without a cover is a tile with its title, not a blank placeholder.
            #expect(earlier.contains("<span class=\"cover-tile-text\">Middlemarch</span>"))
            #expect(try await alice.get("/profile").text.contains(#"href="/profile/year/2026""#))

            // A year with nothing is a page that says so; a year that cannot be is a 404.
            #expect(try await alice.get("/profile/year/1999").text.contains("Nothing finished or put down in 1999."))
            for bad in ["0", "10000", "abc", "-1", "99999999999999999999999"] {
                #expect(try await alice.get("/profile/year/\(bad)").status == .notFound, "\(bad)")
            }
            // The same through the API.
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let json = try #require(try await api.get("/api/v1/profile/year/2026").json)
            #expect(json["books_finished"] as? Int == 3 && json["pages_read"] as? Int == 1580)
            #expect(json["rereads"] as? Int == 1)
            #expect((json["busiest_month"] as? [String: Any])?["month"] as? Int == 1)
            #expect((json["did_not_finish"] as? [[String: Any]])?.first?["title"] as? String == "Ulysses")
            #expect((json["highest_rated_ids"] as? [Int])?.first == Int(ids["Dune"]!))
            #expect(try await api.get("/api/v1/profile/year/0").status == .notFound)

            // Bob's year has none of Alice's books.
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobs = try await bob.get("/profile/year/2026").text
            #expect(bobs.contains("Nothing finished or put down in 2026.") && !bobs.contains("Dune"))
        }
    }
}
