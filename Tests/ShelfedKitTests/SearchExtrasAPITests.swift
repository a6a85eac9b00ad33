import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// `/v1/search/advanced` (title, author and ISBN through the search service), `/api/v2/trending-searches` (the
/// caller's own searches of the last week) and `/api/v1/recommendations` without a model.
@Suite struct SearchExtrasAPITests {
    static func books(_ response: TestResponse) -> [[String: Any]] {
        (response.json?["data"] as? [String: Any])?["books"] as? [[String: Any]] ?? []
    }

    @Test func advancedSearchCombinesTitleAuthorAndISBN() async throws {
        try await FakeBooksServer.run { fake in
            try await TestApp(search: fake.settings()).run(live: true) { client in
                let byTitle = try await client.execute(uri: "/v1/search/advanced?title=Harry+Potter", method: .get)
                #expect(byTitle.status == .ok)
                #expect(fake.googleRequests.last?.contains("q=intitle:Harry%20intitle:Potter") == true)
                #expect(Self.books(byTitle).contains { ($0["title"] as? String)?.contains("Harry Potter") == true })
                #expect((byTitle.json?["data"] as? [String: Any])?["totalItems"] is Int)

                // Operators typed in a field stay words of that field.
                _ = try await client.execute(uri: "/v1/search/advanced?author=x+inauthor%3Ay+%22z%22", method: .get)
                #expect(
                    fake.googleRequests.last?.contains("q=inauthor:x%20inauthor:inauthor%20inauthor:y%20inauthor:z")
                        == true)

                let essays = try await client.execute(
                    uri: "/v1/search/advanced?isbn=0-14-044604-4&title=complete+essays&author=montaigne", method: .get)
                #expect(Self.books(essays).first?["title"] as? String == "The Complete Essays")
                let wrongAuthor = try await client.execute(
                    uri: "/v1/search/advanced?isbn=9780140446043&author=Tolstoy", method: .get)
                #expect(wrongAuthor.status == .ok && Self.books(wrongAuthor).isEmpty)
                #expect((wrongAuthor.json?["data"] as? [String: Any])?["totalItems"] as? Int == 0)

                for uri in [
                    "/v1/search/advanced", "/v1/search/advanced?title=+&author=", "/v1/search/advanced?isbn=12",
                    "/v1/search/advanced?title=%22%3A%22", "/v1/search/advanced?title=dune&limit=41",
                    "/v1/search/advanced?author=" + String(repeating: "a", count: 301),
                ] {
                    let answer = try await client.execute(uri: uri, method: .get)
                    #expect(answer.status == .badRequest, "\(uri)")
                    #expect((answer.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
                }
            }
        }
    }

    @Test func trendingSearchesAreTheCallersOwnOfTheLastWeekEvenWhenTheHouseShares() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run(live: true) { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                let bob = WebSession(client)
                try await bob.register("bob")
                var aliceAPI = APIClient(client)
                try await aliceAPI.signIn("alice@example.com")
                var bobAPI = APIClient(client)
                try await bobAPI.signIn("bob@example.com")

                _ = try await alice.get("/search?q=batman")
                app.clock.advance(by: 8 * 24 * 3_600)  // a week and a day later: that search has dropped out
                _ = try await alice.get("/search?q=harry+potter")
                _ = try await aliceAPI.get("/v1/search/title?q=harry%20potter")
                _ = try await alice.get("/search?q=Harry++P%C3%B6tter")
                _ = try await alice.get("/search?q=Dune")
                _ = try await alice.get("/search?q=9780140446043")  // an ISBN is a lookup, not a topic
                _ = try await bob.get("/search?q=secret+gift+ideas")

                let trending = try await aliceAPI.get("/api/v2/trending-searches")
                #expect(trending.status == .ok)
                #expect(trending.json?["success"] == nil)  // bare, not the envelope
                let searches = try #require(trending.json?["trendingSearches"] as? [[String: Any]])
                #expect(searches.map { $0["query"] as? String } == ["Harry Pötter", "Dune"])
                #expect(searches.map { $0["searchCount"] as? Int } == [3, 1])
                let generated = try #require(trending.json?["generatedAt"] as? String)
                #expect(ISO8601DateFormatter().date(from: generated) != nil)
                #expect(
                    (try await aliceAPI.get("/api/v2/trending-searches?limit=1").json?["trendingSearches"]
                        as? [Any])?.count == 1)

                // Bob sees his own only; a caller without a key has none.
                let bobs = try await bobAPI.get("/api/v2/trending-searches")
                #expect(
                    (bobs.json?["trendingSearches"] as? [[String: Any]])?.map { $0["query"] as? String }
                        == ["secret gift ideas"])

                // Sharing one's reading never shares one's searches (issue 35): with both sharing, each still sees
                // only their own.
                _ = try await alice.post("/profile/sharing", ["shares": "1"])
                _ = try await bob.post("/profile/sharing", ["shares": "1"])
                for (member, own) in [(aliceAPI, ["Harry Pötter", "Dune"]), (bobAPI, ["secret gift ideas"])] {
                    let answer =
                        try await member.get("/api/v2/trending-searches").json?["trendingSearches"]
                        as? [[String: Any]]
                    #expect(answer?.map { $0["query"] as? String } == own)
                }

                let keyless = try await client.execute(uri: "/api/v2/trending-searches", method: .get)
                #expect((keyless.json?["trendingSearches"] as? [Any])?.isEmpty == true)
                for uri in ["/api/v2/trending-searches?limit=0", "/api/v2/trending-searches?limit=51"] {
                    let answer = try await client.execute(uri: uri, method: .get)
                    #expect(answer.status == .badRequest)
                    #expect((answer.json?["error"] as? [String: Any])?["code"] as? String == "INVALID_REQUEST")
                }
            }
        }
    }

    @Test func searchHistoryIsBoundedPerPerson() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try AppDatabase(path: directory.appendingPathComponent("shelfed.sqlite").path)
        let user = try await UserStore(db: db).create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: Date()
        ).id!
        let history = SearchHistory(db: db)
        let now = Date()
        for number in 0..<(SearchHistory.maxKept + 50) {
            try await history.record("query \(number % 7)", userID: user, now: now)
        }
        let kept = try await db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM search_history") }
        #expect(kept == SearchHistory.maxKept)
        #expect(SearchHistory.cleaned("  a\u{0}\u{7}b \n\t c ") == "a b c")
        #expect(SearchHistory.cleaned(String(repeating: "x", count: 500))?.count == SearchHistory.maxQueryLength)
        #expect(SearchHistory.cleaned(" \n ") == nil)
    }

    @Test func recommendationsSayWhenTheServerHasNoModel() async throws {
        try await TestApp().run(live: true) { client in
            let web = WebSession(client)
            try await web.register("alice")
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            let answer = try await api.get("/api/v1/recommendations")
            #expect(answer.status == .ok)
            #expect(answer.json?["status"] as? String == "unavailable")
            #expect((answer.json?["message"] as? String)?.isEmpty == false)
            #expect(try await APIClient(client).get("/api/v1/recommendations").status == .unauthorized)
        }
    }
}
