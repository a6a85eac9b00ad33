import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Issue 22, "feels finished in a hand": dates never stamped wrongly, staying where you were with Undo, "Saved",
/// ratings on cards, and error pages that keep the navigation.
@Suite("Finished in a hand")
struct PhoneFindingsTests {
    func entry(_ app: TestApp, _ bookID: Int64) async throws -> UserBook? {
        try await app.database().writer.read { db in try UserBook.filter(Column("book_id") == bookID).fetchOne(db) }
    }

    @Test("a book added straight to Read is not finished today: its page asks 'Finished today, or when?'")
    func addingToReadAsks() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let added = try await web.post("/books", ["title": "Read Long Ago", "shelf": "read"])
            let location = try #require(added.headers[.location])
            #expect(location == "/books/1?done=added&book=1&ask=finished")
            #expect(try await entry(app, 1)?.finishedAt == nil)
            let page = try await web.get(location).text
            #expect(page.contains("Added <em>Read Long Ago</em> to Read."))
            #expect(page.contains("Finished today, or when?"))
            #expect(page.contains(#"name="finished_at" type="date" value="2026-03-15" max="2026-03-15""#))
            let answered = try await web.post(
                "/books/1/dates", ["started_at": "", "finished_at": "2019-06-01", "return_to": "/books/1"])
            #expect(answered.headers[.location] == "/books/1?saved=dates#book-1")
            #expect(try await entry(app, 1)?.finishedAt == "2019-06-01")
        }
    }

    @Test("Want to read → Read asks for the date; Reading → Read finishes today")
    func movingToReadAsksOnlyWhenUnsure() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let wanted = try await web.addBook(["title": "Wanted"])
            let reading = try await web.addBook(["title": "Being Read", "shelf": "reading"])
            let moved = try await web.post("/books/\(wanted)/shelf", ["shelf": "read", "return_to": "/shelves"])
            #expect(moved.headers[.location]?.contains("ask=finished") == true)
            #expect(try await entry(app, wanted)?.finishedAt == nil)
            let list = try await web.get(try #require(moved.headers[.location])).text
            #expect(list.contains("Finished today, or when?"))
            let finished = try await web.post("/books/\(reading)/shelf", ["shelf": "read", "return_to": "/shelves"])
            #expect(finished.headers[.location]?.contains("ask=") == false)
            #expect(try await entry(app, reading)?.finishedAt == "2026-03-15")
        }
    }

    @Test("a card action returns to the card that took the book's place, says what it did, and Undo puts it back")
    func stayWhereYouWereWithUndo() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let first = try await web.addBook(["title": "First"])
            let dune = try await web.addBook(["title": "Dune"])
            let shelf = try await web.get("/shelves/want-to-read").text
            #expect(shelf.contains(#"<article class="card" id="book-\#(dune)">"#))
            // Newest first: Dune's neighbour is First.
            #expect(shelf.contains(#"formaction="/books/\#(dune)/shelf?near=\#(first)""#))

            let moved = try await web.post(
                "/books/\(dune)/shelf?near=\(first)", ["shelf": "reading", "return_to": "/shelves/want-to-read"])
            let location = try #require(moved.headers[.location])
            #expect(location == "/shelves/want-to-read?done=moved&book=\(dune)&from=want_to_read#book-\(first)")
            let back = try await web.get(location).text
            #expect(back.contains("Moved <em>Dune</em> to Reading."))
            #expect(back.contains(#"<input type="hidden" name="shelf" value="want_to_read">"#))
            #expect(back.contains(#"name="undo" value="1""#))
            #expect(try await entry(app, dune)?.startedAt == "2026-03-15")

            let undone = try await web.post(
                "/books/\(dune)/shelf",
                [
                    "shelf": "want_to_read", "undo": "1", "restore_started": "", "restore_finished": "",
                    "return_to": "/shelves/want-to-read#book-\(dune)",
                ])
            let undoneLocation = try #require(undone.headers[.location])
            #expect(undoneLocation.hasSuffix("#book-\(dune)"))
            let after = try await entry(app, dune)
            #expect(after?.shelf == .wantToRead && after?.startedAt == nil && after?.finishedAt == nil)
            let again = try await web.get(undoneLocation).text
            #expect(again.contains("Moved <em>Dune</em> back to Want to read."))
            #expect(!again.contains(#"name="undo""#))
        }
    }

    @Test("Undo of Reading → Read restores the start date it had, and the finish it did not")
    func undoRestoresDates() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Slow Read", "shelf": "reading"])
            try await web.post("/books/\(book)/dates", ["started_at": "2024-01-02", "finished_at": ""])
            let moved = try await web.post("/books/\(book)/shelf", ["shelf": "read", "return_to": "/"])
            let location = try #require(moved.headers[.location])
            #expect(location.contains("was_started=2024-01-02"))
            let home = try await web.get(location).text
            #expect(home.contains(#"name="restore_started" value="2024-01-02""#))
            try await web.post(
                "/books/\(book)/shelf",
                ["shelf": "reading", "undo": "1", "restore_started": "2024-01-02", "restore_finished": ""])
            let after = try await entry(app, book)
            #expect(after?.shelf == .reading && after?.startedAt == "2024-01-02" && after?.finishedAt == nil)
        }
    }

    @Test("a notice link naming someone else's book shows nothing of it")
    func noticesArePrivate() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let secret = try await alice.addBook(["title": "Alice's Secret Diary"])
            let bob = WebSession(client)
            try await bob.register("bob")
            let page = try await bob.get("/shelves?done=moved&book=\(secret)&from=read").text
            #expect(!page.contains("Secret Diary") && !page.contains("class=\"toast\""))
            let forged = try await bob.get("/profile?saved=%3Cscript%3E").text
            #expect(!forged.contains("class=\"toast\"") && !forged.contains("<script>"))
        }
    }

    @Test("saving a review or dates says Saved on the page it returns to")
    func savedNotices() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune"])
            let review = try await web.post("/books/\(book)/review", ["rating": "4", "review": "Spice."])
            #expect(review.headers[.location] == "/books/\(book)?saved=review#review-heading")
            #expect(try await web.get("/books/\(book)?saved=review").text.contains("Saved your rating and notes."))
            let dates = try await web.post("/books/\(book)/dates", ["started_at": "2024-01-02", "finished_at": ""])
            #expect(dates.headers[.location] == "/books/\(book)?saved=dates#dates-heading")
            _ = try await web.upload("/books/\(book)/photos", files: [.init(data: TestImages.png)])
            let photo = try await web.post("/photos/1", ["page_number": "5", "comment": "Fear"])
            #expect(photo.headers[.location] == "/photos/1?saved=photo")
            #expect(try await web.get("/photos/1?saved=photo").text.contains("Saved the photo."))
            #expect(!(try await web.get("/photos/1?saved=book").text.contains("class=\"toast\"")))
        }
    }

    @Test("cards show the rating as stars filled to the quarter, read out in words")
    func starsOnCards() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune", "shelf": "reading"])
            try await web.post("/books/\(book)/review", ["rating": "3.75"])
            for path in ["/shelves?sort=rating", "/", "/shelves/reading"] {
                let page = try await web.get(path).text
                #expect(page.contains(#"aria-label="Rated 3¾ out of 5"><span class="stars-on q15">"#), "\(path)")
            }
        }
    }

    @Test("rating is a star input: radio buttons for whole stars and every quarter step, no dropdown")
    func starInput() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune"])
            var page = try await web.get("/books/\(book)").text
            #expect(!page.contains(#"<select id="rating""#))
            #expect(page.components(separatedBy: #"name="rating""#).count - 1 == 21)
            #expect(page.contains(#"id="rating-none" name="rating" value="" checked"#))
            #expect(page.contains(#"<details class="star-quarters">"#))
            try await web.post("/books/\(book)/review", ["rating": "3.75"])
            page = try await web.get("/books/\(book)").text
            #expect(page.contains(#"id="rating-15" name="rating" value="3.75" checked"#))
            #expect(page.contains(#"<details class="star-quarters" open>"#))
            #expect(page.contains(#"<span class="visually-hidden">3¾ stars</span>"#))
            try await web.post("/books/\(book)/review", ["rating": "4"])
            page = try await web.get("/books/\(book)").text
            #expect(page.contains(#"id="rating-16" name="rating" value="4" checked"#))
            #expect(page.contains(#"<details class="star-quarters">"#))
        }
    }

    @Test("photo and barcode pickers offer both: take a photo (camera) or choose one already taken")
    func pickersOfferBoth() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune"])
            for path in ["/books/\(book)/photos/new", "/scan"] {
                let page = try await web.get(path).text
                #expect(
                    page.contains(#"id="photo-camera" name="photo" type="file" accept="image/*" capture="environment""#)
                )
                #expect(page.contains(#"<label for="photo">Choose from your photos</label>"#), "\(path)")
                #expect(page.contains(#"id="photo" name="photo" type="file" accept="image/*""#), "\(path)")
                #expect(!page.contains(#"id="photo" name="photo" type="file" accept="image/*" capture"#), "\(path)")
            }
        }
    }

    @Test("a form error keeps the chosen photo on the server: the corrected form is sent without choosing it again")
    func pendingUploadSurvivesAFormError() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune", "page_count": "400"])
            let refused = try await web.upload(
                "/books/\(book)/photos", fields: [("page_number", "abc"), ("comment", "Fear")],
                files: [.init(filename: "IMG_1234.jpg", data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("Kept from your last try: <strong>IMG_1234.jpg"))
            #expect(refused.text.contains(#"id="page_number" name="page_number" value="abc""#))
            #expect(refused.text.contains(">Fear</textarea>"))
            let token = try #require(refused.text.firstMatch(of: /name="pending" value="([0-9a-f]{32})"/)?.1)
            #expect(app.mediaFiles().contains { $0.hasPrefix(".pending/") })

            // Someone else cannot use the token: it finds nothing in their folder.
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobsBook = try await bob.addBook(["title": "Emma"])
            let stolen = try await bob.upload(
                "/books/\(bobsBook)/photos", fields: [("pending", String(token)), ("page_number", "3")], files: [])
            #expect(stolen.status == .unprocessableContent)
            #expect(stolen.text.contains(#"<p class="field-error" id="photo-error">Choose a photo"#))

            let stored = try await web.upload(
                "/books/\(book)/photos",
                fields: [("pending", String(token)), ("page_number", "12"), ("comment", "Fear")],
                files: [])
            #expect(stored.status == .seeOther)
            let photo = try #require(try await app.database().writer.read { db in try Photo.fetchOne(db) })
            #expect(photo.pageNumber == 12 && photo.userId == 1)
            #expect(!app.mediaFiles().contains { $0.hasPrefix(".pending/") })
            #expect(app.incomingFiles().isEmpty)
        }
    }

    @Test("kept photos expire after an hour")
    func pendingUploadsExpire() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pending-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let media = MediaStore(root: root)
        try media.prepare()
        let file = media.temporaryFile()
        try Data("x".utf8).write(to: file)
        let token = try media.keepPending([UploadedFile(url: file, bytes: 1)], userID: 1, now: Date())
        #expect(media.pendingFiles(token, userID: 1) == [.init(name: "photo 1", bytes: 1)])
        #expect(media.pendingFiles(token, userID: 2).isEmpty)
        media.removeExpiredPending(now: Date().addingTimeInterval(30 * 60))
        #expect(media.pendingFiles(token, userID: 1).count == 1)
        media.removeExpiredPending(now: Date().addingTimeInterval(2 * 60 * 60))
        #expect(media.pendingFiles(token, userID: 1).isEmpty)
    }

    @Test("small phone faults: the tab of search and scan pages, the import heading, who the shelf-scan steps address")
    func smallPhoneFaults() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            for path in ["/search", "/scan", "/scan/shelf"] {
                let page = try await web.get(path).text
                #expect(!page.contains(#"<a href="/" aria-current="page">"#), "\(path)")
                #expect(page.contains(#"<a href="/shelves" aria-current="page">"#), "\(path)")
            }
            let shelfScan = try await web.get("/scan/shelf").text
            #expect(shelfScan.contains("Ask whoever looks after the server at home"))
            #expect(shelfScan.contains("<summary>How to turn it on (for whoever runs the server)</summary>"))
            let csv = "Title,Authors,ISBN/UID,Read Status\r\nOne,A,,read\r\n"
            let uploaded = try await web.upload(
                "/import",
                files: [
                    .init(
                        field: "file", filename: "storygraph_export_2026_11_24_verylongname.csv",
                        contentType: "text/csv", data: Data(csv.utf8))
                ])
            let job = try await web.get(try #require(uploaded.headers[.location])).text
            #expect(job.contains(#"<h1 class="import-title">Import from StoryGraph</h1>"#))
            #expect(job.contains(#"<span class="import-file">storygraph_export_2026_11_24_verylongname.csv</span>"#))
        }
    }

    @Test("a page that does not exist keeps the signed-in navigation")
    func notFoundKeepsNavigation() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            for path in ["/no/such/page", "/books/99999"] {
                let page = try await web.get(path)
                #expect(page.status == .notFound)
                #expect(page.text.contains(#"<nav class="tabs" aria-label="Main">"#), "\(path)")
                #expect(page.text.contains("Sign out"), "\(path)")
            }
            #expect(try await web.get("/static/css/app.css").status == .ok)
            #expect(try await web.get("/static/nothing.css").status == .notFound)
        }
    }
}
