import Foundation
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Books from barcode photos: zbar on libvips-prepared pictures the tests draw, the scan pages and the API.
@Suite struct BarcodeScanTests {
    static let odyssey = "9780140446043"  // the fake Google Books knows it
    static let thirdReich = "9780804720991"

    @Test func readsBarcodesFlatSidewaysAndSeveralAtOnce() async throws {
        let reader = BarcodeReader(processor: ImageProcessor())
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("shelfed-barcodes-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func scan(_ png: Data) async throws -> BarcodeScan {
            let file = folder.appendingPathComponent("\(UUID()).png")
            try png.write(to: file)
            return try await reader.scan(photoAt: file)
        }
        #expect(try await scan(BarcodeImages.png([Self.odyssey])).isbns.map(\.isbn13) == [Self.odyssey])
        #expect(try await scan(BarcodeImages.png([Self.odyssey], sideways: true)).isbns.map(\.isbn13) == [Self.odyssey])
        let stack = try await scan(BarcodeImages.png([Self.odyssey, Self.thirdReich, Self.odyssey], modulePixels: 3))
        #expect(stack.isbns.map(\.isbn13) == [Self.odyssey, Self.thirdReich])  // each book once
        let shop = try await scan(BarcodeImages.png(["4006381333931"]))
        #expect(shop.isbns.isEmpty && shop.otherCodes == ["4006381333931"])
        #expect(try await scan(TestImages.fixture("Landscape_1.jpg")) == BarcodeScan())
    }

    @Test func onlyChecksumValidBookCodesBecomeISBNs() {
        let scan = BarcodeReader.classify([
            "9780140446043", "9780140446044", "4006381333931", "9780140446043", "012345678905",
        ])
        #expect(scan.isbns.map(\.isbn13) == ["9780140446043"])
        #expect(scan.otherCodes == ["9780140446044", "4006381333931", "012345678905"])
    }

    @Test func printedISBNsAreFoundInUntrustedText() {
        let text = """
            First published 1946. Call 0123456789 for orders.
            ISBN-13: 978-0-14-044604-3   ISBN 0-8047-2099-X? no: ISBN 0 8047 2099 1
            isbn:9783551551672 and again 978 0 14 044604 3; bad 978-0-14-044604-4
            Arabic digits ٩٧٨٠١٤٠٤٤٦٠٤٣ do not count
            """
        #expect(PrintedISBN.find(in: text).map(\.isbn13) == ["9780140446043", "9780804720991", "9783551551672"])
        #expect(PrintedISBN.find(in: "").isEmpty)
        #expect(PrintedISBN.find(in: String(repeating: "9", count: 100_000)).isEmpty)
    }

    @Test func ocrLanguagesAreCheckedAtStart() throws {
        #expect(TextRecognizer.isValidLanguageList("eng"))
        #expect(TextRecognizer.isValidLanguageList("eng+deu+chi_sim"))
        for bad in ["", "eng+", "../eng", "eng deu", "ENG", "eng;rm", String(repeating: "a+", count: 9) + "a"] {
            #expect(!TextRecognizer.isValidLanguageList(bad), "\(bad)")
        }
        #expect(throws: AppConfig.InvalidSetting.self) {
            try AppConfig.fromEnvironment(["SHELFED_OCR_LANGS": "eng --psm 0"])
        }
        #expect(try AppConfig.fromEnvironment(["SHELFED_OCR_LANGS": "eng+deu"]).ocrLanguages == "eng+deu")
    }

    @Test func scanningOnThePageConfirmsAndAddsTheBook() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run(live: true) { client in
                let web = WebSession(client)
                try await web.register("alice")
                let page = try await web.get("/scan")
                #expect(page.status == .ok)
                #expect(page.text.contains("capture=\"environment\""))
                let scanned = try await web.upload(
                    "/scan",
                    files: [
                        .init(
                            field: "photo", filename: "back.png", contentType: "image/png",
                            data: BarcodeImages.png([Self.odyssey], sideways: true))
                    ])
                #expect(scanned.status == .seeOther)
                let confirm = try #require(scanned.headers[.location])
                #expect(confirm == "/scan/books?isbn=\(Self.odyssey)")
                let books = try await web.get(confirm)
                #expect(books.text.contains("Is this the book?"))
                #expect(books.text.contains("The Complete Essays"))
                let added = try await web.post(
                    "/search/add", ["isbn": Self.odyssey, "shelf": "read", "return_to": confirm])
                #expect(added.status == .seeOther)
                #expect(added.headers[.location] == confirm + "&done=added&book=1&ask=finished")
                #expect(try await web.get(confirm).text.contains("Already on your"))
                #expect(try await web.get("/shelves/read").text.contains("The Complete Essays"))
                // An outside address in return_to is not followed.
                let outside = try await web.post(
                    "/search/add", ["isbn": Self.thirdReich, "shelf": "read", "return_to": "//evil.example/"])
                #expect(outside.headers[.location]?.hasPrefix("/books/") == true)
                #expect(app.incomingFiles().isEmpty)
            }
        }
    }

    @Test func nothingFoundOffersAdviceAndTheTypedISBNIsKept() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run(live: true) { client in
                let web = WebSession(client)
                try await web.register("alice")
                let none = try await web.upload(
                    "/scan",
                    files: [
                        .init(
                            field: "photo", filename: "cat.jpg", contentType: "image/jpeg",
                            data: try TestImages.fixture("Portrait_6.jpg"))
                    ])
                #expect(none.status == .ok)
                #expect(none.text.contains("No ISBN barcode found"))
                #expect(none.text.contains("name=\"isbn\""))
                #expect(!none.text.contains("shop barcode"))
                let shop = try await web.upload(
                    "/scan",
                    files: [
                        .init(
                            field: "photo", filename: "upc.png", contentType: "image/png",
                            data: BarcodeImages.png(["4006381333931"]))
                    ])
                #expect(shop.text.contains("shop barcode (4006381333931)"))
                let typo = try await web.get("/scan/books?isbn=978-0-14-044604-4")
                #expect(typo.status == .unprocessableContent)
                #expect(typo.text.contains("value=\"978-0-14-044604-4\""))
                let hostile = try await web.get("/scan/books?isbn=%22%3E%3Cscript%3Ex%3C/script%3E")
                #expect(hostile.status == .unprocessableContent)
                #expect(!hostile.text.contains("<script>x"))
                let unknown = try await web.get("/scan/books?isbn=9783868943238")
                #expect(unknown.text.contains("Neither Google Books nor Open Library knows this ISBN"))
                #expect(unknown.text.contains("/books/new?isbn=9783868943238"))
                let notPhoto = try await web.upload(
                    "/scan",
                    files: [
                        .init(field: "photo", filename: "x.txt", contentType: "text/plain", data: Data("hello".utf8))
                    ])
                #expect(notPhoto.status == .unsupportedMediaType)
                let noCSRF = try await web.upload(
                    "/scan",
                    files: [
                        .init(
                            field: "photo", filename: "b.png", contentType: "image/png",
                            data: BarcodeImages.png([Self.odyssey]))
                    ], csrf: "wrong")
                #expect(noCSRF.status == .forbidden)
                #expect(app.incomingFiles().isEmpty)
            }
        }
    }

    @Test func theAPIAnswersWithTheISBNsAndTheirBooks() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run(live: true) { client in
                let api = try await LibraryAPITests.signedIn(client)
                let answer = try await api.upload(
                    "/api/v1/scans/barcode",
                    files: [
                        .init(
                            field: "photo", filename: "b.png", contentType: "image/png",
                            data: BarcodeImages.png([Self.odyssey, "9783868943238"], modulePixels: 3))
                    ])
                #expect(answer.status == .ok)
                let json = try #require(answer.json)
                #expect(json["source"] as? String == "barcode")
                #expect(json["isbns"] as? [String] == [Self.odyssey, "9783868943238"])
                let books = try #require(json["books"] as? [[String: Any]])
                #expect(books.first?["found"] as? Bool == true)
                #expect((books.first?["title"] as? String)?.contains("Complete Essays") == true)
                #expect(books.first?["in_library"] is NSNull)
                #expect(books.last?["found"] as? Bool == false)
                let nothing = try await api.upload(
                    "/api/v1/scans/barcode",
                    files: [.init(field: "photo", data: try TestImages.fixture("Landscape_3.jpg"))])
                #expect(nothing.json?["source"] as? String == "none")
                let noFile = try await api.upload("/api/v1/scans/barcode", fields: [("x", "y")], files: [])
                #expect(noFile.status == .badRequest)
                #expect(app.incomingFiles().isEmpty)
            }
        }
    }
}
