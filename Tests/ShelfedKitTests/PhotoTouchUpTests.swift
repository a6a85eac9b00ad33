import CImaging
import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Photo touch-ups (issue 24): turned and cropped on the server from the untouched original, on the photo page, on
/// the upload page before saving, and through the API; every edit undone by "Undo all edits".
@Suite struct PhotoTouchUpTests {
    /// 400 × 200 grey pixels: the left half black, the right half white — so where each half ends up shows how the
    /// picture was turned and what a crop kept.
    static let halves: Data = {
        var pixels = [UInt8](repeating: 0, count: 400 * 200)
        for y in 0..<200 { for x in 200..<400 { pixels[y * 400 + x] = 255 } }
        return BarcodeImages.encode(pixels, width: 400, height: 200)
    }()

    /// The mean grey of a region (fractions of the image) of the file at `url`.
    static func meanGrey(_ url: URL, x: ClosedRange<Double> = 0...1, y: ClosedRange<Double> = 0...1) -> Double? {
        _ = VipsRuntime.shared
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0
        var height: Int32 = 0
        guard shelfed_vips_grey_pixels(url.path, 2_000, 0, &pixels, &width, &height) == 0, let pixels else {
            return nil
        }
        defer { shelfed_vips_free_pixels(pixels) }
        let (w, h) = (Int(width), Int(height))
        var sum = 0
        var count = 0
        for row in Int(y.lowerBound * Double(h))..<max(Int(y.upperBound * Double(h)), 1) {
            for column in Int(x.lowerBound * Double(w))..<max(Int(x.upperBound * Double(w)), 1) {
                sum += Int(pixels[row * w + column])
                count += 1
            }
        }
        return count == 0 ? nil : Double(sum) / Double(count)
    }

    private func photo(_ app: TestApp, _ id: Int64) async throws -> Photo {
        try #require(try await app.database().read { db in try Photo.fetchOne(db, key: id) })
    }

    private func upload(_ session: WebSession, book: Int64, fields: [(String, String)] = []) async throws -> Int64 {
        let answer = try await session.upload(
            "/books/\(book)/photos", fields: fields,
            files: [.init(filename: "halves.png", contentType: "image/png", data: Self.halves)])
        #expect(answer.status == .seeOther, "\(answer.text.prefix(300))")
        return Int64(try #require(answer.headers[.location]?.split(separator: "/").last.flatMap { Int64($0) }))
    }

    @Test func aTinyPhotoCroppedWithinTheRulesKeepsAtLeastAPixel() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Dune"])
            let tiny = BarcodeImages.encode([UInt8](repeating: 128, count: 10 * 10), width: 10, height: 10)
            let uploaded = try await alice.upload(
                "/books/\(book)/photos", files: [.init(filename: "tiny.png", contentType: "image/png", data: tiny)])
            let id = try #require(uploaded.headers[.location]?.split(separator: "/").last.flatMap { Int64($0) })
            // act: 45 % off each side keeps a tenth, the least allowed; each edge rounds to 5 of the 10 pixels
            let cropped = try await alice.post(
                "/photos/\(id)/touch-up",
                ["action": "crop", "crop_left": "45", "crop_right": "45", "crop_top": "45", "crop_bottom": "45"])
            // validate: saved, not 415 "could not be read as a picture"
            #expect(cropped.status == .seeOther, "\(cropped.status) \(cropped.text.prefix(200))")
            let now = try await photo(app, id)
            #expect(now.cropLeft == 0.45 && now.width == 1 && now.height == 1)
        }
    }

    @Test func aPhotoIsTurnedCroppedAndUndoneFromItsUntouchedOriginal() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Dune"])
            let id = try await upload(alice, book: book)
            let uploaded = try await photo(app, id)
            let media = app.config.mediaDirectory
            let original = try Data(contentsOf: media.appendingPathComponent(uploaded.originalPath))
            #expect(uploaded.width == 400 && uploaded.height == 200)

            let page = try await alice.get("/photos/\(id)").text
            #expect(page.contains(#"action="/photos/\#(id)/touch-up""#) && page.contains("Turn right"))
            #expect(!page.contains("Undo all edits"))

            // Words read by the machine are read again from the new picture; words the owner typed are kept.
            try await app.database().write { db in
                try db.execute(
                    sql: "UPDATE photo SET ocr_status = 'done', ocr_text = 'old words' WHERE id = ?", arguments: [id])
            }

            // Turned right: the left (black) half is now the top.
            let turned = try await alice.post("/photos/\(id)/touch-up", ["action": "turn-right"])
            #expect(turned.headers[.location] == "/photos/\(id)?saved=touch-up#touch-up-heading")
            var now = try await photo(app, id)
            #expect(now.editTurns == 1 && now.width == 200 && now.height == 400)
            #expect(now.displayPath != uploaded.displayPath && now.thumbPath != uploaded.thumbPath)
            #expect(now.ocrStatus == "pending")
            try await app.database().write { db in
                try db.execute(sql: "UPDATE photo SET ocr_status = 'edited' WHERE id = ?", arguments: [id])
            }
            #expect(!FileManager.default.fileExists(atPath: media.appendingPathComponent(uploaded.displayPath).path))
            let display = media.appendingPathComponent(now.displayPath)
            #expect(try #require(Self.meanGrey(display, y: 0.05...0.45)) < 40)
            #expect(try #require(Self.meanGrey(display, y: 0.55...0.95)) > 215)
            #expect(try Data(contentsOf: media.appendingPathComponent(now.originalPath)) == original)
            let shown = try await alice.get("/photos/\(id)?saved=touch-up").text
            #expect(
                shown.contains("This photo is turned right; the original is kept.") && shown.contains("Undo all edits"))

            // Cropped to the top half of the turned picture: all black.
            _ = try await alice.post("/photos/\(id)/touch-up", ["action": "crop", "crop_preset": "top-half"])
            now = try await photo(app, id)
            #expect(now.editTurns == 1 && now.cropBottom == 0.5 && now.width == 200 && now.height == 200)
            #expect(now.ocrStatus == "edited" && now.ocrText == "old words")
            #expect(try #require(Self.meanGrey(media.appendingPathComponent(now.displayPath))) < 40)
            // Turning again keeps the same part of the picture (now the left half of a 200 × 200 … still black).
            _ = try await alice.post("/photos/\(id)/touch-up", ["action": "turn-left"])
            now = try await photo(app, id)
            #expect(now.editTurns == 0 && now.cropRight == 0.5 && now.width == 200 && now.height == 200)
            #expect(try #require(Self.meanGrey(media.appendingPathComponent(now.displayPath))) < 40)

            // Edges typed by hand: a crop that keeps less than a tenth, or is no number, is refused with the text kept.
            let sliver = try await alice.post(
                "/photos/\(id)/touch-up", ["action": "crop", "crop_left": "60", "crop_right": "35"])
            #expect(sliver.status == .unprocessableContent)
            #expect(sliver.text.contains("keeping at least a tenth") && sliver.text.contains(#"value="60""#))
            for bad in ["-5", "abc", "91", "1e400", "nan"] {
                let answer = try await alice.post("/photos/\(id)/touch-up", ["action": "crop", "crop_top": bad])
                #expect(answer.status == .unprocessableContent, "crop_top \(bad)")
            }
            #expect(try await alice.post("/photos/\(id)/touch-up", ["action": "shred"]).status == .badRequest)
            _ = try await alice.post(
                "/photos/\(id)/touch-up", ["action": "crop", "crop_left": "50", "crop_top": "", "crop_right": "0"])
            now = try await photo(app, id)
            #expect(now.cropLeft == 0.5 && now.cropRight == 0 && now.width == 200 && now.height == 200)
            #expect(try #require(Self.meanGrey(media.appendingPathComponent(now.displayPath))) > 215)

            // The my-data download says how the photo is shown (its file is the original).
            let export = try MyDataStore(db: try app.database()).export(of: 1)
            #expect(export.photos.first?.touchUp?.cropLeft == 50 && export.photos.first?.touchUp?.turns == 0)

            // Undo all: the picture as it was taken, the original still untouched.
            let undone = try await alice.post("/photos/\(id)/touch-up", ["action": "undo"])
            #expect(undone.headers[.location] == "/photos/\(id)?saved=touch-up-undone#touch-up-heading")
            now = try await photo(app, id)
            #expect(now.edit.isNone && now.width == 400 && now.height == 200)
            #expect(try Data(contentsOf: media.appendingPathComponent(now.originalPath)) == original)

            // Another person's photo is a 404, and so is a profile picture.
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/photos/\(id)/touch-up", ["action": "turn-left"]).status == .notFound)
            #expect(try await photo(app, id).edit.isNone)
        }
    }

    @Test func theUploadPageTurnsAndCropsBeforeSaving() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Dune"])
            let form = try await alice.get("/books/\(book)/photos/new").text
            #expect(form.contains(#"<select id="turn" name="turn">"#) && form.contains(#"value="left-page""#))

            let id = try await upload(alice, book: book, fields: [("turn", "right"), ("crop_preset", "top-half")])
            let stored = try await photo(app, id)
            #expect(stored.editTurns == 1 && stored.cropBottom == 0.5 && stored.width == 200 && stored.height == 200)
            #expect(
                try #require(Self.meanGrey(app.config.mediaDirectory.appendingPathComponent(stored.displayPath))) < 40)

            // A crop that cannot be: the form again, the typed edges and the page number kept.
            let refused = try await alice.upload(
                "/books/\(book)/photos", fields: [("page_number", "12"), ("crop_left", "80"), ("crop_right", "15")],
                files: [.init(filename: "halves.png", contentType: "image/png", data: Self.halves)])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("keeping at least a tenth") && refused.text.contains(#"value="80""#))
            #expect(refused.text.contains(#"value="12""#) && refused.text.contains("Kept from your last try"))
        }
    }

    @Test func theAPISetsTheWholeEdit() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let book = try await web.addBook(["title": "Dune"])
            let id = try await upload(web, book: book)
            var api = APIClient(client)
            try await api.signIn("alice@example.com")

            let answer = try await api.send(
                .post, "/api/v1/photos/\(id)/touch-up", json: ["turns": 1, "crop": ["bottom": 50]])
            #expect(answer.status == .ok)
            let touchUp = try #require(answer.json?["touch_up"] as? [String: Any])
            #expect(touchUp["turns"] as? Int == 1 && (touchUp["crop"] as? [String: Any])?["bottom"] as? Double == 50)
            let photoJSON = try #require(answer.json?["photo"] as? [String: Any])
            #expect(photoJSON["width"] as? Int == 200 && photoJSON["height"] as? Int == 200)

            for bad: [String: Any] in [
                ["turns": 4], ["turns": -1], ["crop": ["left": 60, "right": 35]], ["crop": ["top": -1]],
                ["crop": ["left": 95]],
            ] {
                #expect(
                    try await api.send(.post, "/api/v1/photos/\(id)/touch-up", json: bad).status
                        == .unprocessableContent, "\(bad)")
            }
            #expect(
                try await api.send(.post, "/api/v1/photos/\(id)/touch-up", json: ["turns": "x"]).status == .badRequest)
            let undone = try await api.send(.post, "/api/v1/photos/\(id)/touch-up", json: [:])
            #expect(undone.status == .ok && (undone.json?["touch_up"] as? [String: Any])?["turns"] as? Int == 0)
            #expect(try await photo(app, id).edit.isNone)

            let bob = WebSession(client)
            try await bob.register("bob")
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            #expect(
                try await bobAPI.send(.post, "/api/v1/photos/\(id)/touch-up", json: ["turns": 2]).status == .notFound)
            #expect(
                try await bobAPI.send(.post, "/api/v1/photos/999999/touch-up", json: ["turns": 2]).status == .notFound)
        }
    }

    @Test func turningACropKeepsThePartOfThePicture() {
        let crop = PhotoEdit.Crop(left: 0.1, top: 0.2, right: 0.3, bottom: 0.15)
        var edit = PhotoEdit(quarterTurns: 0, crop: crop)
        for _ in 0..<4 { edit = edit.turned(clockwise: true) }
        #expect(edit == PhotoEdit(quarterTurns: 0, crop: crop))
        #expect(PhotoEdit(crop: crop).turned(clockwise: true).turned(clockwise: false) == PhotoEdit(crop: crop))
        // Turned right, what was cut from the left is now cut from the top.
        #expect(PhotoEdit(crop: crop).turned(clockwise: true).crop.top == 0.1)
        #expect(PhotoEdit.Crop(percentLeft: "45", top: "", right: "45", bottom: "0") != nil)
        #expect(PhotoEdit.Crop(percentLeft: "45", top: "", right: "46", bottom: "0") == nil)
        #expect(PhotoEdit.Crop(percentLeft: "\u{0661}", top: "", right: "", bottom: "") == nil)
    }
}
