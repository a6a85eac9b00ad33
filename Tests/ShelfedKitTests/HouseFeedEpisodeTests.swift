import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// A show in the house feed (issue 37): one line a show a day — "watched S1E2 of", "watched 2 episodes of …, up to
/// S2E2", "finished … season 1" — none on the day the show was started (that line says it), the same through the API,
/// and nothing from a member who does not share.
@Suite struct HouseFeedEpisodeTests {
    static func lines(_ feed: String) -> [String] {
        feed.components(separatedBy: "<li>").dropFirst().map {
            $0.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
                .components(separatedBy: "\n")[0]
        }
    }

    @Test func aShowsDaysAreOneLineEachAndAFinishedSeasonIsSaid() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())  // 2026-03-15, 10:00
            try await app.run { client in
                let sam = WebSession(client)
                try await sam.register("sam")
                _ = try await sam.post("/profile/sharing", ["shares": "1"])
                let show = try await ShowEpisodeTests.add(sam, "tvmaze", "44778")
                _ = try await sam.post("/books/\(show)/episodes", ["season": "1", "episode": "1", "scope": "one"])
                app.clock.advance(by: 86_400)
                _ = try await sam.post("/books/\(show)/episodes", ["season": "1", "episode": "2", "scope": "one"])
                app.clock.advance(by: 86_400)
                _ = try await sam.post("/books/\(show)/episodes", ["season": "1", "mark": "up_to:4"])
                app.clock.advance(by: 86_400)
                _ = try await sam.post("/books/\(show)/episodes", ["season": "2", "mark": "up_to:2"])

                let bob = WebSession(client)
                try await bob.register("bob")
                let lines = Self.lines(try await bob.get("/house/feed").text)
                #expect(lines.count == 4, "\(lines)")
                #expect(lines.first == "today Sam watched 2 episodes of Severance, up to S2E2")
                #expect(lines.dropFirst().first == "yesterday Sam finished Severance season 1")
                #expect(lines.dropFirst(2).first?.hasSuffix("Sam watched S1E2 of Severance") == true)
                #expect(lines.last?.hasSuffix("Sam started watching Severance") == true)

                var api = APIClient(client)
                try await api.signIn("bob@example.com")
                let items = try #require(
                    try await api.get("/api/v1/household/feed").json?["items"] as? [[String: Any]])
                let today = try #require(items.first)
                #expect(today["kind"] as? String == "episodes" && today["episodes"] as? Int == 2)
                #expect(today["season"] as? Int == 2 && today["episode"] as? Int == 2)
                #expect(today["season_finished"] as? Bool == false && today["page"] is NSNull)
                #expect(items[1]["season_finished"] as? Bool == true)
                #expect(items.last?["episodes"] == nil)

                // Sam stops sharing: none of it is left in Bob's feed.
                _ = try await sam.post("/profile/sharing", ["shares": "0"])
                #expect(Self.lines(try await bob.get("/house/feed").text).isEmpty)
            }
        }
    }

    @Test func aShowAnImportBroughtKeepsItsOldDaysToTheImportsLine() async throws {
        let app = TestApp()  // 2026-03-15, 10:00
        try await app.run { client in
            let sam = WebSession(client)
            try await sam.register("sam")
            _ = try await sam.post("/profile/sharing", ["shares": "1"])
            let staged = try await sam.upload(
                "/import",
                files: [
                    .init(
                        field: "file", filename: "watched-shows.json", contentType: "application/json",
                        data: Data(ScreenImportTests.traktWatchedShows.utf8))
                ])
            let job = try #require(staged.headers[.location])
            #expect(job.hasPrefix("/import/"))
            _ = try await sam.post(job + "/confirm", ["existing": "update"])
            let database = try app.database()
            for _ in 0..<400 {
                let status = try await database.read { db in
                    try String.fetchOne(db, sql: "SELECT status FROM import_job ORDER BY created_at DESC LIMIT 1")
                }
                if status == "completed" { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let watches = try await database.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM episode_watch") ?? 0
            }
            #expect(watches == 4)

            let bob = WebSession(client)
            try await bob.register("bob")
            let lines = Self.lines(try await bob.get("/house/feed").text)
            #expect(!lines.contains { $0.contains("of Chuck") }, "\(lines)")
        }
    }
}
