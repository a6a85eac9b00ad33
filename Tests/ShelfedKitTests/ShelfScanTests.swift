import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// A shelf from one photo: a fake Gemini on 127.0.0.1 serving the answers and failures written for the tests, the books
/// it lists matched through the fake Google Books, reviewed and added; model output treated as untrusted.
@Suite struct ShelfScanTests {
    static func photoID(_ response: TestResponse) -> String? {
        response.headers[.location].flatMap { $0.split(separator: "/").last.map(String.init) }
    }

    /// Opens the scan's page until it has stopped running (the page refreshes itself in a browser).
    static func finished(_ web: WebSession, _ path: String) async throws -> TestResponse {
        for _ in 0..<200 {
            let page = try await web.get(path)
            if !page.text.contains("Reading your shelf…") { return page }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("the shelf scan at \(path) never finished")
    }

    @Test func withoutAKeyThePageExplainsAndNothingIsSent() async throws {
        let app = TestApp()
        try await app.run(live: true) { client in
            let web = WebSession(client)
            try await web.register("alice")
            let page = try await web.get("/scan/shelf")
            #expect(page.status == .ok)
            #expect(page.text.contains("Not turned on yet"))
            #expect(page.text.contains("SHELFED_GEMINI_API_KEY"))
            #expect(!page.text.contains("type=\"file\""))
            let upload = try await web.upload(
                "/scan/shelf", files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(upload.status == .notFound)
            let api = try await LibraryAPITests.signedIn(client, "bob")
            let answer = try await api.upload(
                "/api/v1/scans/shelf", files: [.init(data: try TestImages.fixture("Landscape_1.jpg"))])
            #expect(answer.status == .serviceUnavailable)
            #expect((answer.json?["error"] as? String)?.contains("SHELFED_GEMINI_API_KEY") == true)
        }
    }

    @Test func aShelfIsReadReviewedAndAddedInOneGo() async throws {
        try await FakeBooksServer.run { fake in
            var configured = TestApp(search: fake.settings())
            configured.config.gemini = fake.gemini()
            let app = configured
            try await app.run(live: true) { client in
                let web = WebSession(client)
                try await web.register("alice")
                #expect(try await web.get("/scan/shelf").text.contains("Read the shelf"))
                let upload = try await web.upload(
                    "/scan/shelf", files: [.init(data: try TestImages.fixture("Landscape_6.jpg"))])
                #expect(upload.status == .seeOther)
                let path = try #require(upload.headers[.location])
                let page = try await Self.finished(web, path)
                #expect(page.status == .ok)
                #expect(page.text.contains("Books on your shelf"))

                // What went to Gemini: the shrunk photo without EXIF, a JSON schema, our prompt, the key in a header.
                let sent = try #require(fake.geminiBodies.first)
                let request = try #require(try JSONSerialization.jsonObject(with: sent) as? [String: Any])
                let config = try #require(request["generationConfig"] as? [String: Any])
                #expect(config["responseMimeType"] as? String == "application/json")
                #expect((config["responseSchema"] as? [String: Any])?["required"] as? [String] == ["books"])
                let parts = try #require(
                    ((request["contents"] as? [[String: Any]])?.first?["parts"]) as? [[String: Any]])
                #expect((parts[0]["text"] as? String)?.contains("left to right") == true)
                let inline = try #require(parts[1]["inline_data"] as? [String: String])
                #expect(inline["mime_type"] == "image/jpeg")
                let jpeg = try #require(Data(base64Encoded: inline["data"] ?? ""))
                #expect(jpeg.range(of: Data("Exif".utf8)) == nil)
                #expect(try TestImages.fixture("Landscape_6.jpg").range(of: Data("Exif".utf8)) != nil)

                // In shelf order; only confident, agreeing, first-seen matches ticked; model text escaped.
                let text = page.text
                let order = [
                    "The Complete Essays", "Batman", "Discourse Networks 1800/1900",
                    "Harry Potter and the Deathly Hallows",
                ]
                let positions = order.compactMap { text.range(of: $0)?.lowerBound }
                #expect(positions.count == order.count && positions == positions.sorted())
                #expect(text.contains("name=\"pick\" value=\"0\" checked"))
                #expect(text.contains("name=\"pick\" value=\"1\">"))  // unsure: not ticked
                #expect(text.contains("name=\"pick\" value=\"4\">"))  // "Harry Potter" could be any of seven
                #expect(text.contains("listed twice"))
                #expect(text.contains("Not this one? Search"))
                #expect(text.contains("No matching book was found"))  // the hallucinated ISBN was not trusted
                #expect(!text.contains("9780804720990"))
                #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
                #expect(!text.contains("<script>alert"))
                #expect(text.contains("(100 %"))  // a confidence of 7 is clamped
                #expect(!text.contains("Nobody"))  // an entry without a title is dropped

                let added = try await web.post(path + "/add", ["pick": "0", "shelf": "reading"])
                #expect(added.status == .seeOther, "\(added.text)")
                let after = try await web.get(try #require(added.headers[.location]))
                #expect(after.text.contains("Added 1 book to Reading."))
                #expect(after.text.contains("Added to your library"))
                #expect(try await web.get("/shelves/reading").text.contains("The Complete Essays"))

                let bob = WebSession(client)
                try await bob.register("bob")
                #expect(try await bob.get(path).status == .notFound)
                #expect(try await bob.post(path + "/add", ["pick": "4", "shelf": "read"]).status == .notFound)
                #expect(!(try await bob.get("/shelves/read")).text.contains("Harry Potter"))
                #expect(app.incomingFiles().isEmpty)
            }
        }
    }

    @Test func everyGeminiFailureGetsAClearMessage() async throws {
        try await FakeBooksServer.run { fake in
            let cases: [(key: String, model: String, status: HTTPResponse.Status, says: String)] = [
                ("bad-key", "gemini-2.5-flash", .serviceUnavailable, "did not accept the Gemini API key"),
                ("not-enabled", "gemini-2.5-flash", .serviceUnavailable, "Generative Language API is not enabled"),
                ("good", "gemini-5.0-flash", .serviceUnavailable, "does not offer the model “gemini-5.0-flash”"),
                ("reject", "gemini-2.5-flash", .unprocessableContent, "could not use this photo"),
                ("vertex-reject", "gemini-2.5-flash", .unprocessableContent, "could not use this photo"),
                ("safety", "gemini-2.5-flash", .unprocessableContent, "safety filter"),
                ("blocked", "gemini-2.5-flash", .unprocessableContent, "safety filter"),
                ("quota", "gemini-2.5-flash", .tooManyRequests, "quota is used up"),
                ("prose", "gemini-2.5-flash", .badGateway, "could not be read as a list of books"),
            ]
            for item in cases {
                var configured = TestApp(search: fake.settings())
                configured.config.gemini = fake.gemini(key: item.key, model: item.model)
                let app = configured
                try await app.run(live: true) { client in
                    let api = try await LibraryAPITests.signedIn(client)
                    let answer = try await api.upload(
                        "/api/v1/scans/shelf", files: [.init(data: try TestImages.fixture("Portrait_8.jpg"))])
                    #expect(answer.status == item.status, "\(item.key)")
                    #expect(
                        (answer.json?["error"] as? String)?.contains(item.says) == true, "\(item.key): \(answer.text)")
                }
            }
            // On the web the failure is the scan's page, with the ways forward.
            var configured = TestApp(search: fake.settings())
            configured.config.gemini = fake.gemini(key: "quota")
            let app = configured
            try await app.run(live: true) { client in
                let web = WebSession(client)
                try await web.register("alice")
                let upload = try await web.upload(
                    "/scan/shelf", files: [.init(data: try TestImages.fixture("Portrait_8.jpg"))])
                let page = try await Self.finished(web, try #require(upload.headers[.location]))
                #expect(page.text.contains("The shelf could not be read"))
                #expect(page.text.contains("quota is used up"))
                #expect(page.text.contains("href=\"/scan\""))
            }
        }
    }

    @Test func theAPIAnswersWithTheShelfInOrder() async throws {
        try await FakeBooksServer.run { fake in
            var configured = TestApp(search: fake.settings())
            configured.config.gemini = fake.gemini(key: "thinking")
            let app = configured
            // Through the router, not a live socket: the live test client gives up on a request after 20 s, which
            // this one (a photo, the model's answer, six lookups) can take when the whole suite runs at once.
            try await app.run { client in
                let api = try await LibraryAPITests.signedIn(client)
                let answer = try await api.upload(
                    "/api/v1/scans/shelf", files: [.init(data: try TestImages.fixture("Landscape_3.jpg"))])
                #expect(answer.status == .ok)
                let books = try #require(answer.json?["books"] as? [[String: Any]])
                #expect(books.count == 6)
                #expect(books.map { $0["confident"] as? Bool } == [true, false, false, false, false, false])
                #expect(books[2]["isbn"] is NSNull)  // the bad check digit
                #expect(books[2]["match"] is NSNull)
                #expect((books[0]["match"] as? [String: Any])?["title"] as? String == "The Complete Essays")
                #expect(books[3]["duplicate"] as? Bool == true)
                #expect(books[5]["confidence"] as? Double == 1)
            }
        }
    }

    @Test func modelOutputIsHeldToTheSchema() throws {
        #expect(
            try GeminiClient.parse("```json\n{\"books\": [{\"title\": \"Dune\", \"confidence\": 0.9}]}\n```")
                == [.init(title: "Dune", author: nil, isbn: nil, confidence: 0.9)])
        #expect(throws: GeminiClient.Failure.unreadableAnswer) { try GeminiClient.parse("I see many books!") }
        #expect(throws: GeminiClient.Failure.unreadableAnswer) { try GeminiClient.parse("{\"books\": \"many\"}") }
        let long = String(repeating: "x", count: 5_000)
        let parsed = try GeminiClient.parse(
            "{\"books\": [{\"title\": \"\(long)\", \"isbn\": \"978-0-14-044604-3\", \"confidence\": -3}]}")
        #expect(parsed.first?.title.count == 300)
        #expect(parsed.first?.isbn == "9780140446043")
        #expect(parsed.first?.confidence == 0)
        let many =
            "{\"books\": ["
            + Array(repeating: "{\"title\": \"A\", \"confidence\": 1}", count: 500).joined(separator: ",") + "]}"
        #expect(try GeminiClient.parse(many).count == GeminiClient.maxBooks)
        #expect(ShelfScanService.titlesAgree("Dune", "Dune: Deluxe Edition"))
        #expect(ShelfScanService.titlesAgree("The Complete Essays", "the complete essays"))
        #expect(ShelfScanService.titlesAgree("Sabriel (Old Kingdom, Book 1)", "Sabriel"))
        #expect(!ShelfScanService.titlesAgree("Dune", "Emma"))
        #expect(!ShelfScanService.titlesAgree("Dune", "Dune Messiah"))
        #expect(!ShelfScanService.titlesAgree("Harry Potter", "Harry Potter and the Deathly Hallows"))
        #expect(throws: AppConfig.InvalidSetting.self) {
            try AppConfig.fromEnvironment(["SHELFED_GEMINI_MODEL": "../../models/x?key=1"])
        }
    }
}
