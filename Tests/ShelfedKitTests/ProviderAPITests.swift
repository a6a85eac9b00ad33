import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Adding provider books through the API (the fake Google Books replays recorded answers) and the profile.
@Suite struct ProviderAPITests {
    @Test func addsByISBNAndByVolumeIDThroughTheLibraryService() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let api = try await LibraryAPITests.signedIn(client)
                let byISBN = try await api.send(.post, "/api/v1/books", json: ["isbn": "0140446044", "shelf_id": 3])
                #expect(byISBN.status == .created)
                let book = try #require(byISBN.json?["book"] as? [String: Any])
                #expect(book["isbn"] as? String == "9780140446043")
                #expect(book["shelf_id"] as? Int == 3)

                let byVolume = try await api.send(.post, "/api/v1/books", json: ["volume_id": "0yNhEAAAQBAJ"])
                #expect(byVolume.status == .created)
                let volume = try #require(byVolume.json?["book"] as? [String: Any])
                #expect(volume["shelf_id"] as? Int == 2)
                #expect(volume["title"] as? String == "Near to the Wild Heart")
                let cover = try #require(volume["image_url"] as? String)
                #expect(cover.hasPrefix("/covers/"))
                #expect(try await client.execute(uri: cover, method: .get).status == .ok)

                let source = try await app.database().read { db in
                    try String.fetchAll(db, sql: "SELECT source FROM book ORDER BY id")
                }
                #expect(source == ["google", "google"])

                let unknown = try await api.send(.post, "/api/v1/books", json: ["isbn": "9783868943238"])
                #expect(unknown.status == .notFound)
                #expect((unknown.json?["error"] as? String)?.contains("by hand") == true)
            }
        }
    }

    @Test func anOutageIsAJSONAnswerWithAWayForward() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run { client in
                let api = try await LibraryAPITests.signedIn(client)
                fake.failGoogle(.status(500), .status(500), .status(500), .status(500))
                fake.failOpenLibrary(.status(500), .status(500), .status(500), .status(500))
                let response = try await api.send(.post, "/api/v1/books", json: ["isbn": "9780804720991"])
                #expect(response.status == .serviceUnavailable)
                #expect((response.json?["error"] as? String)?.contains("by hand") == true)
            }
        }
    }

    @Test func theProfileCountsShelvesAndAYearOfReading() async throws {
        let app = TestApp(clock: TestClock("2026-03-15T10:00:00Z"))
        try await app.run { client in
            let api = try await LibraryAPITests.signedIn(client)
            for (title, pages) in [("One", 100), ("Two", 250)] {
                let id = try #require(
                    (try await api.send(
                        .post, "/api/v1/books", json: ["title": title, "page_count": pages, "shelf_id": 3]
                    )
                    .json?["book"] as? [String: Any])?["id"] as? Int64)
                _ = try await api.send(.patch, "/api/v1/books/\(id)", json: ["favourite": true])
            }
            _ = try await api.send(.post, "/api/v1/books", json: ["title": "Three", "shelf_id": 1])
            let profile = try #require(try await api.get("/api/v1/profile").json)
            #expect(profile["username"] as? String == "alice")
            #expect(profile["year"] as? Int == 2026)
            let counts = try #require(profile["counts"] as? [String: Int])
            #expect(
                counts == [
                    "reading": 1, "want_to_read": 0, "read": 2, "did_not_finish": 0, "favourites": 2, "photos": 0,
                ])
            #expect(profile["books_finished"] as? Int == 2)
            #expect(profile["pages_read"] as? Int == 350)
            #expect(profile["goal"] is NSNull)
            let months = try #require(profile["months"] as? [[String: Int]])
            #expect(months.count == 12)
            #expect(months[2] == ["month": 3, "books": 2, "pages": 350])

            #expect(try await api.get("/api/v1/profile?year=2025").json?["books_finished"] as? Int == 0)
            for bad in ["0", "10000", "9223372036854775807", "２０２６", "+2026"] {
                #expect(try await api.get("/api/v1/profile?year=\(bad)").status == .badRequest, "\(bad)")
            }
        }
    }
}
