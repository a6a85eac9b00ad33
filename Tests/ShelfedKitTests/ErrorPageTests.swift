import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Error pages")
struct ErrorPageTests {
    @Test("unknown pages and malformed ids are friendly 404 pages")
    func notFound() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            for path in ["/no/such/page", "/books/abc", "/books/99999", "/shelves/someday"] {
                let response = try await web.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.text.contains("<h1>"))
                #expect(response.text.contains("Go to your library"))
            }
        }
    }

    @Test("a malformed submission is a 400 page")
    func badRequest() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune"])
            let response = try await web.post("/books/\(id)/shelf", ["shelf": "attic"])
            #expect(response.status == .badRequest)
            #expect(response.text.contains("Choose Want to read, Reading, Read or Did not finish."))
        }
    }

    @Test("/api/ paths answer errors as JSON")
    func apiErrors() async throws {
        try await TestApp().run { client in
            let response = try await client.execute(uri: "/api/v1/nothing", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(String(buffer: response.body).contains("\"error\""))
        }
    }

    @Test("static files are served with a cache header")
    func staticFiles() async throws {
        try await TestApp().run { client in
            let response = try await client.execute(uri: "/static/css/app.css", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl]?.contains("max-age") == true)
        }
    }
}
