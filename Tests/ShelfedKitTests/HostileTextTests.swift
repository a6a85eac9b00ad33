import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Findings 1 and 3 of issue 9: script through an attribute, and an open redirect.
@Suite("Hostile text: escaping, security headers, redirects")
struct HostileTextTests {
    /// A quote followed by a combining mark is one `Character` that is not `"`.
    static let attack = "x\"\u{301} autofocus onfocus=alert(document.cookie) x=\""
    /// The attack's quote as it must never appear in a page, and as it must appear instead.
    static let rawQuote = "\"\u{301}"
    static let escapedStart = "x&quot;\u{301} autofocus"

    @Test("the escaper works on bytes: a quote with a combining mark is still escaped")
    func escaper() {
        let escapedQuote = HTMLEscaper.escape(Self.rawQuote)
        #expect(escapedQuote == "&quot;" + "\u{301}")
        #expect(HTMLEscaper.escape("<a href='x'>&</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLEscaper.escape("Café ☕︎ 📚") == "Café ☕︎ 📚")
        let nul = HTMLEscaper.escape("a" + "\u{0}" + "b")
        #expect(nul == "a" + "\u{FFFD}" + "b")
        let fragment: HTMLFragment = "<p title=\"\(Self.attack)\">\(Self.attack)</p>"
        #expect(!fragment.html.contains(Self.rawQuote))
        #expect(fragment.html.hasPrefix("<p title=\"" + Self.escapedStart))
    }

    @Test("a stored attack title stays inside its attributes on home, shelf, book and remove pages")
    func storedTitle() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": Self.attack, "authors": Self.attack, "shelf": "reading"])
            for path in ["/", "/shelves", "/shelves/reading", "/books/\(id)", "/books/\(id)/remove"] {
                let html = try await web.get(path).text
                #expect(html.contains(Self.escapedStart), "\(path) shows the escaped title")
                #expect(!html.contains(Self.rawQuote), "\(path) lets the raw quote through")
            }
        }
    }

    @Test("reflected text is escaped: /books/new?title=, /search?q=, /login?next=")
    func reflected() async throws {
        try await TestApp().run { client in
            let anonymous = WebSession(client)
            let next = "/x\"\u{301}/autofocus/onfocus=alert(1)/x=\""
            let login = try await anonymous.get("/login?next=" + Paths.queryEscape(next)).text
            #expect(!login.contains(Self.rawQuote))
            let web = WebSession(client)
            try await web.register("alice")
            for path in ["/books/new?title=", "/search?q="] {
                let html = try await web.get(path + Paths.queryEscape(Self.attack)).text
                #expect(html.contains(Self.escapedStart), "\(path)")
                #expect(!html.contains(Self.rawQuote), "\(path)")
            }
        }
    }

    @Test("every answer carries the CSP and the other protective headers, error pages and files included")
    func securityHeaders() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            for path in ["/login", "/nowhere", "/static/css/app.css", "/health"] {
                let response = try await web.get(path)
                let csp = try #require(response.headers[.contentSecurityPolicy], "\(path)")
                #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
                #expect(csp.contains("frame-ancestors 'none'"))
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "same-origin")
            }
        }
    }

    @Test("no template has inline script, event handlers or inline styles")
    func noInlineScript() throws {
        let templates = TestApp.packageRoot.appendingPathComponent("templates")
        let files = FileManager.default.enumerator(at: templates, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "mustache" }
        #expect(files.count > 10)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains("<script>") && !text.contains("style=\""), "\(file.lastPathComponent)")
            #expect(text.range(of: #"\son[a-z]+="#, options: .regularExpression) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test(
        "redirect targets with a tab, backslash or other control characters go to /",
        arguments: [
            "/\t/evil.example", "/\n/evil.example", "/\\evil.example", "//evil.example", "https://evil.example",
            "/ /evil.example", "/\u{202E}/evil", "evil",
        ])
    func openRedirect(target: String) async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")
            let web = WebSession(client)
            #expect(try await web.login("alice", next: target).headers[.location] == "/")
            #expect(try await web.get("/login?next=" + Paths.queryEscape(target)).headers[.location] == "/")
            let id = try await web.addBook(["title": "Dune"])
            let moved = try await web.post("/books/\(id)/shelf", ["shelf": "read", "return_to": target])
            #expect(moved.headers[.location]?.hasPrefix("/books/\(id)?done=moved&") == true)
        }
    }

    @Test(
        "form bodies the decoder cannot read as the form are a 400 and store nothing",
        arguments: [
            "title=a&title=b", "title[]=x", "title[a]=b", "title=%ZZ", "title=%00", "=x&&&", "title",
        ])
    func malformedForms(body: String) async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            try await web.refreshToken()
            let response = try await web.send(
                "/books", method: .post, body: "_csrf=\(web.csrfToken!)&" + body,
                contentType: "application/x-www-form-urlencoded")
            #expect([400, 422].contains(response.status.code), "\(body): \(response.status)")
            let stored = try await app.database().writer.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book")
            }
            #expect(stored == 0)
        }
    }
}
