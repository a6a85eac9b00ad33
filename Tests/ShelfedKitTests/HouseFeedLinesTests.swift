import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// A feed worth reading (issue 36): one line a person a book a day, with the pages read that day; a book started
/// and finished the same day is only finished; the latest first within a day; an import is one line, not its
/// hundreds of dated reads; days as people say them.
@Suite struct HouseFeedLinesTests {
    @Test func oneLineAPersonABookADayTheLatestFirstAndAnImportAsOneLine() async throws {
        let app = TestApp()  // 2026-03-15, 10:00
        try await app.run { client in
            let sam = WebSession(client)
            try await sam.register("sam")
            _ = try await sam.post("/profile/sharing", ["shares": "1"])
            let dune = try await sam.addBook(["title": "Dune", "page_count": "600", "shelf": "reading"])
            try await app.database().write { db in
                try db.execute(
                    sql: "UPDATE user_book SET started_at = '2026-03-01' WHERE book_id = ?", arguments: [dune])
            }
            // Three updates yesterday, from page 40 the day before: one line, "read 80 pages".
            for (page, day) in [
                ("40", "2026-03-13"), ("70", "2026-03-14"), ("95", "2026-03-14"), ("120", "2026-03-14"),
            ] {
                _ = try await sam.post("/books/\(dune)/progress", ["page": page, "read_on": day])
            }
            // Today: a short book started and finished (only "finished"), then, later, another started.
            let short = try await sam.addBook(["title": "A Short Book", "shelf": "reading"])
            _ = try await sam.post("/books/\(short)/shelf", ["shelf": "read"])
            app.clock.advance(by: 3_600)
            _ = try await sam.addBook(["title": "The Next One", "shelf": "reading"])
            // An hour later, an import of three books read in 2019 and 2020: one line for it.
            app.clock.advance(by: 3_600)
            let csv = """
                Book Id,Title,Author,My Rating,Exclusive Shelf,Date Read\r
                1,Old One,A Writer,4,read,2019/05/01\r
                2,Old Two,A Writer,5,read,2019/06/01\r
                3,Old Three,A Writer,3,read,2020/01/01\r

                """
            let uploaded = try await sam.upload(
                "/import",
                files: [.init(field: "file", filename: "goodreads.csv", contentType: "text/csv", data: Data(csv.utf8))])
            let job = try #require(uploaded.headers[.location])
            _ = try await sam.post(job + "/confirm", [:])
            _ = try await ImportWebTests.waitForResults(sam, job)

            let bob = WebSession(client)
            try await bob.register("bob")
            let feed = try await bob.get("/house/feed").text
            let lines = feed.components(separatedBy: "<li>").dropFirst().map {
                $0.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
                    .components(separatedBy: "\n")[0]
            }
            #expect(
                lines == [
                    "today Sam brought 3 books from Goodreads",
                    "today Sam started The Next One",
                    "today Sam finished A Short Book",
                    "yesterday Sam read 80 pages of Dune",
                    "13 Mar Sam is on page 40 of Dune",
                    "1 Mar Sam started Dune",
                ], "\(lines)")

            // The API says the same, with what was read that day.
            var api = APIClient(client)
            try await api.signIn("bob@example.com")
            let items = try #require(try await api.get("/api/v1/household/feed").json?["items"] as? [[String: Any]])
            #expect(items.first?["kind"] as? String == "imported" && items.first?["books"] as? Int == 3)
            #expect(items.first?["title"] as? String == "Goodreads")
            let yesterday = try #require(items.first { $0["day"] as? String == "2026-03-14" })
            #expect(yesterday["page"] as? Int == 120 && yesterday["read_that_day"] as? Double == 80)
        }
    }

    @Test func daysReadAsPeopleSayThem() {
        #expect(HumanDay.text("2026-03-15", today: "2026-03-15") == "today")
        #expect(HumanDay.text("2026-03-14", today: "2026-03-15") == "yesterday")
        #expect(HumanDay.text("2026-02-28", today: "2026-03-01") == "yesterday")
        #expect(HumanDay.text("2026-11-03", today: "2026-11-26") == "3 Nov")
        #expect(HumanDay.text("2025-12-31", today: "2026-01-02") == "31 Dec 2025")
        #expect(HumanDay.text("not a day", today: "2026-01-02") == "not a day")
    }
}
