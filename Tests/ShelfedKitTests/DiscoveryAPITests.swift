import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The discovery endpoints (DESIGN §6): `/v1/search/similar`, `/api/v2/search` and `/api/v1/books/:id/similar`,
/// over the catalog rows the caller may discover (issue 35): theirs and those of members who share, never another
/// person's private additions, and nothing for a caller without a key.
@Suite struct DiscoveryAPITests {
    /// Provider rows (shared, as adding from a search makes them), written straight into the database, on the shelves
    /// of Carol, a member who shares her reading: so anyone signed in may discover them.
    static let shared: [(isbn: String, title: String, author: String, description: String)] = [
        ("9780000000019", "The Desert Prophet", "Ann Sand", "A young duke leads desert nomads against an empire."),
        ("9780000000026", "Sand and Spice", "Ann Sand", "Spice wars on a desert planet ruled by great houses."),
        ("9780000000033", "Sourdough at Home", "Ben Baker", "Recipes for bread, rye and brioche, with starters."),
        ("9780000000040", "Chess for Beginners", "Carl Board", "Learning openings, tactics and the endgame."),
    ]

    static func seedShared(_ app: TestApp) async throws {
        try FileManager.default.createDirectory(at: app.config.dataDirectory, withIntermediateDirectories: true)
        let database = try app.database()
        try await database.write { db in
            for book in Self.shared {
                try db.execute(
                    sql: """
                        INSERT INTO book (isbn13, title, authors, description, categories, source, created_at,
                            updated_at, owner_user_id)
                        VALUES (?, ?, ?, ?, '["Fiction"]', 'google', '2026-01-01 00:00:00.000',
                            '2026-01-01 00:00:00.000', NULL)
                        """, arguments: [book.isbn, book.title, "[\"\(book.author)\"]", book.description])
            }
        }
        let carol = try await UserStore(db: database).create(
            username: "carol", email: "carol@example.com", displayName: "Carol", passwordHash: "x", at: Date())
        try await database.write { db in
            try db.execute(sql: "UPDATE user SET shares_reading = 1 WHERE id = ?", arguments: [carol.id])
            try db.execute(
                sql: """
                    INSERT INTO user_book (user_id, book_id, shelf, added_at, updated_at)
                    SELECT ?, id, 'read', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000' FROM book
                    """, arguments: [carol.id])
        }
    }

    static func titles(_ response: TestResponse) -> [String] {
        let data = response.json?["data"] as? [String: Any]
        return (data?["books"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    @Test(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
    func similarAndSemanticSearchRankTheCatalogAndKeepOthersBooksOut() async throws {
        let app = MeaningSearchTests.app()
        try await Self.seedShared(app)
        try await app.run(live: true) { client in
            let bob = WebSession(client)
            try await bob.register("bob")
            let bobsBook = try await bob.addBook(
                [
                    "title": "Bob's desert diary", "authors": "Ann Sand", "isbn": "9780306406157",
                    "description": "A duke and nomads on a desert planet of spice.",
                ])
            let alice = WebSession(client)
            try await alice.register("alice")
            let alicesBook = try await alice.addBook(
                ["title": "Alice's dune notes", "description": "Notes on a desert planet and its prophet."])
            try await MeaningSearchTests.waitForVectors(app, count: Self.shared.count + 2)

            // Keyless (the BooksTrack app sends none): no one, so nothing to discover, and every ISBN is unknown.
            let keyless = try await client.execute(uri: "/v1/search/similar?isbn=9780000000019&limit=3", method: .get)
            #expect(keyless.status == .notFound)
            let keylessSearch = try await client.execute(
                uri: "/api/v2/search?query=a+novel+about+a+messiah+among+nomads&mode=semantic", method: .get)
            #expect(keylessSearch.status == .ok && Self.titles(keylessSearch).isEmpty)

            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            let similar = try await bobAPI.get("/v1/search/similar?isbn=9780000000019&limit=3")
            #expect(similar.status == .ok)
            let data = try #require(similar.json?["data"] as? [String: Any])
            #expect(data["mode"] as? String == "semantic")
            // Bob's own desert diary, then Carol's shared books: both are Bob's to discover.
            #expect(Self.titles(similar).prefix(2) == ["Bob's desert diary", "Sand and Spice"])
            let second = try #require((data["books"] as? [[String: Any]])?.dropFirst().first)
            #expect(second["score"] is Double && second["isbn13"] as? String == "9780000000026")

            // Bob's own row is his: unknown to everyone else, exactly as an ISBN nobody has.
            var aliceAPI = APIClient(client)
            try await aliceAPI.signIn("alice@example.com")
            let hidden = try await aliceAPI.get("/v1/search/similar?isbn=9780306406157")
            #expect(hidden.status == .notFound)
            #expect((hidden.json?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            let unknown = try await aliceAPI.get("/v1/search/similar?isbn=9780140446043")
            #expect(unknown.status == .notFound)
            #expect(
                !Self.titles(try await aliceAPI.get("/v1/search/similar?isbn=9780000000019")).contains {
                    $0.hasPrefix("Bob")
                })

            let semantic = try await aliceAPI.get(
                "/api/v2/search?query=a+novel+about+a+messiah+among+nomads&mode=semantic&limit=2")
            #expect(semantic.status == .ok)
            let semanticData = try #require(semantic.json?["data"] as? [String: Any])
            #expect(semanticData["mode"] as? String == "semantic")
            #expect(semanticData["query"] as? String == "a novel about a messiah among nomads")
            #expect(Self.titles(semantic).count == 2)
            #expect(Self.titles(semantic).contains("The Desert Prophet"))
            #expect(!Self.titles(semantic).contains { $0.hasPrefix("Bob") })

            // With a key, the caller's own books join the catalog; another person's never do.
            let api = aliceAPI
            let own = try await api.get("/api/v2/search?q=desert+planet+notes&mode=hybrid")
            #expect(Self.titles(own).first == "Alice's dune notes")
            #expect(!Self.titles(own).contains("Bob's desert diary"))
            let mine = try await api.get("/api/v1/books/\(alicesBook)/similar")
            #expect(mine.status == .ok)
            #expect(mine.json?["status"] as? String == "ready")
            let mineTitles = (mine.json?["books"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
            #expect(!mineTitles.isEmpty && !mineTitles.contains("Bob's desert diary"))
            #expect(try await api.get("/api/v1/books/\(bobsBook)/similar").status == .notFound)
        }
    }

    /// Issue 35: a book Bob added by ISBN is a provider row, but while Bob does not share it tells Alice nothing —
    /// not by ISBN, not by meaning, not in More like this — and when nobody has it any more it leaves the index.
    @Test(.enabled(if: EmbeddingModelFiles.present, Comment(rawValue: EmbeddingModelFiles.missing)))
    func aPrivateAdditionToTheCatalogIsDiscoverableOnlyByItsHolderAndWhileTheyShare() async throws {
        let app = MeaningSearchTests.app()
        try await Self.seedShared(app)
        let secretISBN = "9780306406157"
        try await app.run(live: true) { client in
            let bob = WebSession(client)
            try await bob.register("bob")
            let alice = WebSession(client)
            try await alice.register("alice")
            let alicesBook = try await alice.addBook(
                [
                    "title": "Alice's dune notes", "authors": "Ann Sand",
                    "description": "Notes on a desert planet and its prophet.",
                ])
            // Bob's private addition, as adding by ISBN makes it: a provider row (no owner) on his shelf only.
            let secret = try await app.database().write { db -> Int64 in
                try db.execute(
                    sql: """
                        INSERT INTO book (isbn13, title, authors, description, categories, source, created_at,
                            updated_at)
                        VALUES (?, 'The Secret Prophet of the Dunes', '["Ann Sand"]',
                            'A messiah rises among desert nomads on a spice planet.', '["Fiction"]', 'google',
                            '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000')
                        """, arguments: [secretISBN])
                let id = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO user_book (user_id, book_id, shelf, added_at, updated_at)
                        SELECT id, ?, 'want_to_read', '2026-01-01 00:00:00.000', '2026-01-01 00:00:00.000' FROM user
                        WHERE username = 'bob'
                        """, arguments: [id])
                return id
            }
            try await MeaningSearchTests.waitForVectors(app, count: Self.shared.count + 2)
            var aliceAPI = APIClient(client)
            try await aliceAPI.signIn("alice@example.com")
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            let question = "/api/v2/search?q=a+messiah+among+desert+nomads&mode=hybrid"
            func aliceDiscovers() async throws -> Bool {
                let byISBN = try await aliceAPI.get("/v1/search/similar?isbn=\(secretISBN)")
                let bySearch = Self.titles(try await aliceAPI.get(question))
                let similar = try await aliceAPI.get("/api/v1/books/\(alicesBook)/similar")
                let similarTitles = (similar.json?["books"] as? [[String: Any]] ?? []).compactMap {
                    $0["title"] as? String
                }
                let page = try await alice.get("/books/\(alicesBook)").text
                let seen = [
                    byISBN.status == .ok, bySearch.contains("The Secret Prophet of the Dunes"),
                    similarTitles.contains("The Secret Prophet of the Dunes"), page.contains("Secret Prophet"),
                ]
                #expect(Set(seen).count == 1, "every route agrees: \(seen)")
                return seen.allSatisfy { $0 }
            }

            // act and validate: Bob does not share, so the row is Bob's alone; the ISBN answers as an unknown one.
            #expect(try await aliceDiscovers() == false)
            let hidden = try await aliceAPI.get("/v1/search/similar?isbn=\(secretISBN)")
            let unknown = try await aliceAPI.get("/v1/search/similar?isbn=9780140446043")
            #expect(hidden.status == unknown.status)
            #expect(
                (hidden.json?["error"] as? [String: Any])?["message"] as? String
                    == ((unknown.json?["error"] as? [String: Any])?["message"] as? String)?
                    .replacingOccurrences(of: "9780140446043", with: secretISBN))
            #expect(try await bobAPI.get("/v1/search/similar?isbn=\(secretISBN)").status == .ok)

            // Bob shares: the house may see it. Bob stops: gone again, at once.
            _ = try await bob.post("/profile/sharing", ["shares": "1"])
            #expect(try await aliceDiscovers() == true)
            _ = try await bob.post("/profile/sharing", ["shares": "0"])
            #expect(try await aliceDiscovers() == false)

            // Nobody has it any more: its vector leaves the index, and it is not embedded again.
            let removed = try await bob.post("/books/\(secret)/remove")
            #expect(removed.status == .seeOther)
            let vectors = try await app.database().read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book_embedding WHERE book_id = ?", arguments: [secret])
            }
            #expect(vectors == 0)
            #expect(try await bobAPI.get("/v1/search/similar?isbn=\(secretISBN)").status == .notFound)
        }
    }

    @Test func withoutAModelSemanticSearchAnswersFromWordsNeverA5xx() async throws {
        let app = TestApp()
        try await Self.seedShared(app)
        try await app.run(live: true) { client in
            _ = try await WebSession(client).register("alice")
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let answer = try await api.get("/api/v2/search?q=bread+rye&mode=semantic")
            #expect(answer.status == .ok)
            let data = try #require(answer.json?["data"] as? [String: Any])
            #expect(data["mode"] as? String == "text")
            #expect(Self.titles(answer) == ["Sourdough at Home"])
            let similar = try await api.get("/v1/search/similar?isbn=9780000000019")
            #expect(similar.status == .ok)
            #expect((similar.json?["data"] as? [String: Any])?["mode"] as? String == "text")
        }
    }

    @Test func badParametersAreRefusedInTheEnvelope() async throws {
        try await TestApp().run(live: true) { client in
            for uri in [
                "/v1/search/similar", "/v1/search/similar?isbn=12", "/v1/search/similar?isbn=9780000000019&limit=0",
                "/api/v2/search", "/api/v2/search?q=x&mode=vibes", "/api/v2/search?q=x&limit=41",
                "/api/v2/search?q=x&offset=-1", "/api/v2/search?q=x&offset=99999999999999999999",
            ] {
                let answer = try await client.execute(uri: uri, method: .get)
                #expect(answer.status == .badRequest, "\(uri)")
                #expect((answer.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
            }
        }
    }
}
