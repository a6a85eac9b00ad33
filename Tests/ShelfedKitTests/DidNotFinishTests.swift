import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Did not finish (issue 24): a fourth status with the day the person stopped, where, and why; its own tab; kept out
/// of the books read and counted apart; id 4 in the Reader API after the three it always had. Today is 2026-03-15.
@Suite struct DidNotFinishTests {
    @Test func aBookPutDownKeepsWhenWhereAndWhyAndLeavesTheReadCount() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Ulysses", "page_count": "730", "shelf": "reading"])
            _ = try await alice.post("/books/\(book)/progress", ["page": "212", "read_on": "2026-03-14"])
            let moved = try await alice.post("/books/\(book)/shelf", ["shelf": "did_not_finish"])
            #expect(moved.status == .seeOther)

            let tab = try await alice.get("/shelves/did-not-finish")
            #expect(tab.status == .ok && tab.text.contains("Ulysses"))
            #expect(tab.text.contains(#"href="/shelves/did-not-finish""#))
            // Its card says where it was put down.
            #expect(tab.text.contains("<span>Stopped 2026-03-15 at page 212</span>"))
            #expect(!(try await alice.get("/shelves/reading").text.contains("Ulysses")))
            var page = try await alice.get("/books/\(book)").text
            #expect(page.contains(#"<span class="shelf-line">stopped today at page 212 of 730</span>"#))
            #expect(page.contains(#"action="/books/\#(book)/did-not-finish""#))

            // The reason: kept; too long or with control characters, refused with the text kept.
            let long = String(repeating: "dull ", count: 401)
            let refused = try await alice.post("/books/\(book)/did-not-finish", ["reason": long])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Keep the reason to 2,000 characters") && refused.text.contains("dull dull"))
            #expect(try await alice.post("/books/\(book)/did-not-finish", ["reason": "a\u{7}b"]).status.code == 422)
            let saved = try await alice.post("/books/\(book)/did-not-finish", ["reason": "Too many pages on Dublin."])
            #expect(saved.headers[.location] == "/books/\(book)?saved=stop#stopped-heading")
            page = try await alice.get("/books/\(book)?saved=stop").text
            #expect(page.contains(">Too many pages on Dublin.</textarea>"))

            // Kept out of the books read, counted on its own.
            let profile = try await alice.get("/profile").text
            #expect(profile.contains(#"<strong>1</strong> Did not finish"#))
            #expect(profile.contains(#"<strong>0</strong> Read"#))

            // Another person's book, and an unknown one, are 404s.
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/books/\(book)/did-not-finish", ["reason": "x"]).status == .notFound)
            #expect(try await alice.post("/books/999999/did-not-finish", [:]).status == .notFound)

            // Picked up again: back on Reading, the day and reason forgotten, the page kept.
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "reading"])
            let entry = try await app.database().read { db in
                try UserBook.filter(Column("book_id") == book).fetchOne(db)
            }
            #expect(entry?.shelf == .reading && entry?.stoppedAt == nil && entry?.stopReason == nil)
            #expect(entry?.currentPage == 212 && entry?.startedAt != nil)
            #expect(!(try await alice.get("/shelves/reading").text.contains("Stopped")))
        }
    }

    @Test func givingUpAReReadKeepsTheFinishedReadAndTheDirectPostMovesTheBook() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Middlemarch", "shelf": "read"])
            // Finished on the 1st, then a re-read given up straight from the reason form.
            _ = try await alice.post("/books/\(book)/dates", ["started_at": "2026-02-01", "finished_at": "2026-03-01"])
            _ = try await alice.post("/books/\(book)/read-again")
            _ = try await alice.post("/books/\(book)/did-not-finish", ["reason": "Not this year."])
            let (entry, reads) = try await app.database().read { db in
                (
                    try UserBook.filter(Column("book_id") == book).fetchOne(db),
                    try String?.fetchAll(db, sql: "SELECT finished_at FROM read_through")
                )
            }
            #expect(entry?.shelf == .didNotFinish && entry?.stopReason == "Not this year.")
            #expect(entry?.stoppedAt == "2026-03-15" && entry?.finishedAt == nil)
            #expect(reads.contains("2026-03-01"))
            #expect(try await alice.get("/profile").text.contains(#"<strong>0</strong> Read"#))

            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "reading"])
            let back = try await app.database().read { db in
                try UserBook.filter(Column("book_id") == book).fetchOne(db)
            }
            #expect(back?.shelf == .reading && back?.stoppedAt == nil && back?.stopReason == nil)
        }
    }

    @Test func theReaderAPIListsItAsShelfFourAndAClientThatKnowsThreeStillDecodes() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Gravity's Rainbow", "shelf": "reading"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let patched = try await api.send(.patch, "/api/v1/books/\(book)", json: ["shelf_id": 4])
            #expect(patched.status == .ok)
            let detail = try #require(try await api.get("/api/v1/books/\(book)").json?["book"] as? [String: Any])
            #expect(detail["shelf_id"] as? Int == 4 && detail["shelf_name"] as? String == "Did Not Finish")
            let shelf = try await api.get("/api/v1/shelves/4")
            #expect((shelf.json?["books"] as? [[String: Any]])?.count == 1)

            // The Reader app's own decoding: ids as numbers, names as text; a fourth entry is just one more row.
            struct ReaderShelves: Decodable {
                struct Entry: Decodable {
                    let id: Int
                    let name: String
                    let bookCount: Int

                    enum CodingKeys: String, CodingKey {
                        case id, name
                        case bookCount = "book_count"
                    }
                }
                let user: String
                let shelves: [Entry]
            }
            let listed = try await api.get("/api/v1/shelves")
            let decoded = try JSONDecoder().decode(ReaderShelves.self, from: Data(buffer: listed.body))
            #expect(decoded.shelves.prefix(3).map(\.id) == [1, 2, 3])
            #expect(decoded.shelves.last?.id == 4 && decoded.shelves.last?.bookCount == 1)
            #expect(try await api.send(.patch, "/api/v1/books/\(book)", json: ["shelf_id": 5]).status.code >= 400)
        }
    }

    @Test func theAPIPutsABookDownWithAReasonAndTheProfileCountsIt() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Ulysses", "page_count": "730", "shelf": "reading"])
            _ = try await web.post("/books/\(book)/progress", ["page": "212", "read_on": "2026-03-14"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let stopped = try await api.send(
                .post, "/api/v1/books/\(book)/did-not-finish", json: ["reason": "Lost in Dublin."])
            #expect(stopped.status == .ok)
            #expect(stopped.json?["stopped_at"] as? String == "2026-03-15" && stopped.json?["page"] as? Int == 212)
            #expect(stopped.json?["reason"] as? String == "Lost in Dublin.")
            let refused = try await api.send(
                .post, "/api/v1/books/\(book)/did-not-finish", json: ["reason": String(repeating: "x", count: 2_001)])
            #expect(refused.status == .unprocessableContent)
            let counts = try await api.get("/api/v1/profile").json?["counts"] as? [String: Any]
            #expect(counts?["did_not_finish"] as? Int == 1 && counts?["reading"] as? Int == 0)

            let bob = WebSession(client)
            try await bob.register("bob")
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            #expect(try await bobAPI.send(.post, "/api/v1/books/\(book)/did-not-finish", json: [:]).status == .notFound)
        }
    }

    @Test func theShelfTableIsRebuiltKeepingEveryRowIdAndTrigger() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("dnf-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v16 series")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO user (username, email, display_name, password_hash, created_at)
                        VALUES ('ada', 'ada@example.com', 'Ada', 'x', '2024-01-01 00:00:00');
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id)
                        VALUES ('Dune', '["Frank Herbert"]', '[]', 'manual', '2024-01-01', '2024-01-01', 1),
                            ('Emma', '["Jane Austen"]', '[]', 'manual', '2024-01-01', '2024-01-01', 1);
                        INSERT INTO user_book (id, user_id, book_id, shelf, favourite, review, added_at, updated_at)
                        VALUES (7, 1, 1, 'reading', 0, 'spice everywhere', '2024-01-01', '2024-01-01');
                        INSERT INTO journal_entry (user_book_id, read_on, page, created_at)
                        VALUES (7, '2024-01-02', 40, '2024-01-02');
                        INSERT INTO read_through (user_book_id, started_at, finished_at) VALUES (7, '2020-01-01', '2020-02-01');
                        """)
            }
        }
        let database = try AppDatabase(path: path)
        try database.writer.write { db in
            #expect(try UserBook.fetchOne(db, key: 7)?.shelf == .reading)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal_entry WHERE user_book_id = 7") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM read_through WHERE user_book_id = 7") == 1)
            #expect(try db.indexes(on: "user_book").count >= 4)
            // Search my library's triggers work on the rebuilt table: a review change and a new entry reach it.
            try db.execute(sql: "UPDATE user_book SET shelf = 'did_not_finish', review = 'sandworms' WHERE id = 7")
            try db.execute(
                sql: """
                    INSERT INTO user_book (user_id, book_id, shelf, favourite, added_at, updated_at)
                    VALUES (1, 2, 'did_not_finish', 0, '2024-01-01', '2024-01-01')
                    """)
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM library_fts WHERE library_fts MATCH 'sandworms'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM library_fts WHERE library_fts MATCH 'austen'") == 1)
            // Anything else is still refused, and deleting an entry still takes its journal with it.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE user_book SET shelf = 'abandoned' WHERE id = 7")
            }
            try db.execute(sql: "DELETE FROM user_book WHERE id = 7")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM journal_entry") == 0)
        }
    }
}

/// Imports put StoryGraph's and Goodreads' did-not-finish books on Did not finish by default (issue 24).
extension ImportJobTests {
    @Test func storyGraphsDidNotFinishIsTheFourthStatusWithTheDayItWasPutDown() async throws {
        let me = try await user("ada")
        let job = try await startImport("storygraph_export.csv", for: me)
        try await runner().runUntilIdle()
        #expect(try await store.job(id: job.id, of: me)?.status == .completed)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE shelf = 'did_not_finish'") == 2)
        let archive = try await db.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT user_book.id, user_book.stopped_at, user_book.finished_at FROM user_book
                    JOIN book ON book.id = user_book.book_id WHERE book.title = 'The Secret Archive'
                    """
            ).map { row -> [String?] in [String(row["id"] as Int64), row["stopped_at"], row["finished_at"]] }
        }
        let entryID = try #require(archive?[0].flatMap { Int64($0) })
        #expect(archive?[1] == "2021-07-11" && archive?[2] == nil)
        // The read it was put down in is not a finished read: nothing counts it as read.
        #expect(
            try await count(
                "SELECT COUNT(*) FROM read_through WHERE user_book_id = ? AND finished_at IS NOT NULL", [entryID]) == 0)
        #expect(try await count("SELECT COUNT(*) FROM list WHERE name = 'did-not-finish'") == 0)
    }

    @Test func goodreadsDidNotFinishShelfIsTheFourthStatusAndExportsBack() async throws {
        let me = try await user("ada")
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves
            1,Ulysses,James Joyce,,,0,did-not-finish,did-not-finish
            2,Emma,Jane Austen,,,4,read,read
            """#
        let file = directory.appendingPathComponent("dnf.csv")
        try Data(csv.utf8).write(to: file)
        let staged = try await store.stage(upload: file, fileName: "dnf.csv", userID: me, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: me, existing: .update, shelfMapping: [:])
        try await runner().runUntilIdle()
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE shelf = 'did_not_finish'") == 1)
        let export = try await GoodreadsExport(db: db).csv(of: me)
        #expect(export.contains("Ulysses") && export.contains("did-not-finish"))
    }
}
