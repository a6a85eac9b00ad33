import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Pages that find by meaning (issue 23): "Read next" on the home page (and for the API), "Search my quotes" — a question about a passage finds the page photo whose
/// words are about that, though it shares none of them — and the search page, which offers books the server knows
/// when Google Books finds nothing or cannot answer. Never another person's photo or typed book.
@Suite(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
struct MeaningPagesTests {
    /// Passages written for this test, each on a page photo of its own book.
    static let passages: [(title: String, words: String)] = [
        (
            "The Long Crossing",
            "The wind tore at the sails all night and the waves rose over the rail, yet she kept telling the crew "
                + "that morning would come and they would see the harbour lights again."
        ),
        (
            "Rent Day",
            "He counted the coins twice and put them back in the tin under the floorboard; the landlord would "
                + "knock on Friday."
        ),
        (
            "A June Garden",
            "The garden smelled of roses and cut grass, and the children ran barefoot between the beds until dark."
        ),
        (
            "The Blackboard",
            "The old professor went through the proof line by line until the whole class saw why the theorem "
                + "could not be false."
        ),
    ]

    /// The photo links of a quotes page's results, in order.
    static func photoLinks(_ page: String) -> [String] {
        page.components(separatedBy: "<h2 class=\"result-title\"><a href=\"").dropFirst().compactMap {
            $0.split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }

    /// The titles of a search page's results, linked or not, in order.
    static func resultTitles(_ page: String) -> [String] {
        page.components(separatedBy: "<h2 class=\"result-title\">").dropFirst().compactMap { part in
            let heading = part.components(separatedBy: "</h2>").first ?? ""
            return heading.replacing(#/<[^>]*>/#, with: "").replacingOccurrences(of: "&#39;", with: "'")
        }
    }

    static func waitForPhotoVectors(_ app: TestApp, count: Int) async throws {
        let database = try app.database()
        for _ in 0..<240 {
            let done = try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM photo_embedding WHERE vector IS NOT NULL") ?? 0
            }
            if done >= count { return }
            try await Task.sleep(for: .milliseconds(250))
        }
        Issue.record("the photos were not embedded within a minute")
    }

    @Test func aQuestionAboutAPassageFindsItsPhotoAndOnlyYourOwn() async throws {
        let app = MeaningSearchTests.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            var photos: [Int64] = []
            for passage in Self.passages {
                let book = try await alice.addBook(["title": passage.title, "authors": "A. Writer"])
                let photo = try await Self.photo(alice, of: book)
                try TextSearchTests.read(passage.words, photo: photo, in: app)
                photos.append(photo)
            }
            let bob = WebSession(client)
            let (_, bobsPhoto) = try await TextSearchTests.photoOfAPage(bob, "bob", title: "Storm Log")
            try TextSearchTests.read(
                "Through the storm he held on to hope: the lighthouse would be lit again by dawn.", photo: bobsPhoto,
                in: app)
            try await Self.waitForPhotoVectors(app, count: Self.passages.count + 1)

            let question = "the passage about hope in the storm"
            // Words alone find nothing: no photo has every word of the question.
            #expect(try await TextSearchStore(db: app.database()).quotes(of: 1, matching: question).isEmpty)
            let page = try await alice.get("/quotes?q=the+passage+about+hope+in+the+storm")
            #expect(page.status == .ok)
            #expect(page.text.contains("Ranked by meaning and words."))
            let links = Self.photoLinks(page.text)
            #expect(links.first == "/photos/\(photos[0])")
            #expect(!page.text.contains("/photos/\(bobsPhoto)"))
            #expect(page.text.contains("yet she kept telling the crew"))

            // A remembered phrase typed word for word is still first, with its words marked.
            let typed = try await alice.get("/quotes?q=counted+the+coins")
            #expect(Self.photoLinks(typed.text).first == "/photos/\(photos[1])")
            #expect(typed.text.contains("<mark>counted</mark>"))
            let bobs = try await bob.get("/quotes?q=the+passage+about+hope+in+the+storm")
            #expect(Self.photoLinks(bobs.text) == ["/photos/\(bobsPhoto)"])
        }
    }

    @Test func theSearchPageOffersBooksCloseInMeaningWhenGoogleCannotHelp() async throws {
        let question = "/search?q=a+novel+about+a+messiah+among+nomads"
        try await FakeBooksServer.run { fake in
            let app = MeaningSearchTests.app(search: fake.settings())
            try await DiscoveryAPITests.seedShared(app)
            try await app.run(live: true) { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                let alicesBook = try await alice.addBook(
                    ["title": "Alice's dune notes", "description": "Notes on a desert messiah and the nomads."])
                let bob = WebSession(client)
                try await bob.register("bob")
                _ = try await bob.addBook([
                    "title": "Bob's own prophet", "isbn": "9780306406157",
                    "description": "A messiah rises among desert nomads.",
                ])
                try await MeaningSearchTests.waitForVectors(app, count: DiscoveryAPITests.shared.count + 2)

                // Google Books finds nothing: the books the server knows, closest first, each addable by its ISBN.
                let page = try await alice.get(question)
                #expect(page.status == .ok)
                #expect(page.text.contains("Google Books found nothing for “a novel about a messiah among nomads”"))
                #expect(!page.text.contains("No books found for"))
                let titles = Self.resultTitles(page.text)
                #expect(titles.prefix(3).contains("The Desert Prophet"))
                #expect(page.text.contains(#"name="isbn" value="9780000000019""#))
                // Alice's own typed book is hers: on her shelf, linked to its page; Bob's never shows.
                #expect(page.text.contains("href=\"/books/\(alicesBook)\""))
                #expect(!page.text.contains("Bob's own prophet") && !page.text.contains("9780306406157"))

                // Keys mashed, or a bare ISBN Google does not know: nothing is near noise, so nothing is offered.
                for noise in ["/search?q=xqzvbn+wkrtpl", "/search?q=9780441172719"] {
                    let answer = try await alice.get(noise)
                    #expect(answer.status == .ok)
                    #expect(!answer.text.contains("meaning-heading"), "\(noise)")
                    #expect(Self.resultTitles(answer.text).isEmpty, "\(noise)")
                }

                // Google Books down: the same offer, under the friendly failure.
                fake.failGoogle(.status(503), .status(503), .status(503))
                let down = try await alice.get("/search?q=the+prophet+of+the+desert+tribes")
                #expect(down.text.contains("Search is unavailable"))
                #expect(down.text.contains("While Google Books cannot answer, these"))
                #expect(Self.resultTitles(down.text).contains("The Desert Prophet"))
            }
        }
    }

    /// "Read next" on the home page: what to read from Want to read, by the books the person loved; an empty state
    /// that says what it needs first.
    @Test func readNextSuggestsFromWantToReadBecauseOfLovedBooks() async throws {
        let app = MeaningSearchTests.app()
        try await app.run(live: true) { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let loved = try await alice.addBook(
                [
                    "title": "The Desert Prophet", "shelf": "read",
                    "description": "A young duke leads desert nomads against an empire on a planet of spice.",
                ])
            _ = try await alice.addBook(
                [
                    "title": "Sourdough at Home", "shelf": "want_to_read", "isbn": "9780306406157",
                    "description": "Recipes for bread, rye and brioche, with starters.",
                ])
            _ = try await alice.addBook(
                [
                    "title": "Sand and Spice", "shelf": "want_to_read",
                    "description": "Spice wars on a desert planet ruled by great houses.",
                ])
            try await MeaningSearchTests.waitForVectors(app, count: 3)
            let before = try await alice.get("/").text
            #expect(before.contains("Read next") && before.contains("Rate the books you loved"))
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            #expect(try await api.get("/api/v1/recommendations").json?["status"] as? String == "nothing_loved")
            _ = try await alice.post("/books/\(loved)/review", ["rating": "5"])
            let home = try await alice.get("/").text
            let section = try #require(home.components(separatedBy: "Read next</h2>").last)
            let suggested = MeaningSearchTests.similarTitles(section)
            #expect(suggested.first == "Sand and Spice", "\(suggested)")
            #expect(!suggested.contains("The Desert Prophet"))
            // A cookbook is nothing like a desert epic: not suggested "because you loved" it.
            #expect(!suggested.contains("Sourdough at Home"))
            #expect(section.contains("Because you loved <em>The Desert Prophet</em>"))

            // The same for Shelfed's own clients.
            let answer = try await api.get("/api/v1/recommendations?limit=5")
            #expect(answer.status == .ok && answer.json?["status"] as? String == "ready")
            let first = try #require((answer.json?["books"] as? [[String: Any]])?.first)
            #expect(first["title"] as? String == "Sand and Spice")
            #expect(first["reasons"] as? [String] == ["Because you loved The Desert Prophet"])
            #expect(first["shelf_id"] as? Int == Shelf.wantToRead.readerID && first["book_id"] is Int)
            #expect(try await api.get("/api/v1/recommendations?limit=0").status == .badRequest)

            // Someone in the house recommends the cookbook (their own copy, the same ISBN): it comes first, with who
            // recommended it, though it is like nothing Alice loved.
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobsCopy = try await bob.addBook(["title": "Sourdough at Home", "isbn": "9780306406157"])
            let sent = try await bob.post("/books/\(bobsCopy)/recommend", ["member": "1", "note": "Try the rye"])
            #expect(sent.status == .seeOther)
            let recommended = try #require(try await alice.get("/").text.components(separatedBy: "Read next</h2>").last)
            #expect(MeaningSearchTests.similarTitles(recommended).prefix(2) == ["Sourdough at Home", "Sand and Spice"])
            #expect(recommended.contains("Recommended by Bob"))
            let reasons = try await api.get("/api/v1/recommendations").json?["books"] as? [[String: Any]]
            #expect(reasons?.first?["reasons"] as? [String] == ["Recommended by Bob"])
        }
    }

    /// Uploads a page photo of `book`; returns its id.
    static func photo(_ web: WebSession, of book: Int64) async throws -> Int64 {
        let uploaded = try await web.upload(
            "/books/\(book)/photos", fields: [("page_number", "3"), ("comment", "")],
            files: [.init(data: try TestImages.fixture("Portrait_1.jpg"))])
        return try #require(uploaded.headers[.location].flatMap { Int64($0.split(separator: "/").last ?? "") })
    }
}
