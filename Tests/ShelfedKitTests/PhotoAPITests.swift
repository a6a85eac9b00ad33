import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Photos through the API: the web's upload pipeline without the CSRF part, JSON answers, private bytes.
@Suite struct PhotoAPITests {
    @Test func uploadsListsEditsServesAndDeletesAPhoto() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let api = try await LibraryAPITests.signedIn(client)
            let book = try #require(
                try await api.send(.post, "/api/v1/books", json: ["title": "Emma", "page_count": 300]).json?["book"]
                    as? [String: Any])
            let bookID = try #require(book["id"] as? Int64)
            let jpeg = try TestImages.fixture("Landscape_6.jpg")
            let created = try await api.upload(
                "/api/v1/books/\(bookID)/photos", fields: [("page_number", "42"), ("comment", "A fine line")],
                files: [.init(data: jpeg)])
            #expect(created.status == .created)
            let photo = try #require((created.json?["photos"] as? [[String: Any]])?.first)
            let photoID = try #require(photo["id"] as? Int64)
            #expect(photo["page_number"] as? Int == 42)
            #expect(photo["comment"] as? String == "A fine line")
            #expect(photo["thumb_url"] as? String == "/api/v1/photos/\(photoID)/thumb")

            let list = try #require(
                try await api.get("/api/v1/books/\(bookID)/photos").json?["photos"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? Int64 } == [photoID])

            let thumb = try await api.get("/api/v1/photos/\(photoID)/thumb")
            #expect(thumb.status == .ok)
            #expect(thumb.headers[.contentType] == "image/jpeg")
            #expect(thumb.headers[.cacheControl] == "private, no-cache")
            #expect(thumb.body.readableBytes > 1_000)
            let original = try await api.get("/api/v1/photos/\(photoID)/original")
            #expect(original.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            #expect(try await api.get("/api/v1/photos/\(photoID)/secret").status == .notFound)

            let edited = try await api.send(.patch, "/api/v1/photos/\(photoID)", json: ["page_number": 7])
            #expect(edited.status == .ok)
            let after = try #require(edited.json?["photo"] as? [String: Any])
            #expect(after["page_number"] as? Int == 7)
            #expect(after["comment"] as? String == "A fine line")
            // A moment for a book's photo is refused, not dropped without a word.
            let moment = try await api.send(.patch, "/api/v1/photos/\(photoID)", json: ["moment": "1:02:15"])
            #expect(moment.status == .unprocessableContent && moment.text.contains("A book's photo has a page"))
            let tooFar = try await api.send(.patch, "/api/v1/photos/\(photoID)", json: ["page_number": 301])
            #expect(tooFar.status == .unprocessableContent)
            let cleared = try await api.send(.patch, "/api/v1/photos/\(photoID)", json: ["comment": NSNull()])
            #expect((cleared.json?["photo"] as? [String: Any])?["comment"] is NSNull)

            #expect(try await api.send(.delete, "/api/v1/photos/\(photoID)").status == .noContent)
            #expect(try await api.get("/api/v1/photos/\(photoID)").status == .notFound)
            #expect(app.mediaFiles().isEmpty)
        }
    }

    @Test func badUploadsAreRefusedAndLeaveNothing() async throws {
        let app = TestApp(maxUploadBytes: 2 * 1_048_576)
        try await app.run(live: true) { client in
            let api = try await LibraryAPITests.signedIn(client)
            let bookID = try #require(
                (try await api.send(.post, "/api/v1/books", json: ["title": "Emma"]).json?["book"] as? [String: Any])?[
                    "id"]
                    as? Int64)
            let notImage = try await api.upload(
                "/api/v1/books/\(bookID)/photos", files: [.init(data: Data("hello".utf8))])
            #expect(notImage.status == .unsupportedMediaType)
            #expect(notImage.json?["error"] is String)
            let noFile = try await api.upload("/api/v1/books/\(bookID)/photos", fields: [("comment", "x")], files: [])
            #expect(noFile.status == .badRequest)
            let badPage = try await api.upload(
                "/api/v1/books/\(bookID)/photos", fields: [("page_number", "9223372036854775807")],
                files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(badPage.status == .unprocessableContent)
            let tooLarge = try await api.upload(
                "/api/v1/books/\(bookID)/photos", files: [.init(data: Data(count: 3 * 1_048_576))])
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.json?["error"] is String)
            #expect(app.mediaFiles().isEmpty)
            #expect(app.incomingFiles().isEmpty)
        }
    }
}
