import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// The review step of a large watching history (issue 38): every imported title waiting for a choice can be reached,
/// fifty a page, and a choice comes back to the page it was made on.
@Suite struct TitleMatchPagingTests {
    /// `count` imported films called "Film 001" … each with two titles that fit, owned by `userID`.
    static func seedWaiting(_ app: TestApp, count: Int, userID: Int64) async throws -> [Int64] {
        try await app.database().write { db in
            try (1...count).map { number in
                let title = String(format: "Film %03d", number)
                try db.execute(
                    sql: """
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id,
                            kind, title_match)
                        VALUES (?, '[]', '[]', 'import', '2026-01-01', '2026-01-01', ?, 'movie', 'review')
                        """, arguments: [title, userID])
                let bookID = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
                        VALUES (?, ?, 'read', 0, '2026-01-01', '2026-01-01')
                        """, arguments: [userID, bookID])
                for position in 0..<2 {
                    try db.execute(
                        sql: """
                            INSERT INTO title_candidate (book_id, position, source, provider_id, title, year)
                            VALUES (?, ?, 'wikidata', ?, ?, ?)
                            """, arguments: [bookID, position, "Q\(bookID)\(position)", title, 1990 + position])
                }
                return bookID
            }
        }
    }

    @Test func everyWaitingTitleIsReachableFiftyAPage() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("ada")
            let ids = try await Self.seedWaiting(app, count: 120, userID: 1)

            let first = try await web.get("/titles/match").text
            #expect(first.contains("1–50 of 120 titles"))
            #expect(first.contains("Film 001") && first.contains("Film 050") && !first.contains("Film 051"))
            #expect(first.contains(#"href="/titles/match?page=3""#))
            let last = try await web.get("/titles/match?page=3").text
            #expect(last.contains("101–120 of 120 titles") && last.contains("Film 120") && !last.contains("Film 100"))
            // A page past the end (a kept link) shows the last one; hostile numbers are page 1.
            #expect(try await web.get("/titles/match?page=9").text.contains("Film 120"))
            for odd in ["0", "-1", "99999999999999999999", "x"] {
                #expect(try await web.get("/titles/match?page=\(odd)").text.contains("Film 001"), "\(odd)")
            }
            // A film's own page links to the page its title waits on.
            let film = try await web.get("/books/\(ids[74])").text
            #expect(film.contains(#"/titles/match?title=\#(ids[74])#title-\#(ids[74])"#))
            let itsPage = try await web.get("/titles/match?title=\(ids[74])").text
            #expect(itsPage.contains(#"id="title-\#(ids[74])""#) && itsPage.contains("51–100 of 120 titles"))

            // A choice made on page 2 comes back to page 2; a wrong one is said beside its title there.
            let page2 = try await web.get("/titles/match?page=2").text
            #expect(page2.contains(#"name="page" value="2""#))
            let kept = try await web.post("/titles/match/\(ids[60])", ["choice": "none", "page": "2"])
            #expect(kept.headers[.location] == "/titles/match?saved=title-kept&page=2")
            let wrong = try await web.post("/titles/match/\(ids[61])", ["choice": "7", "page": "2"])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains("Choose one of the titles") && wrong.text.contains("51–100 of 119 titles"))

            // Someone else's titles are not on anyone's pages.
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.get("/titles/match?title=\(ids[0])").text.contains("Nothing to choose"))
        }
    }
}
