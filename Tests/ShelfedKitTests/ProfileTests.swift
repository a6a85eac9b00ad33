import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Profile and statistics")
struct ProfileTests {
    /// Finished books across 2025 (and one each in 2024 and without a date), plus one being read.
    static func seed(_ app: TestApp, userID: Int64 = 1) async throws {
        let library = LibraryStore(db: try app.database())
        let books: [(String, [String], [String], Int?, String?)] = [
            ("New Year", ["Ann Author"], ["Fiction"], 300, "2025-01-01"),
            ("Spring One", ["Ann Author", "Bo Writer"], ["Fiction", "History"], 200, "2025-03-10"),
            ("Spring Two", ["Cy Poet"], ["Poetry"], nil, "2025-03-20"),
            ("Last Day", ["Bo Writer"], ["History"], 500, "2025-12-31"),
            ("Old Year", ["Ann Author"], ["Fiction"], 1000, "2024-12-31"),
            ("No Date", ["Ann Author"], [], 50, nil),
        ]
        for (title, authors, categories, pages, finished) in books {
            var book = NewBook(title: title)
            book.authors = authors
            book.categories = categories
            book.pageCount = pages
            let id = try await library.add(book, to: .read, for: userID, now: Date(), today: "2025-01-01")
            try await library.setDates(bookID: id, started: nil, finished: finished, for: userID, now: Date())
        }
        var current = NewBook(title: "Still Going")
        current.pageCount = 400
        let id = try await library.add(current, to: .reading, for: userID, now: Date(), today: "2025-06-01")
        try await library.setDates(bookID: id, started: "2025-06-01", finished: nil, for: userID, now: Date())
    }

    @Test("a year's numbers: books and pages by finish date, month by month, authors, categories, extremes")
    func yearStatistics() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            try await Self.seed(app)
            let stats = try await StatisticsStore(db: try app.database()).year(2025, of: 1)
            #expect(stats.booksFinished == 4)
            #expect(stats.pagesRead == 1000)
            #expect(stats.averageLength == 333)
            #expect(stats.months[0] == .init(books: 1, pages: 300))
            #expect(stats.months[2] == .init(books: 2, pages: 200))
            #expect(stats.months[11] == .init(books: 1, pages: 500))
            #expect(stats.months.map(\.books).reduce(0, +) == 4)
            #expect(stats.topAuthors.map(\.name) == ["Ann Author", "Bo Writer", "Cy Poet"])
            #expect(stats.topAuthors.map(\.count) == [2, 2, 1])
            #expect(stats.topCategories.first == .init(name: "Fiction", count: 2))
            #expect(stats.longest?.title == "Last Day")
            #expect(stats.shortest?.title == "Spring One")
            let previous = try await StatisticsStore(db: try app.database()).year(2024, of: 1)
            #expect(previous.booksFinished == 1 && previous.pagesRead == 1000)
            let totals = try await StatisticsStore(db: try app.database()).allTime(of: 1)
            #expect(totals.booksRead == 6)
            #expect(totals.pagesRead == 2050)
            #expect(totals.yearsActive == 2)
            #expect(totals.perYear.map(\.books) == [1, 4])
        }
    }

    @Test("the profile page shows the chart with a title, description and table, and the year can be chosen")
    func profilePage() async throws {
        let app = TestApp(clock: TestClock("2025-07-02T12:00:00Z"))
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            try await Self.seed(app)
            let html = try await web.get("/profile").text
            #expect(html.contains("Your reading in 2025"))
            #expect(html.contains("<svg class=\"chart\""))
            #expect(html.contains("<title id=\"months-title\">Books and pages per month, 2025</title>"))
            #expect(html.contains("March: 2 books, 200 pages"))
            #expect(html.contains("<th scope=\"row\">December</th><td>1</td><td>500</td>"))
            #expect(html.contains("Still Going</a> <span class=\"muted\">since 2025-06-01"))
            #expect(html.contains("<strong>6</strong> books read"))
            // The shelf tiles count books: a film on Want to watch is not a book to read.
            let before = try await web.get("/profile").text
            _ = try await web.addBook(["title": "Heat", "kind": "movie", "shelf": "want_to_read"])
            let after = try await web.get("/profile").text
            func wantToRead(_ page: String) -> String? {
                page.firstMatch(of: #/href="/shelves/want-to-read\?kind=book"><strong>(\d+)</strong>/#).map {
                    String($0.1)
                }
            }
            #expect(wantToRead(before) != nil && wantToRead(after) == wantToRead(before))
            let older = try await web.get("/profile?year=2024").text
            #expect(older.contains("Your reading in 2024"))
            #expect(older.contains("<option value=\"2024\" selected>"))
            #expect(older.contains("<strong>1</strong> book finished"))
        }
    }

    @Test("the goal shows progress and whether the year is ahead of or behind the pace for today")
    func goal() async throws {
        let app = TestApp(clock: TestClock("2025-07-02T12:00:00Z"))
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            try await Self.seed(app)
            #expect(try await web.post("/profile/goal", ["goal": "12"]).status == .seeOther)
            // 2 July is day 183 of 365: 12 × 183/365 = 6 books by today, 4 done.
            let behind = try await web.get("/profile").text
            #expect(behind.contains("4 of 12 books"))
            #expect(behind.contains("2 books behind pace"))
            #expect(behind.contains("max=\"12\" value=\"4\""))
            try await web.post("/profile/goal", ["goal": "4"])
            #expect(try await web.get("/profile").text.contains("Goal reached"))
            try await web.post("/profile/goal", ["goal": "6"])
            #expect(try await web.get("/profile").text.contains("Goal reached") == false)
            #expect(GoalProgress(goal: 6, finished: 4, dayOfYear: 183, daysInYear: 365).pace.contains("ahead of pace"))
            // A bad goal is the profile again with the typed text and the message beside the field, not an error page.
            let refused = try await web.post("/profile/goal", ["goal": "lots"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"id="goal" name="goal" inputmode="numeric" value="lots""#))
            #expect(refused.text.contains(#"<p class="field-error" id="goal-error">Enter a goal"#))
            #expect(refused.text.contains("Books per month") || refused.text.contains("class=\"stat-grid\""))
            #expect(try await app.database().writer.read { db in try User.fetchOne(db)?.readingGoal } == 6)
            let saved = try await web.post("/profile/goal", ["goal": "7"])
            #expect(saved.headers[.location] == "/profile?saved=goal#goal")
            #expect(try await web.get("/profile?saved=goal").text.contains("Saved your reading goal."))
            try await web.post("/profile/goal", ["goal": ""])
            #expect(try await app.database().writer.read { db in try User.fetchOne(db)?.readingGoal } == nil)
        }
    }

    @Test("finishing on 31 December late at night counts in the year of the household's time zone")
    func timeZones() async throws {
        // 23:30 UTC on 31 December is already 1 January in Berlin.
        let clock = TestClock("2025-12-31T23:30:00Z")
        let app = TestApp(clock: clock, timeZone: TimeZone(identifier: "Europe/Berlin")!)
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Night Owl", "shelf": "reading"])
            try await web.post("/books/\(id)/shelf", ["shelf": "read"])
            let stats = try await StatisticsStore(db: try app.database())
            #expect(try await stats.year(2026, of: 1).booksFinished == 1)
            #expect(try await stats.year(2025, of: 1).booksFinished == 0)
            #expect(try await web.get("/profile").text.contains("Your reading in 2026"))
        }
    }

    @Test("a new user sees friendly empty states")
    func emptyState() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let html = try await web.get("/profile").text
            #expect(html.contains("No books finished in 2026 yet"))
            #expect(html.contains("<strong>0</strong> books read"))
            #expect(!html.contains("My uploads"))
        }
    }

    @Test("editing display name and email keeps typed values on error")
    func editProfile() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("bob")
            let web = WebSession(client)
            try await web.register("alice")
            let taken = try await web.post("/profile/edit", ["display_name": "Alice B.", "email": "BOB@example.com"])
            #expect(taken.status == .unprocessableContent)
            #expect(taken.text.contains("Another account uses this email."))
            #expect(taken.text.contains("value=\"Alice B.\""))
            #expect(
                try await web.post("/profile/edit", ["display_name": "Alice B.", "email": "new@example.com"]).status
                    == .seeOther)
            #expect(try await web.get("/profile").text.contains("<h1>Alice B.</h1>"))
        }
    }

    @Test("changing the password needs the current one and signs out other sessions")
    func changePassword() async throws {
        try await TestApp().run { client in
            let phone = WebSession(client)
            try await phone.register("alice")
            let laptop = WebSession(client)
            try await laptop.login("alice")
            let wrong = try await phone.post(
                "/profile/password", ["current_password": "nope", "new_password": "brand new secret"])
            #expect(wrong.text.contains("That is not your current password."))
            let changed = try await phone.post(
                "/profile/password", ["current_password": "correct horse", "new_password": "brand new secret"])
            #expect(changed.headers[.location] == "/profile/edit?saved=password")
            #expect(try await phone.get("/profile").status == .ok)
            #expect(try await laptop.get("/profile").status == .seeOther)
            #expect(try await WebSession(client).login("alice").status == .unauthorized)
            #expect(try await WebSession(client).login("alice", password: "brand new secret").status == .seeOther)
        }
    }

    @Test("deleting an account needs the username typed and removes every row and file of that user only")
    func deleteAccount() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobBook = try await bob.addBook(["title": "Bob's Book", "isbn": "9780441172719"])
            try await bob.upload("/books/\(bobBook)/photos", files: [.init(data: TestImages.png)])

            let alice = WebSession(client)
            try await alice.register("alice")
            let shared = try await alice.addBook(["title": "Dune", "isbn": "9780441172719"])
            try await alice.upload("/books/\(shared)/photos", files: [.init(data: TestImages.png)])
            try await alice.upload("/profile/avatar", files: [.init(data: TestImages.png)])
            #expect(app.mediaFiles().count == 9)

            let refused = try await alice.post("/profile/delete", ["confirm_username": "alicia"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Type your username, alice, to confirm."))
            let deleted = try await alice.post("/profile/delete", ["confirm_username": "alice"])
            #expect(deleted.headers[.location] == "/login")
            #expect(try await alice.get("/profile").status == .seeOther)

            let db = try app.database().writer
            #expect(try await db.read { db in try User.fetchAll(db).map(\.username) } == ["bob"])
            #expect(try await db.read { db in try UserBook.fetchCount(db) } == 1)
            #expect(try await db.read { db in try Photo.fetchCount(db) } == 1)
            #expect(app.mediaFiles().count == 3)
            #expect(app.mediaFiles().allSatisfy { $0.hasPrefix("1/") })
            #expect(try await bob.get("/books/\(bobBook)").status == .ok)
            #expect(try await WebSession(client).login("alice").status == .unauthorized)
        }
    }
}
