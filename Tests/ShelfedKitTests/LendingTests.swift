import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Lending and the house library (issue 25): a copy lent to a member who shares or to anyone by name, with a day and
/// a due day; returned; overdue loans on the lender's home; borrowed books on the borrower's; the house library of
/// every owned copy of the members who share. Loans outlive a removed borrower as loans to a name.
@Suite struct LendingTests {
    @Test func aCopyIsLentReturnedAndListedInTheHouseLibrary() async throws {
        let clock = TestClock()
        let app = TestApp(clock: clock)
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            for person in [alice, bob] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
            let dune = try await alice.addBook(["title": "Dune"])
            _ = try await alice.post("/books/\(dune)/copy", ["owned": "1", "location": "Living room, top shelf"])
            #expect(try await alice.get("/books/\(dune)").text.contains(#"value="Living room, top shelf""#))

            // Refused: nobody named, a due day before the lending day, a lending day still to come.
            #expect(try await alice.post("/books/\(dune)/lend", [:]).status == .unprocessableContent)
            let early = try await alice.post(
                "/books/\(dune)/lend", ["name": "Sam", "lent_on": "2026-03-10", "due_on": "2026-03-01"])
            #expect(early.status == .unprocessableContent && early.text.contains(#"value="Sam""#))
            #expect(
                try await alice.post("/books/\(dune)/lend", ["name": "Sam", "lent_on": "2026-04-01"]).status
                    == .unprocessableContent)

            // Lent to Bob, a member who shares.
            let bobID = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'bob'")
                })
            let lent = try await alice.post(
                "/books/\(dune)/lend", ["member": "\(bobID)", "lent_on": "2026-03-03", "due_on": "2026-03-10"])
            #expect(lent.headers[.location] == "/books/\(dune)?saved=lent#copy-heading")
            #expect(
                try await alice.get("/books/\(dune)").text.contains(
                    "On loan to Bob since 2026-03-03, due back 2026-03-10."))
            #expect(try await alice.post("/books/\(dune)/lend", ["name": "Eve"]).status == .unprocessableContent)
            #expect(try await bob.get("/").text.contains("from Alice since 2026-03-03, due back 2026-03-10"))
            // Today is 2026-03-15: overdue on Alice's home.
            #expect(try await alice.get("/").text.contains("Overdue loans"))

            let house = try await bob.get("/house").text
            #expect(
                house.contains("Dune") && house.contains("Living room, top shelf") && house.contains("On loan to Bob"))
            #expect(!(try await bob.get("/house?available=1").text.contains("Dune")))

            let back = try await alice.post("/books/\(dune)/returned")
            #expect(back.headers[.location] == "/books/\(dune)?saved=returned#copy-heading")
            #expect(!(try await alice.get("/").text.contains("Overdue loans")))
            #expect(try await bob.get("/house?available=1").text.contains("Dune"))
            #expect(!(try await bob.get("/").text.contains("from Alice since")))

            // Lent to someone outside the house, by name.
            _ = try await alice.post("/books/\(dune)/lend", ["name": "Sam next door"])
            #expect(try await alice.get("/books/\(dune)").text.contains("On loan to Sam next door since 2026-03-15."))

            // Alice stops sharing: her copies leave Bob's house library; Bob can no longer pick her as borrower.
            _ = try await alice.post("/profile/sharing", [:])
            #expect(!(try await bob.get("/house").text.contains("Dune")))
            let bobsBook = try await bob.addBook(["title": "Emma"])
            let aliceID: Int64 = 1
            #expect(
                try await bob.post("/books/\(bobsBook)/lend", ["member": "\(aliceID)"]).status == .unprocessableContent)
            #expect(try await bob.get("/house?owner=\(aliceID)").text.contains("No copies match."))
        }
    }

    @Test func aRemovedBorrowerLeavesALoanToANameAndARemovedLenderNoLoanAtAll() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await bob.post("/profile/sharing", ["shares": "1"])
            let dune = try await alice.addBook(["title": "Dune"])
            _ = try await alice.post("/books/\(dune)/lend", ["member": "2"])
            let emma = try await bob.addBook(["title": "Emma"])
            _ = try await bob.post("/books/\(emma)/lend", ["name": "Alice"])

            _ = try await alice.post("/household/members/2/remove", ["confirm_username": "bob"])
            let loans = try await app.database().read { db in
                try Row.fetchAll(db, sql: "SELECT borrower_user_id, borrower_name FROM loan")
                    .map { LoanRow(borrowerID: $0[0], name: $0[1]) }
            }
            #expect(loans == [LoanRow(borrowerID: nil, name: "Bob")])
            #expect(try await alice.get("/books/\(dune)").text.contains("On loan to Bob since"))
        }
    }

    @Test func aMemberAsksToBorrowAndTheOwnerLendsOrDeclines() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let dune = try await alice.addBook(["title": "Dune", "isbn": "9780441013593"])
            _ = try await alice.post("/books/\(dune)/copy", ["owned": "1"])
            let bobsDune = try await bob.addBook(["title": "Dune (Bob's want)", "isbn": "9780441013593"])
            let aliceEntry = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM user_book WHERE user_id = 1")
                })
            // Alice does not share: nothing to ask for, and asking anyway is a 404.
            #expect(!(try await bob.get("/books/\(bobsDune)").text.contains("Ask to borrow")))
            #expect(try await bob.post("/house/copies/\(aliceEntry)/ask").status == .notFound)

            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            _ = try await bob.post("/profile/sharing", ["shares": "1"])
            let page = try await bob.get("/books/\(bobsDune)").text
            #expect(page.contains(#"action="/house/copies/\#(aliceEntry)/ask""#))
            let asked = try await bob.post("/house/copies/\(aliceEntry)/ask", ["return_to": "/books/\(bobsDune)"])
            #expect(asked.headers[.location] == "/books/\(bobsDune)?saved=asked#house-heading")
            _ = try await bob.post("/house/copies/\(aliceEntry)/ask")  // twice is one request
            #expect(try await bob.get("/").text.contains("asked of Alice, waiting for an answer"))
            // Nobody can ask for their own copy.
            #expect(try await alice.post("/house/copies/\(aliceEntry)/ask").status == .notFound)

            let home = try await alice.get("/").text
            #expect(home.contains("<strong>Bob</strong> asks to borrow"))
            let requestID = try #require(
                try await app.database().read { db in
                    try Int64.fetchAll(db, sql: "SELECT id FROM borrow_request")
                })
            #expect(requestID.count == 1)
            // Only the owner answers.
            #expect(try await bob.post("/house/requests/\(requestID[0])", ["answer": "lend"]).status == .notFound)
            #expect(try await alice.post("/house/requests/\(requestID[0])", ["answer": "maybe"]).status == .badRequest)
            let lent = try await alice.post("/house/requests/\(requestID[0])", ["answer": "lend"])
            #expect(lent.headers[.location] == "/?saved=request-lent")
            #expect(try await alice.get("/books/\(dune)").text.contains("On loan to Bob since 2026-03-15."))
            #expect(try await bob.get("/").text.contains("from Alice since 2026-03-15"))
            #expect(try await alice.post("/house/requests/\(requestID[0])", ["answer": "decline"]).status == .notFound)
            // Out on loan: nothing more to ask for until it is back.
            #expect(!(try await bob.get("/books/\(bobsDune)").text.contains("Ask to borrow")))
            _ = try await alice.post("/books/\(dune)/returned")
            _ = try await bob.post("/house/copies/\(aliceEntry)/ask")
            let second = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM borrow_request")
                })
            #expect(
                try await alice.post("/house/requests/\(second)", ["answer": "decline"]).headers[.location]
                    == "/?saved=request-declined")
            #expect(!(try await alice.get("/").text.contains("asks to borrow")))
        }
    }

    @Test func aBookRecommendedToAMemberWaitsOnTheirHomeUntilDismissed() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let dune = try await alice.addBook(["title": "Dune", "isbn": "9780441013593"])
            // Bob does not share, and may still be recommended a book (issue 35): anyone in the house may receive one.
            #expect(try await alice.get("/books/\(dune)").text.contains(#"<option value="2">Bob</option>"#))
            let sent = try await alice.post(
                "/books/\(dune)/recommend", ["member": "2", "note": "The spice must flow."])
            #expect(sent.headers[.location] == "/books/\(dune)?saved=recommended#house-heading")
            #expect(
                try await alice.post("/books/\(dune)/recommend", ["member": "2", "note": "x\u{7}"]).status
                    == .unprocessableContent)
            #expect(try await alice.post("/books/\(dune)/recommend", ["member": "1"]).status == .notFound)
            var home = try await bob.get("/").text
            #expect(home.contains("<strong>Alice</strong> recommends") && home.contains("“The spice must flow.”"))
            // It opens the book in Shelfed (issue 36), not a book search.
            #expect(home.contains(#"href="/house/books/\#(dune)">Dune</a>"#))
            // Once Bob has the book, the recommendation opens his own page for it.
            let bobsDune = try await bob.addBook(["title": "Dune", "isbn": "9780441013593"])
            home = try await bob.get("/").text
            #expect(home.contains(#"href="/books/\#(bobsDune)">Dune</a>: “The spice"#))
            let id = try #require(
                try await app.database().read { db in try Int64.fetchOne(db, sql: "SELECT id FROM recommendation") })
            #expect(try await alice.post("/recommendations/\(id)/dismiss").status == .notFound)
            #expect(try await bob.post("/recommendations/\(id)/dismiss").status == .seeOther)
            #expect(!(try await bob.get("/").text.contains("recommends")))
        }
    }

    @Test func requestsAndRecommendationsEndCleanlyWhenSomeoneStopsSharingOrIsRemoved() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            for person in [alice, bob] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
            let dune = try await alice.addBook(["title": "Dune"])
            _ = try await alice.post("/books/\(dune)/copy", ["owned": "1"])
            let entry = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM user_book WHERE user_id = 1")
                })
            _ = try await bob.post("/house/copies/\(entry)/ask")
            _ = try await alice.post("/books/\(dune)/recommend", ["member": "2", "note": "Read it"])
            #expect(try await alice.get("/").text.contains("asks to borrow"))
            // Alice stops sharing for a while: Bob's waiting request no longer names her.
            _ = try await alice.post("/profile/sharing", [:])
            #expect(!(try await bob.get("/").text.contains("asked of Alice")))
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            #expect(try await bob.get("/").text.contains("asked of Alice"))

            // Bob stops sharing: his request no longer reaches Alice, and nobody can ask him; a book may still be
            // recommended to him (issue 35).
            _ = try await bob.post("/profile/sharing", [:])
            #expect(!(try await alice.get("/").text.contains("asks to borrow")))
            #expect(try await alice.post("/books/\(dune)/recommend", ["member": "2"]).status == .seeOther)

            // Bob is removed: his request and what was recommended to him go with him; nothing is left pointing at him.
            _ = try await alice.post("/household/members/2/remove", ["confirm_username": "bob"])
            let left = try await app.database().read { db in
                [
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM borrow_request") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM recommendation") ?? -1,
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM loan WHERE borrower_user_id = 2") ?? -1,
                ]
            }
            #expect(left == [0, 0, 0])
            #expect(try await alice.get("/").status == .ok)
            #expect(try await alice.get("/house").status == .ok)
        }
    }

    @Test func theHouseholdAPIShowsOnlyWhoShares() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let book = try await bob.addBook(["title": "Bob's reading", "shelf": "reading"])
            _ = try await bob.post("/books/\(book)/progress", ["page": "10"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            var members = try await api.get("/api/v1/household/members").json?["members"] as? [[String: Any]]
            #expect(members?.map { $0["display_name"] as? String } == ["Alice"])
            #expect((try await api.get("/api/v1/household/feed").json?["items"] as? [Any])?.isEmpty == true)

            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            let on = try await bobAPI.send(.put, "/api/v1/household/sharing", json: ["shares": true])
            #expect(on.status == .ok && on.json?["shares"] as? Bool == true)
            members = try await api.get("/api/v1/household/members").json?["members"] as? [[String: Any]]
            #expect(members?.map { $0["display_name"] as? String } == ["Alice", "Bob"])
            let items = try await api.get("/api/v1/household/feed").json?["items"] as? [[String: Any]]
            // One line a book a day (issue 36): the day he started it says it; his update that day is not repeated.
            #expect(
                items?.contains { $0["title"] as? String == "Bob's reading" && $0["kind"] as? String == "started" }
                    == true)
            #expect(items?.contains { $0["kind"] as? String == "progress" } == false)
            #expect(try await api.get("/api/v1/household/feed?page=0").status == .badRequest)
            #expect(
                try await bobAPI.send(.put, "/api/v1/household/sharing", json: ["shares": "yes"]).status == .badRequest)
            _ = try await bobAPI.send(.put, "/api/v1/household/sharing", json: ["shares": false])
            #expect((try await api.get("/api/v1/household/feed").json?["items"] as? [Any])?.isEmpty == true)
        }
    }

    struct LoanRow: Sendable, Equatable {
        let borrowerID: Int64?
        let name: String
    }

    /// The house library's page walks the catalog by title and finds each book's copies by index: sorting every copy
    /// in the house per page made it the slowest page of a large house.
    @Test func theHouseLibraryWalksTitlesInsteadOfSortingEveryCopy() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("house-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: path) }
        let database = try AppDatabase(path: path.path)
        let plan = try await database.writer.read { db in
            try Row.fetchAll(
                db,
                sql: "EXPLAIN QUERY PLAN "
                    + LoanStore.houseLibrarySQL(
                        where: "user_book.owned = 1 AND (user.id = 1 OR user.shares_reading = 1)"),
                arguments: ["limit": 60, "offset": 0]
            ).map { $0["detail"] as String }.joined(separator: "\n")
        }
        #expect(plan.contains("SCAN book USING") && plan.contains("INDEX book_by_title"), "\(plan)")
        #expect(plan.contains("user_book_owned"), "\(plan)")
        #expect(!plan.contains("USE TEMP B-TREE FOR ORDER BY"), "\(plan)")
    }
}
