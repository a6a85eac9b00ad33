import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Shelfed's own write endpoints: add, change and remove books through the API.
@Suite struct LibraryAPITests {
    static func signedIn(_ client: any TestClientProtocol, _ name: String = "alice") async throws -> APIClient {
        try await WebSession(client).register(name)
        var api = APIClient(client)
        try await api.signIn("\(name)@example.com")
        return api
    }

    @Test func addsABookTypedInWithTheFormsRules() async throws {
        try await TestApp().run { client in
            let api = try await Self.signedIn(client)
            let created = try await api.send(
                .post, "/api/v1/books",
                json: [
                    "title": "  Dune ", "authors": ["Frank Herbert"], "isbn": "978-0-441-17271-9", "page_count": 412,
                    "shelf_id": 1,
                ])
            #expect(created.status == .created)
            let book = try #require(created.json?["book"] as? [String: Any])
            #expect(book["title"] as? String == "Dune")
            #expect(book["author"] as? String == "Frank Herbert")
            #expect(book["isbn"] as? String == "9780441172719")
            #expect(book["shelf_id"] as? Int == 1)
            let id = try #require(book["id"] as? Int64)
            #expect(try await api.get("/api/v1/books/\(id)").status == .ok)

            let again = try await api.send(.post, "/api/v1/books", json: ["title": "Dune", "isbn": "9780441172719"])
            #expect(again.status == .conflict)
            #expect((again.json?["error"] as? String)?.contains("already in your library") == true)
        }
    }

    @Test func badBooksAreRefusedWithAMessageAndNothingAdded() async throws {
        let app = TestApp()
        try await app.run { client in
            let api = try await Self.signedIn(client)
            let cases: [([String: Any], Int)] = [
                (["title": ""], 422),
                (["authors": ["Nobody"]], 422),
                (["title": "X", "page_count": 0], 422),
                (["title": "X", "page_count": 100_001], 422),
                (["title": "X", "published_date": "+024-+1-+1"], 422),
                (["title": "X\u{0}Y"], 422),
                (["title": "X", "shelf_id": 5], 422),
                (["title": "X", "page_count": "12"], 400),
                (["title": 12], 400),
                (["isbn": "123"], 400),
                (["volume_id": "../../etc"], 400),
            ]
            for (body, status) in cases {
                let response = try await api.send(.post, "/api/v1/books", json: body)
                #expect(response.status.code == status, "\(body)")
                #expect(response.json?["error"] is String, "\(body)")
            }
            let huge = try await api.send(
                .post, "/api/v1/books", json: ["title": String(repeating: "x", count: 100_000)])
            #expect(huge.status == .contentTooLarge)
            let count = try await app.database().read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book")
            }
            #expect(count == 0)
        }
    }

    @Test func changesShelfFavouriteDatesRatingAndComments() async throws {
        let app = TestApp()
        try await app.run { client in
            let api = try await Self.signedIn(client)
            let id =
                try #require(
                    try await api.send(.post, "/api/v1/books", json: ["title": "Emma"]).json?["book"] as? [String: Any])[
                    "id"]
                as! Int64
            let moved = try await api.send(.patch, "/api/v1/books/\(id)", json: ["shelf_id": 1, "favourite": true])
            #expect(moved.status == .ok)
            #expect((moved.json?["book"] as? [String: Any])?["shelf_id"] as? Int == 1)

            let rated = try await api.send(
                .patch, "/api/v1/books/\(id)",
                json: [
                    "rating": 4.5, "comments": "Lovely.\nFunny.", "started_at": "2026-03-01",
                    "finished_at": "2026-03-10",
                ])
            #expect(rated.status == .ok)
            #expect((rated.json?["book"] as? [String: Any])?["comments"] as? String == "Lovely.\nFunny.")
            let entry = try await app.database().read { db in
                try UserBook.filter(sql: "book_id = ?", arguments: [id]).fetchOne(db)!
            }
            #expect(entry.rating == 4.5)
            #expect(entry.favourite)
            #expect(entry.startedAt == "2026-03-01")
            #expect(entry.finishedAt == "2026-03-10")

            let cleared = try await api.send(
                .patch, "/api/v1/books/\(id)", json: ["comments": NSNull(), "rating": NSNull()])
            #expect((cleared.json?["book"] as? [String: Any])?["comments"] is NSNull)
        }
    }

    @Test func invalidChangesWriteNothing() async throws {
        let app = TestApp()
        try await app.run { client in
            let api = try await Self.signedIn(client)
            let id =
                try #require(
                    try await api.send(.post, "/api/v1/books", json: ["title": "Emma", "shelf_id": 2]).json?["book"]
                        as? [String: Any])["id"] as! Int64
            let cases: [([String: Any], Int)] = [
                (["rating": 5.5], 422), (["rating": 0.3], 422), (["rating": 0], 422),
                (["started_at": "2026-02-30"], 422), (["started_at": "+024-+1-+1"], 422),
                (["started_at": "2026-03-10", "finished_at": "2026-03-01"], 422),
                (["shelf_id": 9, "favourite": true], 422),
                (["comments": "a\u{0}b", "favourite": true], 422),
                (["rating": "5"], 400), (["favourite": "yes"], 400),
            ]
            for (body, status) in cases {
                let response = try await api.send(.patch, "/api/v1/books/\(id)", json: body)
                #expect(response.status.code == status, "\(body)")
                #expect(response.json?["error"] is String)
            }
            let row = try await app.database().read { db in try UserBook.fetchOne(db)! }
            #expect(row.shelf == .wantToRead)
            #expect(!row.favourite)
            #expect(row.rating == nil)
            #expect(row.startedAt == nil)
        }
    }

    @Test func deletingRemovesTheBookAndItsPhotos() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let api = try await Self.signedIn(client)
            let id =
                try #require(
                    try await api.send(.post, "/api/v1/books", json: ["title": "Emma"]).json?["book"] as? [String: Any])[
                    "id"]
                as! Int64
            let upload = try await api.upload(
                "/api/v1/books/\(id)/photos", files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(upload.status == .created)
            #expect(app.mediaFiles().count == 3)
            let deleted = try await api.send(.delete, "/api/v1/books/\(id)")
            #expect(deleted.status == .noContent)
            #expect(try await api.get("/api/v1/books/\(id)").status == .notFound)
            #expect(try await api.send(.delete, "/api/v1/books/\(id)").status == .notFound)
            #expect(app.mediaFiles().isEmpty)
            let photos = try await app.database().read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo") }
            #expect(photos == 0)
        }
    }
}
