import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The Reader app's contract (DESIGN §6), field by field.
@Suite struct ReaderAPITests {
    /// Alice with three books on three shelves, signed in on the web and with a key.
    static func aliceWithBooks(_ client: any TestClientProtocol) async throws -> (WebSession, APIClient, [Int64]) {
        let web = WebSession(client)
        try await web.register("alice")
        let dune = try await web.addBook(
            ["title": "Dune", "authors": "Frank Herbert", "isbn": "9780441172719", "shelf": "reading"])
        let emma = try await web.addBook(["title": "Emma", "authors": "Jane Austen, Fay Weldon", "isbn": "0141439580"])
        let notes = try await web.addBook(["title": "Notes", "shelf": "read"])
        var api = APIClient(client)
        try await api.signIn("alice@example.com")
        return (web, api, [dune, emma, notes])
    }

    @Test func shelvesHaveFixedIdsAndCounts() async throws {
        try await TestApp().run { client in
            let (_, api, _) = try await Self.aliceWithBooks(client)
            let response = try await api.get("/api/v1/shelves")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let body = try #require(response.json)
            #expect(body["user"] as? String == "alice@example.com")
            let shelves = try #require(body["shelves"] as? [[String: Any]])
            // Ids 1–3 as the Reader app knows them, then Did not finish (issue 24) after them.
            #expect(shelves.map { $0["id"] as? Int } == [1, 2, 3, 4])
            #expect(
                shelves.map { $0["name"] as? String } == [
                    "Currently Reading", "Want to Read", "Read", "Did Not Finish",
                ])
            #expect(shelves.map { $0["book_count"] as? Int } == [1, 1, 1, 0])
        }
    }

    @Test func oneShelfListsItsBooks() async throws {
        try await TestApp().run { client in
            let (_, api, ids) = try await Self.aliceWithBooks(client)
            let body = try #require(try await api.get("/api/v1/shelves/1").json)
            let shelf = try #require(body["shelf"] as? [String: Any])
            #expect(shelf["id"] as? Int == 1 && shelf["name"] as? String == "Currently Reading")
            let books = try #require(body["books"] as? [[String: Any]])
            #expect(books.count == 1)
            #expect(books[0]["id"] as? Int64 == ids[0])
            #expect(books[0]["title"] as? String == "Dune")
            #expect(books[0]["author"] as? String == "Frank Herbert")
            #expect(books[0]["isbn"] as? String == "9780441172719")
            #expect(books[0]["shelf_id"] == nil)

            let empty = try #require(try await api.get("/api/v1/shelves/3").json?["books"] as? [[String: Any]])
            #expect(empty.map { $0["title"] as? String } == ["Notes"])
            #expect(empty[0]["isbn"] is NSNull)

            for bad in ["0", "5", "-1", "x", "99999999999999999999999"] {
                let response = try await api.get("/api/v1/shelves/\(bad)")
                #expect(response.status == .notFound, "\(bad)")
                #expect(response.json?["error"] is String)
            }
        }
    }

    @Test func allBooksCarryTheirShelf() async throws {
        try await TestApp().run { client in
            let (_, api, ids) = try await Self.aliceWithBooks(client)
            let body = try #require(try await api.get("/api/v1/books").json)
            #expect(body["user"] as? String == "alice@example.com")
            #expect(body["book_count"] as? Int == 3)
            let books = try #require(body["books"] as? [[String: Any]])
            #expect(Set(books.compactMap { $0["id"] as? Int64 }) == Set(ids))
            let emma = try #require(books.first { $0["title"] as? String == "Emma" })
            #expect(emma["author"] as? String == "Jane Austen, Fay Weldon")
            #expect(emma["shelf_id"] as? Int == 2)
            #expect(emma["shelf_name"] as? String == "Want to Read")
            // An ISBN-10 stands in when there is no ISBN-13.
            #expect(emma["isbn"] as? String == "9780141439587" || emma["isbn"] as? String == "0141439580")
        }
    }

    @Test func oneBookInFull() async throws {
        try await TestApp().run { client in
            let (_, api, ids) = try await Self.aliceWithBooks(client)
            let body = try #require(try await api.get("/api/v1/books/\(ids[0])").json)
            let book = try #require(body["book"] as? [String: Any])
            #expect(book["id"] as? Int64 == ids[0])
            #expect(book["title"] as? String == "Dune")
            #expect(book["shelf_id"] as? Int == 1)
            #expect(book["shelf_name"] as? String == "Currently Reading")
            #expect(book["image_url"] is NSNull)
            #expect(book["comments"] is NSNull)
            #expect(
                Set(book.keys) == ["id", "title", "author", "isbn", "shelf_id", "shelf_name", "image_url", "comments"])
        }
    }

    @Test func anotherUsersBookIsNotFound() async throws {
        try await TestApp().run { client in
            let (_, _, ids) = try await Self.aliceWithBooks(client)
            try await WebSession(client).register("bob")
            var bob = APIClient(client)
            try await bob.signIn("bob@example.com")
            for id in ids {
                let response = try await bob.get("/api/v1/books/\(id)")
                #expect(response.status == .notFound)
                #expect(response.json?["error"] is String)
            }
            #expect(try await bob.get("/api/v1/books").json?["book_count"] as? Int == 0)
            #expect(try await bob.get("/api/v1/shelves/1").json?["books"] as? [Any] != nil)
            #expect((try await bob.get("/api/v1/shelves/1").json?["books"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func unknownAPIPathsAnswerJSON() async throws {
        try await TestApp().run { client in
            let response = try await client.execute(uri: "/api/v1/nothing", method: .get)
            #expect(response.status == .notFound)
            #expect(response.json?["error"] is String)
        }
    }

    @Test func unknownAPIPathsAnswerJSONWithoutCookies() async throws {
        try await TestApp().run { client in
            for path in ["/api/nothing", "/api/v1/nothing", "/api/v9/x"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(response.headers[.setCookie] == nil)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.json?["error"] is String)
            }
            for path in ["/v1/search/nothing", "/api/v2/nothing"] {
                let response = try await client.execute(uri: path, method: .post)
                #expect(response.status == .notFound)
                #expect(response.headers[.setCookie] == nil)
                #expect(response.json?["success"] as? Bool == false)
                #expect((response.json?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            }
        }
    }
}
