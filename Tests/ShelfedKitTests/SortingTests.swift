import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Sorting and pagination")
struct SortingTests {
    /// Three books whose order differs under every sort key.
    static func seed(_ app: TestApp, userID: Int64) async throws {
        let library = LibraryStore(db: try app.database())
        let base = Date(timeIntervalSince1970: 1_700_000_000)
        let books: [(String, String, String?)] = [
            ("banana split", "Zed Zimmer", "2024-05-01"),
            ("Apple Pie", "Mia Mole", nil),
            ("cherry tart", "alan adams", "2023-01-10"),
        ]
        for (index, (title, author, finished)) in books.enumerated() {
            var book = NewBook(title: title)
            book.authors = [author]
            let id = try await library.add(
                book, to: .read, for: userID, now: base.addingTimeInterval(Double(index) * 60), today: "2024-01-01")
            try await library.setDates(bookID: id, started: nil, finished: finished, for: userID, now: base)
        }
    }

    static func titles(in html: String) -> [String] {
        html.components(separatedBy: "<h3 class=\"card-title\"><a href=\"").dropFirst().compactMap {
            $0.split(separator: ">", maxSplits: 1).last?.split(separator: "<").first.map(String.init)
        }
    }

    @Test(
        "every sort key and order",
        arguments: [
            ("", ["cherry tart", "Apple Pie", "banana split"]),
            ("?sort=added&order=asc", ["banana split", "Apple Pie", "cherry tart"]),
            ("?sort=title", ["Apple Pie", "banana split", "cherry tart"]),
            ("?sort=title&order=desc", ["cherry tart", "banana split", "Apple Pie"]),
            ("?sort=author&order=asc", ["cherry tart", "Apple Pie", "banana split"]),
            ("?sort=author&order=desc", ["banana split", "Apple Pie", "cherry tart"]),
            ("?sort=finished", ["banana split", "cherry tart", "Apple Pie"]),
            ("?sort=finished&order=asc", ["cherry tart", "banana split", "Apple Pie"]),
            ("?sort=nonsense&order=sideways", ["cherry tart", "Apple Pie", "banana split"]),
        ])
    func sortOrders(query: String, expected: [String]) async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            try await Self.seed(app, userID: 1)
            let html = try await web.get("/shelves/read" + query).text
            #expect(Self.titles(in: html) == expected)
        }
    }

    @Test("the chosen sort is shown selected")
    func sortIsVisible() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let html = try await web.get("/shelves?sort=author&order=desc").text
            #expect(html.contains("<option value=\"author\" selected>"))
            #expect(html.contains("<option value=\"desc\" selected>"))
        }
    }

    @Test("60 books a page, with page links that keep the sort")
    func pagination() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let library = LibraryStore(db: try app.database())
            for number in 1...130 {
                _ = try await library.add(
                    NewBook(title: String(format: "Book %03d", number)), to: .wantToRead, for: 1,
                    now: Date(timeIntervalSince1970: Double(number)), today: "2024-01-01")
            }
            let first = try await web.get("/shelves/want-to-read?sort=title&order=asc").text
            #expect(Self.titles(in: first).count == 60)
            #expect(Self.titles(in: first).first == "Book 001")
            #expect(first.contains("1–60 of 130 books"))
            #expect(first.contains("href=\"/shelves/want-to-read?order=asc&amp;sort=title&amp;page=3\""))
            #expect(first.contains("rel=\"next\""))

            let third = try await web.get("/shelves/want-to-read?order=asc&sort=title&page=3").text
            #expect(Self.titles(in: third) == (121...130).map { String(format: "Book %03d", $0) })
            #expect(third.contains("121–130 of 130 books"))
            #expect(third.contains("href=\"/shelves/want-to-read?order=asc&amp;sort=title&amp;page=2\" rel=\"prev\""))
            #expect(!third.contains("rel=\"next\""))
            #expect(
                third.contains(
                    "href=\"/shelves/want-to-read?order=asc&amp;sort=title&amp;page=3\" aria-current=\"page\""))
        }
    }
}
