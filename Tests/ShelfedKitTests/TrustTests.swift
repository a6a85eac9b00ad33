import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import ShelfedKit

/// Findings 5, 7, 8 and 9 of issue 9: CSRF, shared browsers, shared catalog rows, consistency, HEAD.
@Suite("Trust between the people of a household")
struct TrustTests {
    static func multipart(_ parts: [(disposition: String, body: String)]) -> (String, String) {
        let boundary = "----Hostile\(UUID().uuidString.prefix(8))"
        var body = ""
        for part in parts {
            body += "--\(boundary)\r\nContent-Disposition: \(part.disposition)\r\n\r\n\(part.body)\r\n"
        }
        body += "--\(boundary)--\r\n"
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    @Test("upload routes accept only a first part that is the text field _csrf with the session's token")
    func strictFirstPart() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            let png = String(decoding: TestImages.png, as: UTF8.self)
            let token = try #require(web.csrfToken)
            let attempts: [[(disposition: String, body: String)]] = [
                [
                    ("form-data; name=\"_csrf\"; filename=\"t.txt\"", token),
                    ("form-data; name=\"photo\"; filename=\"a.png\"", png),
                ],
                [
                    ("form-data; name=\"_csrf\"; filename=\"t.txt\"", "x"),
                    ("form-data; name=\"photo\"; filename=\"a.png\"", png),
                ],
                [("form-data", ""), ("form-data; name=\"photo\"; filename=\"a.png\"", png)],
                [("form-data; name=\"\"", ""), ("form-data; name=\"photo\"; filename=\"a.png\"", png)],
                [
                    ("form-data; name=\"comment\"", "hi"), ("form-data; name=\"_csrf\"", token),
                    ("form-data; name=\"photo\"; filename=\"a.png\"", png),
                ],
                [("form-data; name=\"photo\"; filename=\"a.png\"", png), ("form-data; name=\"_csrf\"", token)],
            ]
            for path in ["/books/\(bookID)/photos", "/profile/avatar"] {
                for parts in attempts {
                    let (body, contentType) = Self.multipart(parts)
                    let response = try await web.send(path, method: .post, body: body, contentType: contentType)
                    #expect(response.status == .forbidden, "\(path) \(parts.map(\.disposition))")
                }
            }
            #expect(try await app.database().writer.read { db in try Photo.fetchCount(db) } == 0)
            #expect(app.incomingFiles().isEmpty)
            // The honest upload still works.
            let ok = try await web.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            #expect(ok.status == .seeOther)
        }
    }

    @Test("a CSRF token belongs to one session: alice's cookie and token do nothing in bob's session")
    func tokenBoundToSession() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            try await alice.refreshToken()
            let aliceToken = try #require(alice.csrfToken)
            let bob = WebSession(client)
            try await bob.register("bob")
            let forged = try await bob.post("/books", ["title": "Planted"], csrf: aliceToken)
            #expect(forged.status == .forbidden)
            // A sign-in rotates the token: the one from before no longer works.
            _ = try await alice.post("/logout")
            _ = try await alice.login("alice")
            #expect(try await alice.post("/books", ["title": "Old token"], csrf: aliceToken).status == .forbidden)
            #expect(try await app.database().writer.read { db in try Book.fetchCount(db) } == 0)
        }
    }

    @Test("photos are sent private, no-cache with an ETag; originals as attachments with nosniff")
    func photoCaching() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            let upload = try await web.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            let photoPath = try #require(upload.headers[.location])
            let thumb = try await web.get(photoPath + "/thumb")
            #expect(thumb.headers[.cacheControl] == "private, no-cache")
            let etag = try #require(thumb.headers[.eTag])
            let original = try await web.get(photoPath + "/original")
            #expect(original.headers[.contentDisposition]?.hasPrefix("attachment;") == true)
            #expect(original.headers[.xContentTypeOptions] == "nosniff")
            let revalidated = try await web.client.execute(
                uri: photoPath + "/thumb", method: .get,
                headers: [
                    .ifNoneMatch: etag, .cookie: web.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                ])
            #expect(revalidated.status == .notModified)
            // Someone else revalidating the same URL gets 404, not a go-ahead to use a cached copy.
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.get(photoPath + "/thumb").status == .notFound)
        }
    }

    @Test("a hand-typed book stays its typist's: another reader adding the same ISBN keeps their own title")
    func ownedRows() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let aliceID = try await alice.addBook([
                "title": "Alice's private notes on Dune", "isbn": "9780441172719", "description": "Only mine",
                "page_count": "999",
            ])
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobID = try await bob.addBook(["title": "Dune", "isbn": "9780441172719"])
            #expect(aliceID != bobID)
            // Alice's name is offered only as someone to recommend the book to (issue 35), never her text.
            let bobPage = SharingTests.withoutRecipients(try await bob.get("/books/\(bobID)").text)
            #expect(bobPage.contains("Dune") && !bobPage.contains("Alice") && !bobPage.contains("Only mine"))
            #expect(try await bob.get("/books/\(aliceID)").status == .notFound)
            let owners = try await app.database().writer.read { db in
                try Int64?.fetchAll(db, sql: "SELECT owner_user_id FROM book ORDER BY id")
            }
            #expect(owners.count == 2 && owners.allSatisfy { $0 != nil })
        }
    }

    @Test("migrating shared hand-typed rows gives each reader their own copy with their shelf entry and photos")
    func ownershipMigration() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(queue, upTo: "v4 login attempts")
        try await queue.write { db in
            for (id, name) in [(1, "alice"), (2, "bob")] {
                try db.execute(
                    sql:
                        "INSERT INTO user (id, username, email, display_name, password_hash, created_at) VALUES (?, ?, ?, ?, 'x', '2026-01-01')",
                    arguments: [id, name, "\(name)@example.com", name])
            }
            try db.execute(
                sql: """
                    INSERT INTO book (id, isbn13, title, authors, categories, source, created_at, updated_at, page_count)
                    VALUES (1, '9780441172719', 'Typed by Alice', '["Frank Herbert"]', '[]', 'manual', '2026-01-01', '2026-01-01', 9223372036854775806),
                           (2, '9780140446043', 'Essays', '[]', '[]', 'google', '2026-01-01', '2026-01-01', 300),
                           (3, NULL, 'Nobody has me', '[]', '[]', 'manual', '2026-01-01', '2026-01-01', NULL);
                    INSERT INTO book_author (book_id, position, name) VALUES (1, 0, 'Frank Herbert');
                    INSERT INTO user_book (user_id, book_id, shelf, added_at, updated_at) VALUES
                        (1, 1, 'read', '2026-01-01', '2026-01-01'), (2, 1, 'reading', '2026-01-02', '2026-01-02'),
                        (1, 2, 'read', '2026-01-01', '2026-01-01'), (2, 2, 'read', '2026-01-01', '2026-01-01');
                    INSERT INTO photo (user_id, book_id, original_path, display_path, thumb_path, width, height, bytes, content_type, created_at)
                    VALUES (2, 1, '2/a', '2/b', '2/c', 1, 1, 1, 'image/png', '2026-01-01');
                    """)
        }
        try AppDatabase.migrator.migrate(queue)
        try await queue.read { db in
            let aliceBook = try Row.fetchOne(
                db,
                sql:
                    "SELECT b.* FROM user_book u JOIN book b ON b.id = u.book_id WHERE u.user_id = 1 AND b.source = 'manual'"
            )!
            let bobBook = try Row.fetchOne(
                db,
                sql:
                    "SELECT b.* FROM user_book u JOIN book b ON b.id = u.book_id WHERE u.user_id = 2 AND b.source = 'manual'"
            )!
            #expect(aliceBook["owner_user_id"] as Int64? == 1 && bobBook["owner_user_id"] as Int64? == 2)
            #expect(aliceBook["title"] as String == "Typed by Alice" && bobBook["title"] as String == "Typed by Alice")
            #expect(aliceBook["page_count"] as Int? == nil)
            let bobCopy: Int64 = bobBook["id"]
            #expect(try Int64.fetchOne(db, sql: "SELECT book_id FROM photo WHERE user_id = 2") == bobCopy)
            #expect(
                try String.fetchOne(db, sql: "SELECT name FROM book_author WHERE book_id = ?", arguments: [bobCopy])
                    == "Frank Herbert")
            #expect(
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE source = 'google' AND owner_user_id IS NULL")
                    == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE title = 'Nobody has me'") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book") == 4)
        }
    }

    @Test("removing a book removes its photos: page, files and profile; the confirmation says how many")
    func removingBookRemovesPhotos() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            let upload = try await web.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            let photoPath = try #require(upload.headers[.location])
            #expect(app.mediaFiles().count == 3)
            #expect(try await web.get("/books/\(bookID)/remove").text.contains("Your photo of it will be deleted too."))
            #expect(try await web.post("/books/\(bookID)/remove").status == .seeOther)
            #expect(try await web.get(photoPath).status == .notFound)
            #expect(try await web.get(photoPath + "/thumb").status == .notFound)
            #expect(!(try await web.get("/profile").text.contains(photoPath)))
            #expect(app.mediaFiles().isEmpty)
        }
    }

    @Test("a photo finished after its account was deleted answers 410 and leaves no file")
    func uploadAfterAccountDeletion() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let database = try app.database()
            let media = MediaStore(root: app.config.mediaDirectory)
            let uploader = PhotoUploader(
                media: media, processor: ImageProcessor(), photos: PhotoStore(db: database),
                logger: .init(label: "test"))
            let file = media.temporaryFile()
            try TestImages.png.write(to: file)
            try await UserStore(db: database).delete(id: 1)
            let error = await #expect(throws: AppError.self) {
                _ = try await uploader.store(
                    UploadedFile(url: file, bytes: TestImages.png.count), userID: 1, details: .init(), now: Date())
            }
            #expect(error?.status == .gone, "\(String(describing: error))")
            #expect(app.mediaFiles().isEmpty)
        }
    }

    @Test("media files no row refers to (a kill between moving files and inserting the row) go at start-up")
    func orphanSweep() async throws {
        let app = TestApp()
        let stray = app.config.mediaDirectory.appendingPathComponent("1/orphan-original.jpg")
        try FileManager.default.createDirectory(
            at: stray.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: stray)
        try await app.run { client in
            #expect(!FileManager.default.fileExists(atPath: stray.path))
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            _ = try await web.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            #expect(app.mediaFiles().count == 3)
        }
    }

    @Test("a progressive JPEG's frame header is read before decoding; one that would need too much memory is refused")
    func progressiveJPEG() async throws {
        let fixture = TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/progressive-50mp.jpg")
        let frame = try #require(JPEGFrame.read(at: fixture))
        #expect(frame.isProgressive && frame.width == 8000 && frame.height == 6250)
        #expect(frame.progressiveBufferBytes + ImageProcessor.shrinkingDecodeCost > ImageProcessor.memoryBudget)
        let baseline = try #require(JPEGFrame.parse(Array(try TestImages.fixture("Landscape_1.jpg"))))
        #expect(!baseline.isProgressive && baseline.progressiveBufferBytes == 0)

        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            let bookID = try await PhotoTests.setUp(web)
            let response = try await web.upload(
                "/books/\(bookID)/photos", files: [.init(data: try Data(contentsOf: fixture))])
            #expect(response.status == .contentTooLarge)
            #expect(response.text.contains("ordinary JPEG"))
            #expect(app.mediaFiles().isEmpty && app.incomingFiles().isEmpty)
        }
    }

    @Test("image work waits for memory: an image that fills the budget runs alone")
    func imageWorkLimiter() async throws {
        let limiter = ImageWorkLimiter(permits: 2, budget: 100)
        let log = Log()
        async let big: Void = limiter.run(cost: 90) {
            log.append("big starts")
            try await Task.sleep(for: .milliseconds(200))
            log.append("big ends")
        }
        try await Task.sleep(for: .milliseconds(50))
        async let small: Void = limiter.run(cost: 30) { log.append("small runs") }
        _ = try await (big, small)
        #expect(log.lines == ["big starts", "big ends", "small runs"])
    }

    @Test("a user cannot be encoded (with its password hash) into JSON or anything else")
    func userIsNotEncodable() {
        #expect(!(User.self is any Encodable.Type))
    }

    @Test("HEAD answers every GET route with its headers and no body")
    func head() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            #expect(
                try await WebSession(client).send("/login", method: .head, body: nil, contentType: nil).status == .ok)
            for path in ["/health", "/shelves", "/", "/profile", "/books/new"] {
                let response = try await web.send(path, method: .head, body: nil, contentType: nil)
                #expect(response.status == .ok, "\(path)")
                #expect(response.body.readableBytes == 0)
            }
        }
    }
}

/// Lines appended from concurrent tasks, in the order they happened.
final class Log: Sendable {
    private let storage = Mutex<[String]>([])
    var lines: [String] { storage.withLock { $0 } }
    func append(_ line: String) { storage.withLock { $0.append(line) } }
}
