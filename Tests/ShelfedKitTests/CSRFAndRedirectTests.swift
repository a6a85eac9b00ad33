import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("CSRF and sign-in redirects")
struct CSRFAndRedirectTests {
    @Test("every form on a page carries the CSRF token of the visitor's cookie")
    func formsCarryToken() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Dune"])
            for path in ["/", "/shelves", "/books/new", "/books/\(id)", "/books/\(id)/remove"] {
                let html = try await web.get(path).text
                let forms = html.components(separatedBy: "method=\"post\"").count - 1
                let tokens = html.components(separatedBy: "name=\"_csrf\" value=\"\(web.csrfToken!)\"").count - 1
                #expect(forms > 0 && forms == tokens, "\(path): \(forms) forms, \(tokens) tokens")
            }
        }
    }

    @Test("a POST without a token, or with a wrong one, gets 403 and changes nothing")
    func rejectsMissingToken() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let missing = try await web.send(
                "/books", method: .post, body: "title=Forged", contentType: "application/x-www-form-urlencoded")
            #expect(missing.status == .forbidden)
            #expect(missing.text.contains("This form has expired"))
            let wrong = try await web.post("/books", ["title": "Forged"], csrf: String(repeating: "a", count: 64))
            #expect(wrong.status == .forbidden)
            let logout = try await web.post("/logout", csrf: "nonsense")
            #expect(logout.status == .forbidden)
            #expect(try await web.get("/shelves").status == .ok)
            #expect(try await app.database().writer.read { db in try Book.fetchCount(db) } == 0)
        }
    }

    @Test("a protected page sends a visitor to /login?next= and back after signing in")
    func redirectWithNext() async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")
            let web = WebSession(client)
            let response = try await web.get("/shelves/read?sort=title&order=asc")
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/login?next=/shelves/read%3Fsort%3Dtitle%26order%3Dasc")
            let form = try await web.get(response.headers[.location]!)
            #expect(form.text.contains("name=\"next\" value=\"/shelves/read?sort=title&amp;order=asc\""))
            let login = try await web.login("alice", next: "/shelves/read?sort=title&order=asc")
            #expect(login.headers[.location] == "/shelves/read?sort=title&order=asc")
        }
    }

    @Test(
        "next values that leave the site are ignored", arguments: ["//evil.example", "https://evil.example", "/\\evil"])
    func offSiteNext(next: String) async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")
            let login = try await WebSession(client).login("alice", next: next)
            #expect(login.headers[.location] == "/")
        }
    }
}
