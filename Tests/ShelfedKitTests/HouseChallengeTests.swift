import Foundation
import HTTPTypes
import Testing

@testable import ShelfedKit

/// The house reading challenge (issue 25): the admin sets one goal for the year; every member who shares their
/// reading adds what they finished in it; someone who does not share is neither counted nor named.
@Suite struct HouseChallengeTests {
    /// Adds a book finished on `day`; its catalog id.
    private func finished(_ web: WebSession, _ title: String, pages: Int, on day: String) async throws -> Int64 {
        let book = try await web.addBook(["title": title, "page_count": "\(pages)", "shelf": "read"])
        _ = try await web.post("/books/\(book)/dates", ["started_at": "2025-01-01", "finished_at": day])
        return book
    }

    @Test func theAdminSetsAGoalAndEverySharingMemberAddsToIt() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let carol = WebSession(client)
            try await carol.register("carol")

            // Only the admin reaches the form.
            #expect(try await bob.get("/household/challenge").status == .notFound)
            #expect(try await bob.post("/household/challenge", ["goal": "5"]).status == .notFound)
            #expect(try await alice.get("/household").text.contains(#"href="/household/challenge""#))

            let refused = try await alice.post("/household/challenge", ["measure": "books", "goal": "lots"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"value="lots""#) && refused.text.contains("whole number of books"))
            #expect(
                try await alice.post("/household/challenge", ["measure": "books", "goal": "0"]).status
                    == .unprocessableContent)
            let saved = try await alice.post("/household/challenge", ["measure": "books", "goal": "3"])
            #expect(saved.headers[.location] == "/?saved=challenge#challenge-heading")

            _ = try await finished(alice, "Counted Harbour", pages: 300, on: "2026-02-01")
            _ = try await finished(alice, "Last Year's Lantern", pages: 900, on: "2025-12-31")
            _ = try await finished(bob, "Bob's Bridge", pages: 200, on: "2026-03-01")
            _ = try await finished(carol, "Carol's Quiet Book", pages: 150, on: "2026-03-02")
            for member in [alice, bob] { _ = try await member.post("/profile/sharing", ["shares": "1"]) }

            let home = try await alice.get("/").text
            #expect(home.contains("House reading challenge 2026") && home.contains("2 books of 3"))
            #expect(home.contains("<strong>You</strong>: 1 book") && home.contains("Bob: 1 book"))
            #expect(home.contains(#"href="/household/challenge""#))
            #expect(!home.contains("Carol"))
            let carolsHome = try await carol.get("/").text
            #expect(carolsHome.contains("2 books of 3") && carolsHome.contains("Your reading counts once you"))
            #expect(!carolsHome.contains(#"href="/household/challenge""#) && !carolsHome.contains("Carol: "))
            #expect(try await bob.get("/profile").text.contains("House reading challenge 2026"))

            // Carol shares: she counts, and the goal is reached.
            _ = try await carol.post("/profile/sharing", ["shares": "1"])
            #expect(try await bob.get("/").text.contains("3 books of 3 — reached!"))

            // In pages, from the same reads (last year's 900 pages never count).
            _ = try await alice.post("/household/challenge", ["measure": "pages", "goal": "1000"])
            let pages = try await bob.get("/").text
            #expect(pages.contains("650 pages of 1,000") && pages.contains("Alice: 300 pages"))

            _ = try await alice.post("/household/challenge", ["action": "remove"])
            #expect(!(try await bob.get("/").text.contains("House reading challenge")))
        }
    }
}
