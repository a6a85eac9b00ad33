import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The discovery endpoints (DESIGN §6): `/v1/search/similar`, `/api/v2/search` and `/api/v1/books/:id/similar`,
/// over provider rows and the caller's own books, never another person's.
@Suite struct DiscoveryAPITests {
    /// Provider rows (shared, as adding from a search makes them), written straight into the database.
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

            // Keyless (the BooksTrack app sends none): provider rows only.
            let similar = try await client.execute(uri: "/v1/search/similar?isbn=9780000000019&limit=3", method: .get)
            #expect(similar.status == .ok)
            let data = try #require(similar.json?["data"] as? [String: Any])
            #expect(data["mode"] as? String == "semantic")
            #expect(Self.titles(similar).first == "Sand and Spice")
            #expect(!Self.titles(similar).contains("Bob's desert diary"))
            let first = try #require((data["books"] as? [[String: Any]])?.first)
            #expect(first["score"] is Double && first["isbn13"] as? String == "9780000000026")

            // Bob's own row is his: unknown to a keyless caller, and so to everyone else.
            let hidden = try await client.execute(uri: "/v1/search/similar?isbn=9780306406157", method: .get)
            #expect(hidden.status == .notFound)
            #expect((hidden.json?["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
            let unknown = try await client.execute(uri: "/v1/search/similar?isbn=9780140446043", method: .get)
            #expect(unknown.status == .notFound)

            let semantic = try await client.execute(
                uri: "/api/v2/search?query=a+novel+about+a+messiah+among+nomads&mode=semantic&limit=2", method: .get)
            #expect(semantic.status == .ok)
            let semanticData = try #require(semantic.json?["data"] as? [String: Any])
            #expect(semanticData["mode"] as? String == "semantic")
            #expect(semanticData["query"] as? String == "a novel about a messiah among nomads")
            #expect(Self.titles(semantic).count == 2)
            #expect(Self.titles(semantic).first == "The Desert Prophet")
            #expect(!Self.titles(semantic).contains { $0.hasPrefix("Bob") || $0.hasPrefix("Alice") })

            // With a key, the caller's own books join the catalog; another person's never do.
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
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

    @Test func withoutAModelSemanticSearchAnswersFromWordsNeverA5xx() async throws {
        let app = TestApp()
        try await Self.seedShared(app)
        try await app.run(live: true) { client in
            let answer = try await client.execute(uri: "/api/v2/search?q=bread+rye&mode=semantic", method: .get)
            #expect(answer.status == .ok)
            let data = try #require(answer.json?["data"] as? [String: Any])
            #expect(data["mode"] as? String == "text")
            #expect(Self.titles(answer) == ["Sourdough at Home"])
            let similar = try await client.execute(uri: "/v1/search/similar?isbn=9780000000019", method: .get)
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
