import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Privacy between users")
struct IsolationTests {
    @Test("another user's book answers 404 to every read and write, and stays unchanged")
    func foreignBook() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let id = try await alice.addBook(["title": "Private Diary", "shelf": "reading"])

            let bob = WebSession(client)
            try await bob.register("bob")
            for path in ["/books/\(id)", "/books/\(id)/remove"] {
                let response = try await bob.get(path)
                #expect(response.status == .notFound, "GET \(path)")
                #expect(!response.text.contains("Private Diary"))
            }
            let writes: [(String, [String: String])] = [
                ("/books/\(id)/shelf", ["shelf": "read"]), ("/books/\(id)/favourite", ["favourite": "1"]),
                ("/books/\(id)/dates", ["started_at": "2020-01-01"]), ("/books/\(id)/remove", [:]),
            ]
            for (path, fields) in writes {
                #expect(try await bob.post(path, fields).status == .notFound, "POST \(path)")
            }
            for path in ["/", "/shelves", "/favourites", "/shelves/reading"] {
                #expect(!(try await bob.get(path).text.contains("Private Diary")), "\(path)")
            }
            let entry = try await app.database().writer.read { db in try UserBook.fetchOne(db) }
            #expect(entry?.shelf == .reading)
            #expect(entry?.favourite == false)
            #expect(entry?.startedAt == "2026-03-15")
        }
    }

    @Test("two users can each type in the same book: each gets a row of their own, removed with their entry")
    func sharedCatalogBook() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let aliceID = try await alice.addBook(["title": "Dune", "isbn": "9780441172719", "shelf": "read"])
            let bobID = try await bob.addBook(["title": "Dune", "isbn": "9780441172719"])
            #expect(aliceID != bobID)
            #expect(try await app.database().writer.read { db in try Book.fetchCount(db) } == 2)
            try await bob.post("/books/\(bobID)/remove")
            #expect(try await alice.get("/books/\(aliceID)").status == .ok)
            #expect(try await app.database().writer.read { db in try Book.fetchCount(db) } == 1)
        }
    }
}
