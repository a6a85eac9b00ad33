import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The `/import` pages through the real router, with the import runner running as the app's service.
@Suite struct ImportWebTests {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/imports/\(name)"))
    }

    static func upload(_ web: WebSession, _ name: String, contentType: String = "text/csv") async throws -> TestResponse
    {
        try await web.upload(
            "/import", files: [.init(field: "file", filename: name, contentType: contentType, data: try fixture(name))])
    }

    /// Polls the job page until the import has finished (the runner works in the background).
    static func waitForResults(_ web: WebSession, _ path: String) async throws -> String {
        for _ in 0..<1200 {
            let page = try await web.get(path)
            let html = String(buffer: page.body)
            if html.contains("id=\"results\"") { return html }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("The import did not finish")
        return ""
    }

    @Test func uploadPreviewConfirmAndResults() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let uploaded = try await Self.upload(web, "goodreads_custom_shelf.csv")
            #expect(uploaded.status == .seeOther)
            let path = try #require(uploaded.headers[.location])
            #expect(path.hasPrefix("/import/"))

            let preview = String(buffer: try await web.get(path).body)
            #expect(preview.contains("Goodreads"))
            #expect(preview.contains("10 books to import"))
            // The custom exclusive shelf is offered with Want to read chosen.
            #expect(preview.contains("“waiting” (1 book) goes to"))
            #expect(preview.contains(#"<option value="want_to_read" selected>"#))
            #expect(preview.contains("The first rows, as they will be stored"))

            let confirmed = try await web.post(path + "/confirm", ["existing": "update", "shelf_0": "reading"])
            #expect(confirmed.status == .seeOther)
            let results = try await Self.waitForResults(web, path)
            #expect(results.contains("<th scope=\"row\">Added</th><td>10</td>"))
            let reading = String(buffer: try await web.get("/shelves/reading").body)
            #expect(reading.contains("Reading"))

            // Past imports list it.
            let index = String(buffer: try await web.get("/import").body)
            #expect(index.contains("goodreads_custom_shelf.csv"))
            #expect(index.contains("10 added"))
        }
    }

    @Test func aFailedRowIsFixedInPlaceAndItsCSVCanBeDownloaded() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let csv =
                "Title,Authors,ISBN/UID,Read Status,Last Date Read\r\nGood,A,,read,2024/01/02\r\n=HYPERLINK(\"x\"),B,,read,3/4/2024\r\n"
            let uploaded = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "sg.csv", contentType: "text/csv", data: Data(csv.utf8))])
            let path = try #require(uploaded.headers[.location])
            _ = try await web.post(path + "/confirm", [:])
            let results = try await Self.waitForResults(web, path)
            #expect(results.contains("Row 3"))
            #expect(results.contains("3/4/2024"))

            let download = try await web.get(path + "/failed-rows")
            #expect(download.headers[.contentType]?.hasPrefix("text/csv") == true)
            let text = String(buffer: download.body)
            // The formula cell is neutralised; the header is the file's own plus the row and the reason.
            #expect(text.hasPrefix("Row,Problem,Title,Authors,ISBN/UID,Read Status,Last Date Read\r\n3,"))
            #expect(text.contains("\"'=HYPERLINK(\"\"x\"\")\""))

            let fixed = try await web.post(
                path + "/rows/3",
                ["cell_0": "Fixed title", "cell_1": "B", "cell_2": "", "cell_3": "read", "cell_4": "2024-03-04"])
            #expect(fixed.status == .seeOther)
            let after = String(buffer: try await web.get(path).body)
            #expect(after.contains("<th scope=\"row\">Added</th><td>2</td>"))
            #expect(after.contains("<th scope=\"row\">Failed</th><td>0</td>"))
            let read = String(buffer: try await web.get("/shelves/read").body)
            #expect(read.contains("Fixed title"))
        }
    }

    @Test func datesThatCouldBeEitherOrderAreAskedAboutOnceForTheWholeFile() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let csv =
                "Title,Authors,ISBN/UID,Read Status,Last Date Read\r\nOne,A,,read,3/4/2024\r\nTwo,B,,read,5/6/2024\r\n"
            let uploaded = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "sg.csv", contentType: "text/csv", data: Data(csv.utf8))])
            let path = try #require(uploaded.headers[.location])
            let preview = String(buffer: try await web.get(path).body)
            #expect(preview.contains("How does this file write its dates?"))
            #expect(preview.contains("3/4/2024 is 4 March 2024") && preview.contains("3/4/2024 is 3 April 2024"))
            #expect(preview.contains("2 rows need a fix"))
            #expect(try await web.post(path + "/date-order", ["order": "sideways"]).status == .badRequest)
            #expect(try await web.post(path + "/date-order", ["order": "day-first"]).status == .seeOther)
            let answered = String(buffer: try await web.get(path).body)
            #expect(!answered.contains("How does this file write its dates?"))
            #expect(answered.contains("2 books to import") && !answered.contains("need a fix"))
            #expect(answered.contains("2024-04-03") && answered.contains("2024-06-05"))
            _ = try await web.post(path + "/confirm", [:])
            _ = try await Self.waitForResults(web, path)
            let other = WebSession(client)
            _ = try await other.register("bea")
            #expect(try await other.post(path + "/date-order", ["order": "day-first"]).status == .notFound)
        }
    }

    @Test func anUnknownCSVAsksForItsColumns() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let csv = "Name of book,Writer,Finished on\nA Wizard of Earthsea,Ursula K. Le Guin,2023-08-01\n"
            let uploaded = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "mine.csv", contentType: "text/csv", data: Data(csv.utf8))])
            let path = try #require(uploaded.headers[.location])
            let page = String(buffer: try await web.get(path).body)
            #expect(page.contains("Which column is which?"))
            // A guess from the header names is preselected.
            #expect(page.contains(#"<option value="Writer" selected>"#))
            let refused = try await web.post(path + "/columns", ["title": ""])
            #expect(refused.status == .unprocessableContent)
            #expect(String(buffer: refused.body).contains("Choose the column that holds each book"))
            _ = try await web.post(
                path + "/columns", ["title": "Name of book", "author": "Writer", "date_read": "Finished on"])
            let preview = String(buffer: try await web.get(path).body)
            #expect(preview.contains("1 book to import"))
            #expect(preview.contains("2023-08-01"))
        }
    }

    @Test func badUploadsGetAClearAnswerAndOtherPeoplesJobsAre404() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let empty = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "x.csv", contentType: "text/csv", data: Data("\n\n".utf8))])
            #expect(empty.status == .unprocessableContent)
            #expect(String(buffer: empty.body).contains("empty or is not a CSV"))
            let uploaded = try await Self.upload(web, "goodreads_shelves_and_lists.csv")
            let path = try #require(uploaded.headers[.location])

            let other = WebSession(client)
            _ = try await other.register("bob")
            #expect(try await other.get(path).status == .notFound)
            #expect(try await other.get(path + "/events").status == .notFound)
            #expect(try await other.get(path + "/failed-rows").status == .notFound)
            #expect(try await other.post(path + "/confirm", [:]).status == .notFound)
            #expect(try await other.post(path + "/cancel", [:]).status == .notFound)
            #expect(try await web.get("/import/not-a-job").status == .notFound)
            // Without the form's token nothing is received.
            let forged = try await web.upload(
                "/import",
                files: [.init(field: "file", filename: "x.csv", contentType: "text/csv", data: Data("a\n".utf8))],
                csrf: String(repeating: "0", count: 64))
            #expect(forged.status == .forbidden)
        }
    }

    @Test func progressStreamsAsServerSentEventsAndEndsWithTheFinalEvent() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let uploaded = try await Self.upload(web, "goodreads_shelves_and_lists.csv")
            let path = try #require(uploaded.headers[.location])
            _ = try await web.post(path + "/confirm", [:])
            _ = try await Self.waitForResults(web, path)
            let events = try await web.get(path + "/events")
            #expect(events.headers[.contentType]?.hasPrefix("text/event-stream") == true)
            let text = String(buffer: events.body)
            #expect(text.contains("event: completed\n"))
            #expect(text.contains("\"status\":\"completed\""))
            #expect(!text.contains("event: progress"))
        }
    }
}

/// What an import brings is visible and editable: rating, review and notes on the book page, sorting by rating,
/// and read books without a date counted apart on the profile.
@Suite struct ImportedDataVisibilityTests {
    @Test func ratingsReviewsNotesAndUndatedReadsShow() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let profileBefore = String(buffer: try await web.get("/profile").body)
            #expect(!profileBefore.contains("read, date unknown"))
            let uploaded = try await ImportWebTests.upload(web, "goodreads_library_export.csv")
            let path = try #require(uploaded.headers[.location])
            _ = try await web.post(path + "/confirm", [:])
            _ = try await ImportWebTests.waitForResults(web, path)

            // The file has 16 read books, 8 of them without a Date Read.
            let profile = String(buffer: try await web.get("/profile").body)
            #expect(profile.contains("<strong>8</strong> read, date unknown"))
            #expect(profile.contains("<strong>16</strong> books read"))

            // Sorting by rating puts the three 5-star books first (the file rates 3 books 5 and 6 books 4).
            let byRating = String(buffer: try await web.get("/shelves/read?sort=rating&order=desc").body)
            #expect(byRating.contains(#"<option value="rating" selected>"#))
            let fiveStars = [
                "Los caminos torcidos del río", "The Seven Winters of Ada Quill", "The Long Ride Home",
            ]
            let firstFourStar = try #require(byRating.range(of: "The Convenience of Small Hours")).lowerBound
            for title in fiveStars {
                #expect(try #require(byRating.range(of: title)).lowerBound < firstFourStar, "\(title)")
            }

            // The book page shows the imported rating and takes a review and private notes.
            let link = try #require(byRating.firstMatch(of: /href="(\/books\/\d+)">The Convenience of Small Hours/)).1
            let book = String(buffer: try await web.get(String(link)).body)
            #expect(book.contains(#"id="rating-16" name="rating" value="4" checked"#))
            let saved = try await web.post(
                String(link) + "/review",
                ["rating": "3.75", "review": "Quiet and strange.", "private_notes": "Lend to Bo"])
            #expect(saved.status == .seeOther)
            let after = String(buffer: try await web.get(String(link)).body)
            #expect(after.contains(#"id="rating-15" name="rating" value="3.75" checked"#))
            #expect(after.contains(">Quiet and strange.</textarea>") && after.contains(">Lend to Bo</textarea>"))

            // A bad rating is refused with the typed text kept.
            let refused = try await web.post(
                String(link) + "/review", ["rating": "3.3", "review": "Kept <b>as typed</b>", "private_notes": ""])
            #expect(refused.status == .unprocessableContent)
            let page = String(buffer: refused.body)
            #expect(page.contains("Choose a rating from ½ to 5 stars"))
            #expect(page.contains("Kept &lt;b&gt;as typed&lt;/b&gt;</textarea>"))
        }
    }
}
