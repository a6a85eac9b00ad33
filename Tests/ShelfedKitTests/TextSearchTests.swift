import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The words on page photos (read by tesseract in the background, editable) and full-text search over one's own
/// quotes and library, never anyone else's.
@Suite struct TextSearchTests {
    /// Registers `name`, adds a book and a page photo of it; returns the book and photo ids.
    static func photoOfAPage(_ web: WebSession, _ name: String, title: String, comment: String = "")
        async throws -> (book: Int64, photo: Int64)
    {
        try await web.register(name)
        let book = try await web.addBook(["title": title, "authors": "Herman Melville", "page_count": "600"])
        let uploaded = try await web.upload(
            "/books/\(book)/photos", fields: [("page_number", "12"), ("comment", comment)],
            files: [.init(data: try TestImages.fixture("Portrait_1.jpg"))])
        let photo = try #require(uploaded.headers[.location].flatMap { Int64($0.split(separator: "/").last ?? "") })
        return (book, photo)
    }

    /// Stands in for what tesseract read, as the reader stores it.
    static func read(_ text: String, photo: Int64, in app: TestApp) throws {
        try app.database().writer.write { db in
            try db.execute(
                sql: "UPDATE photo SET ocr_text = ?, ocr_status = 'done' WHERE id = ?",
                arguments: [PhotoText.cleaned(text), photo])
        }
    }

    @Test func searchQueriesCannotSpeakFTS5() {
        #expect(TextSearchStore.ftsQuery("call me Ishmael") == "\"call\" \"me\" \"Ishmael\"*")
        #expect(
            TextSearchStore.ftsQuery("\"a\" OR b* NEAR(c d) -e ^f:g")
                == "\"a\" \"OR\" \"b\" \"NEAR\" \"c\" \"d\" \"e\" \"f\" \"g\"*")
        #expect(TextSearchStore.ftsQuery("  \"*()-^:  ") == nil)
        #expect(TextSearchStore.ftsQuery("Café Ünïcode 東京") == "\"Café\" \"Ünïcode\" \"東京\"*")
    }

    @Test func ocrTextIsPlainBoundedText() {
        #expect(
            PhotoText.cleaned("  Call me\u{0}\u{7}  \r\n\n\n\nIshmael.\u{E000}\u{202E}  \n\u{0C}\n")
                == "Call me\n\nIshmael.\u{202E}")
        #expect(PhotoText.cleaned(String(repeating: "word ", count: 10_000)).count == PhotoText.maxCharacters)
        #expect(
            TextSearchStore.highlighted("a \u{E000}<b>\u{E001} \"c\u{0301}\" \u{E000}d").html
                == "a <mark>&lt;b&gt;</mark> &quot;c\u{0301}&quot; d")
    }

    @Test func quotesAreFoundOnlyByTheirOwner() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            let (_, photo) = try await Self.photoOfAPage(alice, "alice", title: "Moby-Dick", comment: "Whales!")
            try Self.read("Call me <script>alert(1)</script> Ishmael. Some years ago", photo: photo, in: app)
            let found = try await alice.get("/quotes?q=ishm")
            #expect(found.status == .ok)
            #expect(found.text.contains("Moby-Dick"))
            #expect(found.text.contains("<mark>Ishmael</mark>"))
            #expect(found.text.contains("&lt;script&gt;"))
            #expect(!found.text.contains("<script>alert"))
            #expect(found.text.contains("/photos/\(photo)/thumb"))
            #expect(try await alice.get("/quotes?q=whales").text.contains("Moby-Dick"))  // comments count too
            #expect(try await alice.get("/quotes?q=%22%29%28%2A").status == .ok)  // FTS5 syntax is only text
            #expect(try await alice.get("/quotes?q=NEAR%28a+b%29+OR").status == .ok)

            let bob = WebSession(client)
            let (_, bobPhoto) = try await Self.photoOfAPage(bob, "bob", title: "Moby-Dick")
            try Self.read("Ahab's leg", photo: bobPhoto, in: app)
            let bobs = try await bob.get("/quotes?q=ishmael")
            #expect(bobs.text.contains("None of your page photos"))
            #expect(!bobs.text.contains("/photos/\(photo)"))
            let alicesAhab = try await alice.get("/quotes?q=ahab")
            #expect(!alicesAhab.text.contains("/photos/\(bobPhoto)"))

            // A deleted photo leaves the index with its row.
            #expect(try await alice.post("/photos/\(photo)/delete").status == .seeOther)
            #expect(try await alice.get("/quotes?q=ishmael").text.contains("None of your page photos"))
        }
    }

    @Test func whileWaitingThePageSaysSoUnlessNothingReadsOnThisServer() {
        var photo = Photo(
            id: 1, userId: 1, bookId: 1, originalPath: "", displayPath: "", thumbPath: "", width: 1, height: 1,
            bytes: 1, sha256: nil, contentType: "image/jpeg", pageNumber: nil, comment: nil, takenAt: nil,
            createdAt: Date(), ocrStatus: "pending")
        #expect(
            PhotoController.textStatusMessage(photo, readsText: true)?.contains("Reading the words on this page")
                == true)
        #expect(!PhotoController.textIsSettled(photo.ocrStatus))
        #expect(PhotoController.textStatusMessage(photo, readsText: false)?.contains("does not read the words") == true)
        photo.ocrStatus = "done"
        #expect(PhotoController.textStatusMessage(photo, readsText: true)?.contains("No words were found") == true)
        photo.ocrText = "Call me Ishmael."
        #expect(PhotoController.textStatusMessage(photo, readsText: true) == nil)
        photo.ocrStatus = "failed"
        #expect(PhotoController.textStatusMessage(photo, readsText: true)?.contains("could not be read") == true)
    }

    @Test func thePhotoPageShowsTheWordsAndTheOwnerCorrectsThem() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let (_, photo) = try await Self.photoOfAPage(web, "alice", title: "Moby-Dick")
            // This test app reads nothing in the background, so the page offers to type the words at once.
            let waiting = try await web.get("/photos/\(photo)")
            #expect(waiting.text.contains("does not read the words on photos"))
            #expect(waiting.text.contains("name=\"text\""))

            try Self.read("Cal1 me lshmael.", photo: photo, in: app)
            let read = try await web.get("/photos/\(photo)")
            #expect(read.text.contains("Cal1 me lshmael."))
            #expect(read.text.contains("name=\"text\""))
            // Saving the page number leaves the words as they were read.
            _ = try await web.post(
                "/photos/\(photo)", ["page_number": "13", "comment": "", "text": "Cal1 me lshmael."])
            let status = try await app.database().writer.read { db in
                try String.fetchOne(db, sql: "SELECT ocr_status FROM photo WHERE id = ?", arguments: [photo])
            }
            #expect(status == "done")
            let fixed = try await web.post(
                "/photos/\(photo)", ["page_number": "13", "comment": "", "text": "Call me Ishmael.\u{0}"])
            #expect(fixed.status == .seeOther)
            let stored = try await app.database().writer.read { db in
                try Row.fetchOne(db, sql: "SELECT ocr_text, ocr_status FROM photo WHERE id = ?", arguments: [photo])
            }
            #expect(stored?["ocr_text"] == "Call me Ishmael.")
            #expect(stored?["ocr_status"] == "edited")
            #expect(try await web.get("/quotes?q=ishmael").text.contains("<mark>Ishmael</mark>"))
            let misread = try await web.get("/quotes?q=lshmael")
            #expect(!misread.text.contains("/photos/\(photo)/thumb"))
            let tooLong = try await web.post(
                "/photos/\(photo)", ["page_number": "13", "text": String(repeating: "a", count: 20_001)])
            #expect(tooLong.status == .unprocessableContent)
            #expect(tooLong.text.contains("Keep the text to 20000 characters"))
        }
    }

    @Test func tesseractReadsInTheBackgroundAndEditsWin() async throws {
        // Reading the photos can take minutes on a loaded test machine (TestApp keeps the connection open meanwhile).
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let (_, first) = try await Self.photoOfAPage(web, "alice", title: "Moby-Dick")
            let uploaded = try await web.upload(
                "/books/\(1)/photos", files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            let second = try #require(
                uploaded.headers[.location].flatMap { Int64($0.split(separator: "/").last ?? "") })
            #expect(try await TextSearchStore(db: app.database()).setText("Typed by hand", ofPhoto: second, userID: 1))
            let reader = PhotoTextReader(
                db: try app.database(), media: MediaStore(root: app.config.mediaDirectory),
                recognizer: TextRecognizer(), logger: .init(label: "test"))
            #expect(reader.recognizer.isAvailable, "tesseract-ocr is installed by make system-deps")
            try await reader.runUntilIdle()
            let rows = try await app.database().writer.read { db in
                try Row.fetchAll(db, sql: "SELECT id, ocr_text, ocr_status FROM photo ORDER BY id")
            }
            #expect(
                rows.map { $0["ocr_status"] as String? } == ["done", "edited"]
                    || rows.map { $0["ocr_status"] as String? } == ["failed", "edited"])
            #expect(rows.first?["id"] == first)
            #expect(rows.last?["ocr_text"] == "Typed by hand")
            // A profile picture is never queued.
            let avatar = try await web.upload(
                "/profile/avatar", files: [.init(data: try TestImages.fixture("Portrait_1.jpg"))])
            #expect(avatar.status == .seeOther)
            #expect(try await reader.readNext() == false)
        }
    }

    @Test func theLibraryIsSearchedByTitleAuthorDescriptionAndReview() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(
                [
                    "title": "Moby-Dick", "authors": "Herman Melville",
                    "description": "A whaling voyage out of Nantucket.",
                ])
            _ = try await alice.addBook(["title": "Emma", "authors": "Jane Austen"])
            #expect(try await alice.get("/library/search?q=nantucket").text.contains("/books/\(book)"))
            #expect(try await alice.get("/library/search?q=melv").text.contains("<mark>Melville</mark>"))
            _ = try await alice.post(
                "/books/\(book)/review", ["rating": "", "review": "Too many cetology chapters", "private_notes": ""])
            #expect(try await alice.get("/library/search?q=cetology").text.contains("Moby-Dick"))
            let emmaOnly = try await alice.get("/library/search?q=austen")
            #expect(emmaOnly.text.contains("Emma") && !emmaOnly.text.contains("/books/\(book)"))

            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.get("/library/search?q=cetology").text.contains("Nothing in your library mentions"))
            #expect(try await bob.get("/library/search?q=moby").text.contains("Nothing in your library mentions"))
            #expect(try await alice.get("/shelves").text.contains("href=\"/library/search\""))
        }
    }

    @Test func theAPIGivesPhotosTheirTextAndSearchesQuotes() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let api = try await LibraryAPITests.signedIn(client)
            let book = try #require(
                (try await api.send(.post, "/api/v1/books", json: ["title": "Moby-Dick"]).json?["book"]
                    as? [String: Any])?["id"]
                    as? Int64)
            let created = try await api.upload(
                "/api/v1/books/\(book)/photos", files: [.init(data: try TestImages.fixture("Portrait_1.jpg"))])
            let photo = try #require((created.json?["photos"] as? [[String: Any]])?.first)
            #expect(photo["text"] is NSNull)
            #expect(photo["text_status"] as? String == "pending")
            let photoID = try #require(photo["id"] as? Int64)
            try Self.read("There she blows! A hump like a snow-hill!", photo: photoID, in: app)
            let shown = try await api.get("/api/v1/photos/\(photoID)")
            #expect(
                (shown.json?["photo"] as? [String: Any])?["text"] as? String
                    == "There she blows! A hump like a snow-hill!")
            let quotes = try #require(
                try await api.get("/api/v1/quotes?q=snow+hill").json?["quotes"] as? [[String: Any]])
            #expect(quotes.count == 1)
            #expect(quotes.first?["book_title"] as? String == "Moby-Dick")
            #expect((quotes.first?["passage"] as? String)?.contains("«snow»-«hill»") == true)
            #expect(try await api.get("/api/v1/quotes?q=").status == .badRequest)

            let other = try await LibraryAPITests.signedIn(client, "bob")
            #expect((try await other.get("/api/v1/quotes?q=snow").json?["quotes"] as? [Any])?.isEmpty == true)
        }
    }
}
