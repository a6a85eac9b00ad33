import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// One definition of "pages read" (issue 35, finding 4): journal progress on the day of each update, and the page
/// count of a read finished without one, on its finish day. The profile's year and all-time figures, its weeks and
/// months, the year in review, the API and a pages challenge all say the same number.
@Suite struct PagesReadTests {
    @Test func everyFigureCountsTheSamePagesRead() async throws {
        let app = TestApp()  // today is 2026-03-15
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            // A book in progress with a journal: 380 pages this week, none finished.
            let reading = try await alice.addBook(["title": "In Progress", "page_count": "900", "shelf": "reading"])
            _ = try await alice.post("/books/\(reading)/progress", ["page": "40", "read_on": "2026-03-10"])
            _ = try await alice.post("/books/\(reading)/progress", ["page": "380", "read_on": "2026-03-14"])
            // A book read with a journal and finished: its journal counts, once (300, not 300 + 300).
            let journaled = try await alice.addBook([
                "title": "Kept a Journal", "page_count": "300", "shelf": "reading",
            ])
            _ = try await alice.post("/books/\(journaled)/progress", ["page": "120", "read_on": "2026-03-02"])
            _ = try await alice.post("/books/\(journaled)/shelf", ["shelf": "read"])
            // A book finished in one tap, no journal: its 250 pages, today.
            let oneTap = try await alice.addBook(["title": "One Tap", "page_count": "250", "shelf": "reading"])
            _ = try await alice.post("/books/\(oneTap)/shelf", ["shelf": "read"])
            // Read in 2025 (imported, dated, no journal): last year's, and all time's.
            let lastYear = try await alice.addBook(["title": "Last Year", "page_count": "1000", "shelf": "read"])
            try await app.database().write { db in
                try db.execute(
                    sql: "UPDATE user_book SET started_at = '2025-06-01', finished_at = '2025-06-20' WHERE book_id = ?",
                    arguments: [lastYear])
            }
            _ = try await alice.post("/household/challenge", ["measure": "pages", "goal": "5000"])

            // 380 + 300 + 250 this year; this week (from Monday 9 March) 380 + 180 (the journal's last stretch,
            // today) + 250; all time adds last year's 1,000.
            let thisYear = 380 + 300 + 250
            let page = try await alice.get("/profile").text
            #expect(page.contains("<strong>\(thisYear)</strong> pages read"), "this year on the profile")
            #expect(page.contains("<strong>810</strong> pages this week"))
            #expect(page.contains("<strong>\(thisYear)</strong> pages this month"))
            #expect(page.contains("<strong>1,930</strong> pages read"), "all time on the profile")
            let review = try await alice.get("/profile/year/2026").text
            #expect(review.contains("<strong>\(thisYear)</strong> pages read"))
            #expect(try await alice.get("/profile/year/2025").text.contains("<strong>1,000</strong> pages read"))

            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let profile = try await api.get("/api/v1/profile?year=2026").json
            #expect(profile?["pages_read"] as? Int == thisYear, "\(String(describing: profile))")
            let challenge = try await app.database().read { db in try HouseChallengeStore.progress(db, of: 2026) }
            #expect(challenge?.contributions.first?.amount == thisYear)
        }
    }

    @Test func aRangeCountsTheSameDaysAsTheWholeJournal() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Across New Year", "page_count": "500", "shelf": "reading"])
            for (page, day) in [("100", "2025-12-20"), ("220", "2025-12-31"), ("300", "2026-01-02")] {
                _ = try await alice.post("/books/\(book)/progress", ["page": page, "read_on": day])
            }
            let (whole, year) = try await app.database().read { db in
                (try PagesRead.of(1, db), try PagesRead.of(1, from: "2026-01-01", to: "2027-01-01", db))
            }
            // 2026 begins where 2025 left the book (page 220), not at page 0.
            #expect(year.total(from: "2026-01-01", to: "2027-01-01") == 80)
            #expect(whole.total(from: "2026-01-01", to: "2027-01-01") == 80)
            #expect(whole.total(from: "2025-01-01", to: "2026-01-01") == 220)
        }
    }
}
