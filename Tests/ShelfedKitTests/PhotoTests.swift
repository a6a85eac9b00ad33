import CImaging
import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Image files for upload tests: the shared EXIF fixtures and a few tiny ones made here.
enum TestImages {
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: FakeBooksServer.fixtures.appendingPathComponent("images/\(name)"))
    }

    /// A 1×1 PNG and a 1×1 lossless WebP, the smallest valid files of each kind.
    static let png = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!
    static let webp = Data(base64Encoded: "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")!

    /// A real JPEG whose frame header is rewritten to claim 20,000 × 20,000 pixels (400 megapixels).
    static var hugeJPEG: Data {
        var jpeg = try! fixture("Landscape_1.jpg")
        // Start of frame: FF C0 (baseline) or FF C2 (progressive), length, precision, height, width.
        let bytes = [UInt8](jpeg)
        let marker = (0..<bytes.count - 9).first {
            bytes[$0] == 0xFF && (bytes[$0 + 1] == 0xC0 || bytes[$0 + 1] == 0xC2)
        }!
        let size: [UInt8] = [0x4E, 0x20]  // 20,000
        jpeg.replaceSubrange((marker + 5)..<(marker + 9), with: size + size)
        return jpeg
    }

    /// Width and height of an image file, read by libvips.
    static func size(of url: URL) -> (Int, Int)? {
        _ = VipsRuntime.shared
        var width: Int32 = 0
        var height: Int32 = 0
        guard shelfed_vips_header(url.path, &width, &height) == 0 else { return nil }
        return (Int(width), Int(height))
    }
}

@Suite("Photos")
struct PhotoTests {
    /// Registers alice and adds a 300-page book; returns its id.
    static func setUp(_ web: WebSession) async throws -> Int64 {
        try await web.register("alice")
        return try await web.addBook(["title": "Dune", "page_count": "300"])
    }

    @Test("a phone photo with EXIF orientation 6 is stored upright, resized, and without EXIF")
    func orientationAndMetadata() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let original = try TestImages.fixture("Landscape_6.jpg")
            #expect(original.range(of: Data("Exif".utf8)) != nil)
            let response = try await web.upload(
                "/books/\(bookID)/photos", fields: [("page_number", "42"), ("comment", "The litany against fear")],
                files: [.init(data: original)])
            #expect(response.status == .seeOther)
            let photo = try #require(try await app.database().writer.read { db in try Photo.fetchOne(db) })
            #expect(response.headers[.location] == "/photos/\(photo.id!)")
            #expect(photo.pageNumber == 42)
            #expect(photo.comment == "The litany against fear")
            #expect(photo.bytes == original.count)
            // Stored as 1200×1800 with "rotate 90°": upright it is 1800×1200, shrunk to 1600 wide.
            #expect(photo.width == 1600 && photo.height == 1067)
            let media = app.config.mediaDirectory
            #expect(
                TestImages.size(of: media.appendingPathComponent(photo.displayPath)).map { $0 == (1600, 1067) } == true)
            #expect(TestImages.size(of: media.appendingPathComponent(photo.thumbPath)).map { $0 == (400, 267) } == true)
            for derived in [photo.displayPath, photo.thumbPath] {
                let bytes = try Data(contentsOf: media.appendingPathComponent(derived))
                #expect(bytes.range(of: Data("Exif".utf8)) == nil, "\(derived) keeps EXIF")
                #expect(bytes.range(of: Data("GPS".utf8)) == nil, "\(derived) keeps GPS")
            }
            #expect(try Data(contentsOf: media.appendingPathComponent(photo.originalPath)) == original)
            #expect(photo.originalPath.hasPrefix("1/") && photo.displayPath.hasPrefix("1/"))
            #expect(app.incomingFiles().isEmpty)

            let page = try await web.get("/photos/\(photo.id!)")
            #expect(page.text.contains("Page 42"))
            #expect(page.text.contains("The litany against fear"))
            let display = try await web.get("/photos/\(photo.id!)/display")
            #expect(display.status == .ok)
            #expect(display.headers[.contentType] == "image/jpeg")
            #expect(display.headers[.cacheControl]?.hasPrefix("private") == true)
            let etag = try #require(display.headers[.eTag])
            let again = try await client.execute(
                uri: "/photos/\(photo.id!)/display", method: .get,
                headers: [.cookie: "shelfed_session=\(web.cookies["shelfed_session"]!)", .ifNoneMatch: etag])
            #expect(again.status == .notModified)
            let book = try await web.get("/books/\(bookID)")
            #expect(book.text.contains("All photos (1)"))
            #expect(book.text.contains("src=\"/photos/\(photo.id!)/thumb\""))
            let profile = try await web.get("/profile")
            #expect(profile.text.contains("My uploads"))
            #expect(profile.text.contains("<strong>1</strong> Photos"))
            #expect(profile.text.contains("<a class=\"photo-book\" href=\"/books/\(bookID)\">Dune</a>"))
            #expect(profile.text.contains("href=\"/photos/\(photo.id!)\""))
        }
    }

    @Test("PNG and WebP are accepted, several at once")
    func pngAndWebP() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let response = try await web.upload(
                "/books/\(bookID)/photos",
                files: [
                    .init(filename: "a.png", contentType: "image/png", data: TestImages.png),
                    .init(filename: "b.webp", contentType: "image/webp", data: TestImages.webp),
                ])
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/books/\(bookID)/photos")
            let types = try await app.database().writer.read { db in
                try String.fetchAll(db, sql: "SELECT content_type FROM photo ORDER BY id")
            }
            #expect(types == ["image/png", "image/webp"])
            #expect(app.mediaFiles().count == 6)
        }
    }

    @Test(
        "bad files are refused cleanly and leave nothing behind",
        arguments: [
            ("text named .jpg", Data("just some words, not a photo".utf8), 415),
            ("truncated JPEG", try! TestImages.fixture("Landscape_1.jpg").prefix(40_000), 415),
            ("400-megapixel header", TestImages.hugeJPEG, 413),
        ])
    func rejected(name: String, data: Data, status: Int) async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let response = try await web.upload(
                "/books/\(bookID)/photos", files: [.init(filename: "x.jpg", data: Data(data))])
            #expect(response.status.code == status, "\(name)")
            #expect(response.text.contains("<h1>"), "\(name) answers a page")
            #expect(try await app.database().writer.read { db in try Photo.fetchCount(db) } == 0)
            #expect(app.mediaFiles().isEmpty, "\(name): \(app.mediaFiles())")
            #expect(app.incomingFiles().isEmpty)
        }
    }

    @Test("an upload over the limit is stopped with 413 and nothing on disk")
    func oversize() async throws {
        let app = TestApp(maxUploadBytes: 1_048_576)
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let big = Data(repeating: 0xFF, count: 3 * 1_048_576)
            let response = try await web.upload("/books/\(bookID)/photos", files: [.init(data: big)])
            #expect(response.status == .contentTooLarge)
            #expect(response.text.contains("1 MB"))
            #expect(app.mediaFiles().isEmpty)
            #expect(app.incomingFiles().isEmpty)
        }
    }

    @Test("an iPhone HEIC photo is read when libvips can, and otherwise refused with the setting to change")
    func heic() async throws {
        let app = TestApp()
        let heic = try Data(contentsOf: TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/portrait.heic"))
        #expect(ImageKind.detect(Array(heic.prefix(16))) == .heic)
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let response = try await web.upload(
                "/books/\(bookID)/photos",
                files: [.init(filename: "IMG_0001.HEIC", contentType: "image/heic", data: heic)])
            if ImageProcessor.canReadHEIC {
                #expect(response.status == .seeOther)
                let photo = try #require(try await app.database().writer.read { db in try Photo.fetchOne(db) })
                #expect(photo.contentType == "image/heic")
                #expect(photo.width == 200 && photo.height == 300)
            } else {
                #expect(response.status == .unsupportedMediaType)
                #expect(response.text.contains("Most Compatible"))
            }
            #expect(app.incomingFiles().isEmpty)
        }
    }

    @Test("the client's file name never reaches a path")
    func hostileFileName() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let response = try await web.upload(
                "/books/\(bookID)/photos", files: [.init(filename: "../../../etc/evil.jpg", data: TestImages.png)])
            #expect(response.status == .seeOther)
            let paths = try await app.database().writer.read { db in try Photo.fetchOne(db)!.files }
            #expect(paths.allSatisfy { !$0.contains("..") && !$0.contains("evil") })
            #expect(
                !FileManager.default.fileExists(atPath: app.config.dataDirectory.appendingPathComponent("etc").path))
        }
    }

    @Test("page numbers must be positive and within the book; comments at most 2,000 characters")
    func validation() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            for (page, message) in [("0", "whole number"), ("abc", "whole number"), ("301", "1 to 300")] {
                let response = try await web.upload(
                    "/books/\(bookID)/photos", fields: [("page_number", page), ("comment", "kept text")],
                    files: [.init(data: TestImages.png)])
                #expect(response.status == .unprocessableContent)
                #expect(response.text.contains(message), "page \(page)")
                #expect(response.text.contains("value=\"\(page)\""))
                #expect(response.text.contains("kept text"))
            }
            let long = try await web.upload(
                "/books/\(bookID)/photos", fields: [("comment", String(repeating: "x", count: 2_001))],
                files: [.init(data: TestImages.png)])
            #expect(long.status == .unprocessableContent)
            #expect(long.text.contains("2000 characters"))
            let none = try await web.upload("/books/\(bookID)/photos", fields: [("page_number", "3")], files: [])
            #expect(none.text.contains("Choose a photo to upload"))
            // The refused forms' photos wait in `.pending/` for their next try (an hour at most); nothing was stored.
            #expect(app.mediaFiles().allSatisfy { $0.hasPrefix(".pending/") })
            #expect(try await app.database().writer.read { db in try Photo.fetchCount(db) } == 0)
            #expect(app.incomingFiles().isEmpty)
        }
    }

    @Test("an upload without the CSRF field first is refused before any file is read")
    func csrf() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            let response = try await web.upload(
                "/books/\(bookID)/photos", files: [.init(data: TestImages.png)], csrf: String(repeating: "0", count: 64)
            )
            #expect(response.status == .forbidden)
            #expect(app.mediaFiles().isEmpty)
            #expect(app.incomingFiles().isEmpty)
            // A multipart body cannot skip the check on routes that are not uploads.
            let logout = try await web.upload("/logout", files: [], csrf: String(repeating: "0", count: 64))
            #expect(logout.status == .forbidden)
            #expect(try await web.get("/profile").status == .ok)
        }
    }

    @Test("editing changes page and comment; deleting asks, then removes the row and the files")
    func editAndDelete() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            try await web.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            #expect(try await web.post("/photos/1", ["page_number": "12", "comment": "Edited"]).status == .seeOther)
            var photo = try #require(try await app.database().writer.read { db in try Photo.fetchOne(db) })
            #expect(photo.pageNumber == 12 && photo.comment == "Edited")
            let bad = try await web.post("/photos/1", ["page_number": "-3", "comment": "Kept"])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.text.contains("Kept"))
            photo = try #require(try await app.database().writer.read { db in try Photo.fetchOne(db) })
            #expect(photo.pageNumber == 12)

            #expect(try await web.get("/photos/1/delete").text.contains("Delete this photo?"))
            #expect(app.mediaFiles().count == 3)
            let deleted = try await web.post("/photos/1/delete")
            #expect(deleted.headers[.location] == "/books/\(bookID)/photos")
            #expect(try await app.database().writer.read { db in try Photo.fetchCount(db) } == 0)
            #expect(app.mediaFiles().isEmpty)
            #expect(try await web.get("/photos/1").status == .notFound)
        }
    }

    @Test("another user's photos, files and gallery answer 404")
    func privacy() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            let bookID = try await Self.setUp(alice)
            try await alice.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)])
            let bob = WebSession(client)
            try await bob.register("bob")
            for path in [
                "/photos/1", "/photos/1/thumb", "/photos/1/display", "/photos/1/original", "/photos/1/delete",
                "/books/\(bookID)/photos", "/books/\(bookID)/photos/new",
            ] {
                #expect(try await bob.get(path).status == .notFound, "\(path)")
            }
            #expect(try await bob.post("/photos/1/delete").status == .notFound)
            #expect(try await bob.post("/photos/1", ["comment": "mine now"]).status == .notFound)
            #expect(
                try await bob.upload("/books/\(bookID)/photos", files: [.init(data: TestImages.png)]).status
                    == .notFound)
            #expect(try await app.database().writer.read { db in try Photo.fetchOne(db)?.comment } == nil)
            #expect(app.mediaFiles().count == 3)
        }
    }

    @Test("the gallery sorts by page number (photos without a page last) or by date")
    func gallerySort() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            let bookID = try await Self.setUp(web)
            for page in ["30", "", "5"] {
                try await web.upload(
                    "/books/\(bookID)/photos", fields: [("page_number", page)], files: [.init(data: TestImages.png)])
                app.clock.advance(by: 60)
            }
            func order(_ query: String) async throws -> [String] {
                let html = try await web.get("/books/\(bookID)/photos\(query)").text
                return html.components(separatedBy: "<li><a href=\"/photos/").dropFirst().map {
                    String($0.prefix(while: \.isNumber))
                }
            }
            #expect(try await order("?sort=page") == ["3", "1", "2"])
            #expect(try await order("") == ["3", "2", "1"])
        }
    }

    @Test("a profile picture gets a square thumbnail and replaces the previous one")
    func avatar() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            try await web.register("alice")
            let first = try await web.upload(
                "/profile/avatar", files: [.init(data: try TestImages.fixture("Portrait_1.jpg"))])
            #expect(first.headers[.location] == "/profile?saved=avatar")
            let user = try #require(try await app.database().writer.read { db in try User.fetchOne(db) })
            let avatar = try #require(user.avatarPhotoId)
            let photo = try #require(try await app.database().writer.read { db in try Photo.fetchOne(db, key: avatar) })
            #expect(
                TestImages.size(of: app.config.mediaDirectory.appendingPathComponent(photo.thumbPath)).map {
                    $0 == (400, 400)
                } == true)
            #expect(try await web.get("/profile").text.contains("src=\"/photos/\(avatar)/thumb\""))
            try await web.upload("/profile/avatar", files: [.init(data: TestImages.png)])
            #expect(try await app.database().writer.read { db in try Photo.fetchCount(db) } == 1)
            #expect(app.mediaFiles().count == 3)
            #expect(!(try await web.get("/profile").text.contains("My uploads")))
        }
    }

    @Test("start-up clears uploads an interrupted request left in .incoming/")
    func startupSweep() async throws {
        let app = TestApp()
        let incoming = app.config.mediaDirectory.appendingPathComponent(".incoming")
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try Data("half an upload".utf8).write(to: incoming.appendingPathComponent("stale"))
        try await app.run { _ in
            #expect(app.incomingFiles().isEmpty)
        }
    }
}
