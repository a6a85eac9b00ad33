import Foundation
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// `/api/v1/books/:id/progress` and `/api/v1/progress/:entryID`: the journal for Shelfed's own clients, by the
/// same rules as the pages; another person's ids are 404. Today is 2026-03-15 on the test clock.
@Suite struct ProgressAPITests {
    @Test func progressIsRecordedListedEditedAndDeleted() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Middlemarch", "page_count": "880"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")

            let created = try await api.send(
                .post, "/api/v1/books/\(book)/progress", json: ["page": 120, "read_on": "2026-03-10", "note": "Hi"])
            #expect(created.status == .created)
            let progress = try #require(created.json?["progress"] as? [String: Any])
            #expect(progress["page"] as? Int == 120 && progress["page_count"] as? Int == 880)
            #expect(abs((progress["fraction"] as? Double ?? 0) - 120.0 / 880.0) < 0.0001)
            #expect(progress["by_percent"] as? Bool == false)
            let entries = try #require(created.json?["entries"] as? [[String: Any]])
            let entryID = try #require(entries.first?["id"] as? Int)
            #expect(entries.first?["read_on"] as? String == "2026-03-10" && entries.first?["percent"] is NSNull)
            // The book moved from Want to read to Reading.
            let detail = try await api.get("/api/v1/books/\(book)")
            #expect(((detail.json?["book"] as? [String: Any])?["shelf_id"] as? Int) == Shelf.reading.readerID)

            for (body, status) in [
                (["page": 881] as [String: Any], 422), (["page": -1], 422), (["percent": 101], 422),
                (["page": 1, "percent": 1], 422), ([:], 422), (["page": 1, "read_on": "2026-03-16"], 422),
                (["page": 1, "read_on": "yesterday"], 422), (["page": "twelve"], 400),
                (["page": 1e30], 400), (["page": 1, "note": String(repeating: "x", count: 2_001)], 422),
                (["page": 1, "read_on": "0001-01-01"], 422),
            ] {
                let refused = try await api.send(.post, "/api/v1/books/\(book)/progress", json: body)
                #expect(refused.status.code == status, "\(body)")
                #expect(refused.json?["error"] is String, "\(body)")
            }

            let edited = try await api.send(
                .patch, "/api/v1/progress/\(entryID)", json: ["page": 150, "read_on": "2026-03-11"])
            #expect(edited.status == .ok && edited.json?["page"] as? Int == 150)
            #expect(edited.json?["note"] is NSNull && edited.json?["book_id"] as? Int == Int(book))
            // The whole entry again, without a day: it keeps its own.
            let dayKept = try await api.send(.patch, "/api/v1/progress/\(entryID)", json: ["page": 150])
            #expect(dayKept.status == .ok && dayKept.json?["read_on"] as? String == "2026-03-11")
            let listed = try await api.get("/api/v1/books/\(book)/progress")
            #expect(listed.json?["entry_count"] as? Int == 1)
            #expect(((listed.json?["progress"] as? [String: Any])?["page"] as? Int) == 150)

            // Someone else's book and entry are not found; nothing of theirs changes.
            let bob = WebSession(client)
            try await bob.register("bob")
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            #expect(try await bobAPI.get("/api/v1/books/\(book)/progress").status == .notFound)
            #expect(
                try await bobAPI.send(.post, "/api/v1/books/\(book)/progress", json: ["page": 1]).status == .notFound)
            #expect(try await bobAPI.send(.patch, "/api/v1/progress/\(entryID)", json: ["page": 1]).status == .notFound)
            #expect(try await bobAPI.send(.delete, "/api/v1/progress/\(entryID)").status == .notFound)
            #expect(try await api.send(.patch, "/api/v1/progress/0", json: ["page": 1]).status == .notFound)
            #expect(try await APIClient(client).get("/api/v1/books/\(book)/progress").status == .unauthorized)

            #expect(try await api.send(.delete, "/api/v1/progress/\(entryID)").status == .noContent)
            #expect(try await api.get("/api/v1/books/\(book)/progress").json?["entry_count"] as? Int == 0)

            // A finished book keeps no new progress.
            _ = try await web.post("/books/\(book)/shelf", ["shelf": "read"])
            let finished = try await api.send(.post, "/api/v1/books/\(book)/progress", json: ["page": 5])
            #expect(finished.status == .conflict)
        }
    }
}
