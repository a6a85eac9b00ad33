import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// "For you" (issue 36, part 5): the header of every page counts what waits — a borrow request to answer, a book
/// recommended, an answer to one's own request, a house challenge someone set — and the page lists them; marking them
/// seen takes the count down to the requests still waiting for an answer.
@Suite struct ForYouTests {
    static func count(_ page: String) -> Int? {
        page.firstMatch(of: /<span class="for-you-count">(\d+)<\/span>/).flatMap { Int($0.1) }
    }

    @Test func theCountGoesUpWithWhatWaitsAndDownWhenSeenOrAnswered() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.post("/profile/sharing", ["shares": "1"])
            var home = try await alice.get("/").text
            #expect(Self.count(home) == nil && home.contains(#"aria-label="For you: nothing waiting""#))

            // Bob recommends a book and asks to borrow Alice's copy of another (a minute after Alice joined).
            app.clock.advance(by: 60)
            let dune = try await bob.addBook(["title": "Dune", "shelf": "read"])
            _ = try await bob.post("/books/\(dune)/recommend", ["member": "1", "note": "Spice!"])
            let lent = try await alice.addBook(["title": "Middlemarch", "shelf": "read"])
            _ = try await alice.post("/books/\(lent)/copy", ["owned": "1"])
            let entry = try await app.database().writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM user_book WHERE book_id = ?", arguments: [lent])
            }
            _ = try await bob.post("/house/copies/\(try #require(entry))/ask", [:])
            home = try await alice.get("/shelves").text
            #expect(Self.count(home) == 2)
            #expect(home.contains(#"aria-label="For you: 2 things waiting""#))

            let page = try await alice.get("/for-you").text
            #expect(page.contains("Bob asks to borrow") && page.contains("Middlemarch"))
            #expect(page.contains(#"<span class="new-badge">New</span> Bob recommends"#))
            #expect(page.contains(#"<a href="/house/books/\#(dune)">Dune</a>: “Spice!”"#))

            // Seen: the recommendation no longer counts; the request does until it is answered.
            let seen = try await alice.post("/for-you/seen", [:])
            #expect(seen.headers[.location] == "/for-you?saved=for-you-seen")
            let after = try await alice.get("/for-you?saved=for-you-seen").text
            #expect(Self.count(after) == 1 && after.contains("Marked as seen."))
            #expect(!after.contains("new-badge"), "the recommendation is still listed, no longer new")
            let requestID = try #require(after.firstMatch(of: /action="\/house\/requests\/(\d+)"/)?.1)
            let answered = try await alice.post(
                "/house/requests/\(requestID)", ["answer": "lend", "return_to": "/for-you"])
            #expect(answered.headers[.location] == "/for-you?saved=request-lent")
            #expect(Self.count(try await alice.get("/for-you").text) == nil)

            // Bob hears the answer; it counts for him until he has seen it.
            app.clock.advance(by: 60)
            let bobsPage = try await bob.get("/for-you").text
            #expect(Self.count(bobsPage) == 1 && bobsPage.contains("Alice lent you <em>Middlemarch</em>"))
            _ = try await bob.post("/for-you/seen", [:])
            #expect(Self.count(try await bob.get("/").text) == nil)

            // A house challenge Alice sets later counts for Bob, not for her.
            app.clock.advance(by: 60)
            _ = try await alice.post("/household/challenge", ["goal": "40", "measure": "books"])
            #expect(Self.count(try await bob.get("/").text) == 1)
            #expect(try await bob.get("/for-you").text.contains("Alice set the house reading challenge for 2026"))
            #expect(Self.count(try await alice.get("/").text) == nil)
        }
    }

    @Test func nothingWaitingSaysWhatWouldShowHere() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let page = try await alice.get("/for-you")
            #expect(page.status == .ok && page.text.contains("Nothing waits for you."))
            #expect(!page.text.contains("Mark all as seen"))
        }
    }

    @Test func onlyPagesAreCountedForNotTheirImagesOrTheAPI() {
        for page in ["/", "/shelves", "/books/12", "/photos/3", "/house/photos/4", "/for-you"] {
            #expect(ForYouCountMiddleware.isPage(page), "\(page)")
        }
        for other in [
            "/static/css/app.css", "/covers/ab/cd.jpg", "/photos/3/thumb", "/house/photos/4/display", "/api/v1/books",
            "/v1/search/similar",
        ] {
            #expect(!ForYouCountMiddleware.isPage(other), "\(other)")
        }
    }

    /// The count on every page reads the house's open borrow requests, not the person's whole library.
    @Test func theCountDoesNotWalkThePersonsLibrary() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("count-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: path) }
        let database = try AppDatabase(path: path.path)
        let plan = try await database.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + ForYouStore.countSQL, arguments: [1])
                .map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("SCAN borrow_request USING INDEX borrow_request_open"), "\(plan)")
        #expect(!plan.contains("SEARCH user_book USING COVERING INDEX"), "\(plan)")
        #expect(plan.contains("SEARCH user_book USING INTEGER PRIMARY KEY"), "\(plan)")
    }
}
