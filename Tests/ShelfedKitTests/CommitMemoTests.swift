import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Answers kept between requests (`CommitMemo`, issue 36): kept until a commit of this server's touches what they were
/// made from, or their lifetime runs out; never kept when the database changed while they were being worked out.
struct CommitMemoTests {
    @Test func anAnswerLastsUntilACommitToWhatItTracksOrItsLifetime() async throws {
        let app = TestApp()
        try await app.run { _ in
            let db = try app.database()
            try await db.write { db in
                try db.execute(sql: "CREATE TABLE tracked (n INTEGER); CREATE TABLE other (n INTEGER)")
            }
            let memo = CommitMemo<String, Int>(
                database: db, tracking: [Table("tracked")], capacity: 2, lifetime: .seconds(3600))

            var made = 0
            let make = { () async -> Int in
                made += 1
                return made
            }
            #expect(await memo.answer(for: "a", make) == 1)
            #expect(await memo.answer(for: "a", make) == 1, "kept")
            // A commit elsewhere changes nothing; one to the tracked table forgets.
            try await db.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
            #expect(await memo.answer(for: "a", make) == 1)
            try await db.write { db in try db.execute(sql: "INSERT INTO tracked VALUES (1)") }
            #expect(await memo.answer(for: "a", make) == 2)

            // Worked out while a commit landed: given, not kept.
            let before = memo.generation()
            try await db.write { db in try db.execute(sql: "INSERT INTO tracked VALUES (2)") }
            memo.keep(99, for: "b", generation: before)
            #expect(memo.value(for: "b", generation: memo.generation()) == nil)

            // Past its capacity the oldest answer makes room.
            #expect(await memo.answer(for: "b", make) == 3)
            #expect(await memo.answer(for: "c", make) == 4)
            #expect(await memo.answer(for: "a", make) == 5, "a was the oldest")
            // No answer outlives its lifetime (another process's writes are not seen).
            let short = CommitMemo<String, Int>(
                database: db, tracking: [Table("tracked")], capacity: 2, lifetime: .milliseconds(1))
            #expect(await short.answer(for: "a", make) == 6)
            try await Task.sleep(for: .milliseconds(20))
            #expect(await short.answer(for: "a", make) == 7)
            // A quiet server lets go of what it would not answer with.
            try await Task.sleep(for: .milliseconds(20))
            #expect(short.dropExpired())
            #expect(!short.dropExpired(), "nothing left")
            #expect(!memo.dropExpired(), "an hour's answers stay")
        }
    }

    /// The session, the person and what waits for them are read once between changes; a sign-out, a session removed,
    /// a new recommendation are seen on the next page.
    @Test func signedInPagesReadTheirSessionAgainOnlyAfterAChange() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await alice.get("/profile").status == .ok)

            // Every session removed behind the server's back (another connection, as another process would): the
            // kept ones still answer…
            let removed = try await app.database().write { db in
                try db.execute(sql: "DELETE FROM session")
                return db.changesCount
            }
            #expect(removed == 2)
            #expect(try await alice.get("/profile").status == .ok)
            // … until the server itself writes a session: Carol signs up, and the others are asked to sign in.
            try await WebSession(client).register("carol")
            #expect(try await alice.get("/profile").status == .seeOther)
            #expect(try await bob.get("/profile").status == .seeOther)

            // What waits: counted again once Bob recommends a book.
            let (alice2, bob2) = (WebSession(client), WebSession(client))
            try await alice2.login("alice")
            try await bob2.login("bob")
            for person in [alice2, bob2] { _ = try await person.post("/profile/sharing", ["shares": "1"]) }
            #expect(try await alice2.get("/").text.contains("For you: nothing waiting"))
            let book = try await bob2.addBook(["title": "Emma", "shelf": "read"])
            _ = try await bob2.post("/books/\(book)/recommend", ["member": "1"])
            #expect(try await alice2.get("/").text.contains("For you: 1 thing waiting"))
        }
    }
}
