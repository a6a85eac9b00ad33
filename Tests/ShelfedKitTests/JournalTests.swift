import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Reading progress and the journal (issue 24): updates from the book page and the home page, what a person
/// would expect of odd input, editing and deleting entries, finishing, and the pages read and streak they add up to.
/// Today is 2026-03-15 (a Sunday) on the test clock.
@Suite struct JournalTests {
    static func journal(_ app: TestApp, book: Int64) throws -> [Row] {
        try app.database().writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT journal_entry.* FROM journal_entry JOIN user_book ON user_book.id = journal_entry.user_book_id
                    WHERE user_book.book_id = ? ORDER BY journal_entry.id
                    """, arguments: [book])
        }
    }

    static func entry(_ app: TestApp, book: Int64) throws -> Row {
        try #require(
            try app.database().writer.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM user_book WHERE book_id = ?", arguments: [book])
            })
    }

    @Test func progressFromTheBookPageWithAJournalEditedAndDeleted() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Middlemarch", "page_count": "880", "shelf": "want_to_read"])
            let page = try await web.get("/books/\(book)").text
            // Not started: the page offers to start it, and no progress form (issue 36).
            #expect(page.contains(">Start reading</button>") && !page.contains(#"id="page""#))

            // A page on a Want-to-read book starts it, on the day given.
            let saved = try await web.post(
                "/books/\(book)/progress", ["page": "120", "read_on": "2026-03-10", "note": "Dorothea marries."])
            #expect(saved.status == .seeOther)
            #expect(saved.headers[.location]?.contains("saved=progress") == true)
            var entry = try Self.entry(app, book: book)
            #expect(entry["shelf"] as String == "reading" && entry["started_at"] as String? == "2026-03-10")
            #expect(entry["current_page"] as Int? == 120)

            // An earlier day moves the start back; going backwards is kept as typed; the latest day wins.
            _ = try await web.post("/books/\(book)/progress", ["page": "40", "read_on": "2026-03-08"])
            _ = try await web.post("/books/\(book)/progress", ["page": "300"])
            _ = try await web.post("/books/\(book)/progress", ["page": "280", "note": "Re-read a chapter."])
            entry = try Self.entry(app, book: book)
            #expect(entry["started_at"] as String? == "2026-03-08")
            #expect(entry["current_page"] as Int? == 280)
            let shown = try await web.get("/books/\(book)").text
            #expect(shown.contains("Page 280 of 880 · 32 %"))
            #expect(shown.contains("<progress max=\"100\" value=\"32\""))
            // Newest first: today's two, then the 10th, then the 8th.
            let order = ["Re-read a chapter.", "Page 300", "Dorothea marries.", "2026-03-08"].map {
                shown.range(of: $0)?.lowerBound
            }
            #expect(order.allSatisfy { $0 != nil })
            #expect(zip(order, order.dropFirst()).allSatisfy { $0! < $1! })

            // Refused input re-renders the page with the text kept and a message; nothing is written.
            for (fields, message) in [
                (["page": "881"], "This book has 880 pages."),
                (["page": "-3"], "Type the page number as a whole number"),
                (["page": "99999999999999999999"], "Type the page number as a whole number"),
                (["page": ""], "Say which page you are on."),
                (["page": "12", "percent": "5"], "Give a page or a percent, not both."),
                (["page": "12", "read_on": "2026-03-16"], "That day is still to come"),
                (["page": "12", "read_on": "2026-02-30"], "Use a date like 2024-03-17."),
                (["page": "12", "read_on": "0001-01-01"], "a journal starts in 1900 at the earliest"),
                (["page": "12", "note": String(repeating: "n", count: 2_001)], "A note can be at most 2000"),
                (["page": "12", "note": "bell\u{7}"], "control characters"),
            ] {
                let refused = try await web.post("/books/\(book)/progress", fields)
                #expect(refused.status == .unprocessableContent, "\(fields)")
                #expect(refused.text.contains(message), "\(fields)")
                if let page = fields["page"], !page.isEmpty, page.count < 10 {
                    #expect(refused.text.contains("value=\"\(page)\""), "\(fields)")
                }
            }
            #expect(try Self.journal(app, book: book).count == 4)

            // Edit the entry of the 10th, then delete the one of the 8th after being asked.
            let rows = try Self.journal(app, book: book)
            let tenth = try #require(rows.first { $0["read_on"] as String == "2026-03-10" })["id"] as Int64
            let eighth = try #require(rows.first { $0["read_on"] as String == "2026-03-08" })["id"] as Int64
            let form = try await web.get("/journal/\(tenth)")
            #expect(
                form.status == .ok && form.text.contains("value=\"120\"") && form.text.contains("Dorothea marries."))
            let refusedEdit = try await web.post("/journal/\(tenth)", ["page": "900", "read_on": "2026-03-10"])
            #expect(refusedEdit.status == .unprocessableContent && refusedEdit.text.contains("value=\"900\""))
            let edited = try await web.post(
                "/journal/\(tenth)", ["page": "150", "read_on": "2026-03-11", "note": "Lydgate arrives."])
            #expect(edited.status == .seeOther)
            #expect(try Self.journal(app, book: book).contains { $0["note"] as String? == "Lydgate arrives." })
            // A cleared date keeps the entry's day instead of moving it to today.
            _ = try await web.post("/journal/\(tenth)", ["page": "151", "read_on": "", "note": "Lydgate arrives."])
            #expect(
                try Self.journal(app, book: book).contains {
                    $0["page"] as Int? == 151 && $0["read_on"] as String == "2026-03-11"
                })
            let ask = try await web.get("/journal/\(eighth)/delete")
            #expect(ask.text.contains("Delete this journal entry?") && ask.text.contains("2026-03-08: page 40"))
            #expect(try await web.post("/journal/\(eighth)/delete").status == .seeOther)
            #expect(try Self.journal(app, book: book).count == 3)

            // Finishing puts the page at the last, with the last stretch in the journal; no more updates then.
            _ = try await web.post("/books/\(book)/shelf", ["shelf": "read"])
            entry = try Self.entry(app, book: book)
            #expect(entry["current_page"] as Int? == 880)
            let last = try #require(try Self.journal(app, book: book).last)
            #expect(last["page"] as Int? == 880 && last["read_on"] as String == "2026-03-15")
            let afterwards = try await web.post("/books/\(book)/progress", ["page": "10"])
            #expect(afterwards.status == .unprocessableContent && afterwards.text.contains("You finished this book"))
        }
    }

    @Test func anotherPersonsBookOrEntryIsNotFound() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Persuasion", "shelf": "reading"])
            _ = try await alice.post("/books/\(book)/progress", ["page": "12"])
            let entryID = try #require(try Self.journal(app, book: book).first)["id"] as Int64
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/books/\(book)/progress", ["page": "13"]).status == .notFound)
            #expect(try await bob.get("/journal/\(entryID)").status == .notFound)
            #expect(try await bob.post("/journal/\(entryID)", ["page": "1"]).status == .notFound)
            #expect(try await bob.get("/journal/\(entryID)/delete").status == .notFound)
            #expect(try await bob.post("/journal/\(entryID)/delete").status == .notFound)
            for id in ["0", "-1", "abc", "99999999999999999999999"] {
                #expect(try await alice.get("/journal/\(id)").status == .notFound)
            }
            #expect(try Self.journal(app, book: book).count == 1)
            // Without the form's token nothing is written.
            #expect(try await alice.post("/books/\(book)/progress", ["page": "20"], csrf: "wrong").status == .forbidden)
        }
    }

    @Test func eBooksAreUpdatedInPercentAndTheHomePageUpdatesInOneTap() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let paper = try await web.addBook(["title": "Emma", "page_count": "400", "shelf": "reading"])
            let ebook = try await web.addBook(["title": "Dune", "page_count": "600", "shelf": "reading"])
            try await app.database().write { db in
                try db.execute(sql: "UPDATE user_book SET format = 'ebook' WHERE book_id = ?", arguments: [ebook])
            }
            let home = try await web.get("/").text
            #expect(home.contains("id=\"page-\(paper)\"") && home.contains("id=\"percent-\(ebook)\""))
            #expect(home.contains("Finished it"))
            let update = try await web.post("/books/\(paper)/progress", ["page": "100", "return_to": "/"])
            #expect(update.headers[.location]?.hasPrefix("/?saved=progress") == true)
            #expect(update.headers[.location]?.hasSuffix("#progress-\(paper)") == true)
            _ = try await web.post("/books/\(ebook)/progress", ["percent": "45.55%", "return_to": "/"])
            #expect(try Self.entry(app, book: ebook)["current_percent"] as Double? == 45.6)
            let after = try await web.get("/").text
            #expect(after.contains("Page 100 of 400 · 25 %") && after.contains("45.6 %"))
            #expect(try await web.post("/books/\(ebook)/progress", ["percent": "101"]).text.contains("from 0 to 100"))
            #expect(try await web.post("/books/\(ebook)/progress", ["percent": "1e2"]).text.contains("from 0 to 100"))
            // Both given on a book read by percent: said beside the percent field, the one the form shows.
            let both = try await web.post("/books/\(ebook)/progress", ["page": "30", "percent": "40"])
            #expect(both.status == .unprocessableContent && both.text.contains("Give a page or a percent, not both."))
            // A decimal comma is read as a point, and 99.96 % is not rounded up to a finished book.
            _ = try await web.post("/books/\(ebook)/progress", ["percent": "55,5"])
            #expect(try Self.entry(app, book: ebook)["current_percent"] as Double? == 55.5)
            _ = try await web.post("/books/\(ebook)/progress", ["percent": "99.96"])
            #expect(try Self.entry(app, book: ebook)["current_percent"] as Double? == 99.9)
            let bookPage = try await web.get("/books/\(ebook)").text
            #expect(bookPage.contains("How far, in percent") && !bookPage.contains("I'm on page"))
        }
    }

    @Test func pagesReadPerWeekAndMonthAndTheStreak() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let emma = try await web.addBook(["title": "Emma", "page_count": "400", "shelf": "reading"])
            let dune = try await web.addBook(["title": "Dune", "page_count": "600", "shelf": "reading"])
            // Emma: 50 on the 13th (Friday), 120 on the 14th, back to 100 on the 15th (a re-read: nothing counts).
            for (page, day) in [("50", "2026-03-13"), ("120", "2026-03-14"), ("100", "2026-03-15")] {
                _ = try await web.post("/books/\(emma)/progress", ["page": page, "read_on": day])
            }
            // Dune: 30 on the 2nd (the week before), then 10 % (60 pages) on the 14th: 30 more.
            _ = try await web.post("/books/\(dune)/progress", ["page": "30", "read_on": "2026-03-02"])
            _ = try await web.post("/books/\(dune)/progress", ["percent": "10", "read_on": "2026-03-14"])
            let statistics = try await StatisticsStore(db: app.database()).journal(of: 1, today: "2026-03-15")
            #expect(statistics.pagesThisWeek == 150)  // Mon 9th – Sun 15th: 50 + 70 + 30
            #expect(statistics.weeks.suffix(2).map(\.pages) == [30, 150])
            #expect(statistics.weeks.last?.start == "2026-03-09")
            #expect(statistics.pagesThisMonth == 180)
            #expect(statistics.streak == 3)  // the 13th, 14th and 15th
            // Tomorrow without an update yet keeps it; the day after breaks it.
            #expect(try await StatisticsStore(db: app.database()).journal(of: 1, today: "2026-03-16").streak == 3)
            #expect(try await StatisticsStore(db: app.database()).journal(of: 1, today: "2026-03-17").streak == 0)
            let profile = try await web.get("/profile").text
            #expect(profile.contains("From your reading journal") && profile.contains("A 3-day reading streak."))
            #expect(profile.contains("<strong>150</strong> pages this week"))

            // The my-data download carries the journal of each book, oldest first.
            let export = try MyDataStore(db: app.database()).export(of: 1)
            let emmaEntry = try #require(export.books.first { $0.title == "Emma" })
            #expect(emmaEntry.journal.map(\.page) == [50, 120, 100] && emmaEntry.currentPage == 100)
            #expect(export.books.first { $0.title == "Dune" }?.journal.last?.percent == 10)
        }
    }

    @Test func reachingTheLastPageOffersToMarkTheBookRead() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Middlemarch", "page_count": "880", "shelf": "reading"])
            let saved = try await web.post("/books/\(book)/progress", ["page": "880"])
            let location = try #require(saved.headers[.location])
            #expect(location.hasPrefix("/books/\(book)?done=last-page&book=\(book)"))
            let page = try await web.get(location).text
            #expect(page.contains("that is the end of <em>Middlemarch</em>. Finished it?"))
            #expect(page.contains(#"<input type="hidden" name="shelf" value="read">"#) && page.contains("Mark it read"))
            #expect(try Self.entry(app, book: book)["shelf"] as String == "reading")
            _ = try await web.post("/books/\(book)/shelf", ["shelf": "read"])
            #expect(try Self.entry(app, book: book)["shelf"] as String == "read")
            // Once read, the same link only says it was saved; a page short of the end says so plainly.
            #expect(!(try await web.get(location).text.contains("Mark it read")))
            let other = try await web.addBook(["title": "Emma", "page_count": "400", "shelf": "reading"])
            let partWay = try await web.post("/books/\(other)/progress", ["page": "399"])
            #expect(partWay.headers[.location]?.hasPrefix("/books/\(other)?saved=progress") == true)
        }
    }

    @Test func aTypoPutRightTheSameDayCountsOnlyThePagesRead() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Middlemarch", "page_count": "100", "shelf": "reading"])
            // "90" was meant to be "9"; later that day the reader was on page 20; the next day on 30.
            for (page, day) in [("90", "2026-03-10"), ("9", "2026-03-10"), ("20", "2026-03-10"), ("30", "2026-03-11")] {
                #expect(
                    try await web.post("/books/\(book)/progress", ["page": page, "read_on": day]).status == .seeOther)
            }
            let statistics = try await StatisticsStore(db: app.database()).journal(of: 1, today: "2026-03-11")
            #expect(statistics.pagesThisWeek == 30)
            #expect(statistics.weeks.last?.pages == 30)
        }
    }
}

/// "Read it again" (issue 24): the finished read is kept, a new one starts today, and the book counts in each year
/// it was finished.
@Suite struct ReReadTests {
    @Test func aReReadKeepsTheFirstReadAndCountsInBothYears() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Persuasion", "page_count": "250", "shelf": "read"])
            _ = try await web.post("/books/\(book)/dates", ["started_at": "2025-06-01", "finished_at": "2025-06-20"])
            let page = try await web.get("/books/\(book)").text
            #expect(page.contains("Read it again") && page.contains("/books/\(book)/read-again"))

            let again = try await web.post("/books/\(book)/read-again")
            #expect(again.headers[.location]?.contains("saved=read-again") == true)
            let entry = try JournalTests.entry(app, book: book)
            #expect(entry["shelf"] as String == "reading" && entry["started_at"] as String? == "2026-03-15")
            #expect(entry["finished_at"] as String? == nil)
            let reading = try await web.get("/books/\(book)").text
            #expect(reading.contains("Earlier reads") && reading.contains("2025-06-20"))
            _ = try await web.post("/books/\(book)/progress", ["page": "100"])

            // Finished again five days later: it counts in 2025 and in 2026, once each.
            app.clock.advance(by: 5 * 24 * 3_600)
            _ = try await web.post("/books/\(book)/shelf", ["shelf": "read"])
            let statistics = StatisticsStore(db: try app.database())
            #expect(try await statistics.year(2025, of: 1).booksFinished == 1)
            #expect(try await statistics.year(2026, of: 1).booksFinished == 1)
            #expect(try await statistics.year(2026, of: 1).pagesRead == 250)
            let allTime = try await statistics.allTime(of: 1)
            #expect(allTime.perYear.map(\.year) == [2025, 2026] && allTime.perYear.map(\.books) == [1, 1])
            #expect(allTime.readWithoutDate == 0)

            // A book not finished cannot be read again; another person's is not found.
            let other = try await web.addBook(["title": "Emma", "shelf": "reading"])
            #expect(try await web.post("/books/\(other)/read-again").headers[.location] == "/books/\(other)")
            #expect(try JournalTests.entry(app, book: other)["shelf"] as String == "reading")
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/books/\(book)/read-again").status == .notFound)

            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let viaAPI = try await api.send(.post, "/api/v1/books/\(book)/read-again")
            #expect(viaAPI.status == .ok)
            #expect(((viaAPI.json?["book"] as? [String: Any])?["shelf_id"] as? Int) == Shelf.reading.readerID)
            #expect(try await api.send(.post, "/api/v1/books/\(other)/read-again").status == .conflict)
            // Both finished reads are kept; the second read-again kept the 2026 one.
            #expect(try await statistics.year(2026, of: 1).booksFinished == 1)
        }
    }
}

extension ReReadTests {
    /// A finished book put back on Want to read keeps its dates; a page logged on it starts a new read and keeps
    /// the finished one.
    @Test func progressOnAFinishedBookPutBackKeepsItsRead() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Emma", "page_count": "400", "shelf": "read"])
            _ = try await web.post("/books/\(book)/dates", ["started_at": "2025-01-02", "finished_at": "2025-02-03"])
            _ = try await web.post("/books/\(book)/shelf", ["shelf": "want_to_read"])
            _ = try await web.post("/books/\(book)/progress", ["page": "12"])
            let entry = try JournalTests.entry(app, book: book)
            #expect(entry["shelf"] as String == "reading" && entry["finished_at"] as String? == nil)
            #expect(entry["started_at"] as String? == "2026-03-15")
            #expect(try await StatisticsStore(db: app.database()).year(2025, of: 1).booksFinished == 1)
        }
    }
}

@Suite struct JournalCalendarTests {
    /// The statistics count days by arithmetic; it must agree with the calendar on every day, leap years too.
    @Test func dayNumbersAgreeWithTheCalendar() {
        #expect(JournalStatistics.dayNumber("1970-01-01") == 0)
        #expect(JournalStatistics.dayNumber("2000-03-01") == 11_017)
        #expect(JournalStatistics.dayNumber("2026-02-30") == nil)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(from: DateComponents(year: 1899, month: 12, day: 25))!
        for offset in stride(from: 0, to: 80_000, by: 37) {
            let date = calendar.date(byAdding: .day, value: offset, to: start)!
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let text = String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
            let number = JournalStatistics.dayNumber(text)
            #expect(number == Int(date.timeIntervalSince1970 / 86_400), "\(text)")
            #expect(number.map(JournalStatistics.day) == text)
        }
    }
}
