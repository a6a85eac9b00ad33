import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Every API endpoint that takes an id answers 404 for another user's id and changes nothing.
@Suite struct APIIsolationTests {
    @Test func anotherUsersBooksAndPhotosAreNotFound() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let alice = try await LibraryAPITests.signedIn(client, "alice")
            let bob = try await LibraryAPITests.signedIn(client, "bob")
            let bookID = try #require(
                (try await alice.send(.post, "/api/v1/books", json: ["title": "Diary", "shelf_id": 1]).json?["book"]
                    as? [String: Any])?["id"] as? Int64)
            let photoID = try #require(
                ((try await alice.upload(
                    "/api/v1/books/\(bookID)/photos", fields: [("comment", "secret")],
                    files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))]
                ).json?["photos"] as? [[String: Any]])?
                .first?["id"] as? Int64))
            let before = try await Self.snapshot(app)

            let attempts: [(HTTPRequest.Method, String, [String: Any]?)] = [
                (.get, "/api/v1/books/\(bookID)", nil),
                (.patch, "/api/v1/books/\(bookID)", ["shelf_id": 3, "comments": "mine now"]),
                (.delete, "/api/v1/books/\(bookID)", nil),
                (.get, "/api/v1/books/\(bookID)/photos", nil),
                (.get, "/api/v1/photos/\(photoID)", nil),
                (.patch, "/api/v1/photos/\(photoID)", ["comment": "mine now"]),
                (.delete, "/api/v1/photos/\(photoID)", nil),
                (.get, "/api/v1/photos/\(photoID)/thumb", nil),
                (.get, "/api/v1/photos/\(photoID)/display", nil),
                (.get, "/api/v1/photos/\(photoID)/original", nil),
            ]
            for (method, path, body) in attempts {
                let response = try await bob.send(method, path, json: body)
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(response.json?["error"] is String, "\(method) \(path)")
            }
            let upload = try await bob.upload(
                "/api/v1/books/\(bookID)/photos", files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(upload.status == .notFound)
            #expect(try await Self.snapshot(app) == before)
            #expect(try await alice.get("/api/v1/photos/\(photoID)/thumb").status == .ok)
        }
    }

    static func snapshot(_ app: TestApp) async throws -> String {
        try await app.database().read { db in
            let books = try Row.fetchAll(db, sql: "SELECT * FROM user_book ORDER BY id").map(\.description)
            // Without the words read from each photo: the background reader fills them in at its own pace.
            let photos = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, user_id, book_id, original_path, display_path, thumb_path, page_number, comment
                    FROM photo ORDER BY id
                    """
            ).map(\.description)
            return (books + photos).joined(separator: "\n") as String
        } + app.mediaFiles().joined(separator: ",")
    }
}
