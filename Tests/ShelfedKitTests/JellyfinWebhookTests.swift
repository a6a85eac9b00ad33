import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import ShelfedKit

/// The household's Jellyfin webhook (issue 38): the admin makes its secret address and links members to Jellyfin
/// users; a finished film is watched that day (added when it is not on the shelves), a finished episode of a show the
/// member has is watched in its open viewing; the same item on the same day counts once however often it is sent.
/// Without the secret, for a Jellyfin user nobody is linked to, oversize or not JSON: refused, nothing written. The
/// payloads are written here as the plugin writes them (see the recorded ones in `RealJellyfinPayloads`).
@Suite struct JellyfinWebhookTests {
    static func payload(_ fields: [String: Any]) throws -> String {
        var base: [String: Any] = [
            "ServerId": "16588a9f062a40c4966586b1d220bffc", "ServerName": "Sofa", "ServerVersion": "10.10.3",
            "ServerUrl": "", "Timestamp": "2026-03-14T23:19:42.3644758+02:00",
            "UtcTimestamp": "2026-03-14T21:19:42.3644778Z", "IsPaused": false,
            "UserId": "02700c8344d542619b39319296c0d4c7", "NotificationUsername": "Rain",
        ]
        base.merge(fields) { $1 }
        return String(decoding: try JSONSerialization.data(withJSONObject: base), as: UTF8.self)
    }

    static func post(_ client: any TestClientProtocol, _ body: String, secret: String?) async throws -> TestResponse {
        let query = secret.map { "?secret=\($0)" } ?? ""
        return try await client.execute(
            uri: "/hooks/jellyfin" + query, method: .post, headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body))
    }

    static func outcome(_ response: TestResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])?["outcome"]
            as? String
    }

    @Test func finishedFilmsAndEpisodesAreWatchedOnceAndStrangersAreRefused() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())  // 2026-03-15, 10:00 UTC
            try await app.run { client in
                let admin = WebSession(client)
                try await admin.register("admin")
                let sam = WebSession(client)
                try await sam.register("sam")
                let film = try Self.payload([
                    "NotificationType": "UserDataSaved", "SaveReason": "TogglePlayed", "Played": true,
                    "PlayCount": 1, "ItemId": "a1b2", "ItemType": "Movie", "Name": "Heat", "Year": 1995,
                    "Provider_imdb": "tt0113277", "Provider_tmdb": "949",
                ])
                // No address made yet: 404; a member's page is not the admin's.
                #expect(try await Self.post(client, film, secret: "anything").status == .notFound)
                #expect(try await sam.get("/household/jellyfin").status == .notFound)
                let made = try await admin.post("/household/jellyfin", ["action": "secret"])
                #expect(made.status == .ok && made.text.contains("it is shown only this once"))
                let secret = try #require(
                    made.text.components(separatedBy: "/hooks/jellyfin?secret=").dropFirst().first?
                        .prefix { $0.isHexDigit })
                #expect(secret.count == 48)
                #expect(!(try await admin.get("/household/jellyfin").text.contains(String(secret))))

                // Without the secret, or a wrong one: 401, nothing written.
                #expect(try await Self.post(client, film, secret: nil).status == .unauthorized)
                #expect(
                    try await Self.post(client, film, secret: String(repeating: "0", count: 48)).status == .unauthorized
                )
                // Nobody linked to that Jellyfin user: 403.
                #expect(try await Self.post(client, film, secret: String(secret)).status == .forbidden)
                let linked = try await admin.post(
                    "/household/jellyfin",
                    [
                        "action": "users", "jellyfin_user_2": "rain",
                        "jellyfin_user_1": String(repeating: "x", count: 101),
                    ])
                #expect(linked.status == .unprocessableContent && linked.text.contains("at most 100 characters"))
                _ = try await admin.post("/household/jellyfin", ["action": "users", "jellyfin_user_2": "rain"])
                // An unknown action changes nothing (it does not clear the links).
                #expect(try await admin.post("/household/jellyfin", ["action": "bogus"]).status == .badRequest)

                // Sam finished Heat: added to Watched, that day, with its ids; sent again and again, counted once.
                let first = try await Self.post(client, film, secret: String(secret))
                #expect(first.status == .ok && Self.outcome(first) == "counted")
                for _ in 0..<50 {
                    #expect(
                        Self.outcome(try await Self.post(client, film, secret: String(secret))) == "already-counted")
                }
                let films = try await app.database().read { db in
                    try Row.fetchAll(
                        db,
                        sql: """
                            SELECT book.title, user_book.shelf, user_book.finished_at, book.external_ids,
                                (SELECT COUNT(*) FROM read_through WHERE user_book_id = user_book.id)
                            FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = 2
                            """
                    ).map {
                        "\($0[0] as String) \($0[1] as String) \($0[2] as String) \($0[3] as String) \($0[4] as Int)"
                    }
                }
                #expect(films == [#"Heat read 2026-03-14 {"imdb":"tt0113277","tmdb":"949"} 0"#])
                #expect(
                    try await app.database().read { db in
                        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book WHERE user_id = 1")
                    } == 0)

                // Stopped early, or "played" taken off: nothing.
                let early = try Self.payload([
                    "NotificationType": "PlaybackStop", "PlayedToCompletion": false, "ItemId": "c3",
                    "ItemType": "Movie",
                    "Name": "Up", "Year": 2009,
                ])
                #expect(Self.outcome(try await Self.post(client, early, secret: String(secret))) == "ignored")

                // An episode of a show Sam has; one of a show Sam has not is not added on a guess.
                let show = try await ShowEpisodeTests.add(sam, "tvmaze", "44778")
                let episode = try Self.payload([
                    "NotificationType": "PlaybackStop", "PlayedToCompletion": true, "ItemId": "e1",
                    "ItemType": "Episode", "Name": "Good News About Hell", "SeriesName": "severance",
                    "SeasonNumber": 1, "SeasonNumber00": "01", "EpisodeNumber": 1, "EpisodeNumber00": "01",
                    "UserId": "02700C83-44D5-4261-9B39-319296C0D4C7",
                ])
                #expect(Self.outcome(try await Self.post(client, episode, secret: String(secret))) == "counted")
                #expect(try await ShowEpisodeTests.watches(app, show) == ["1:S1E1"])
                let other = try Self.payload([
                    "NotificationType": "PlaybackStop", "PlayedToCompletion": true, "ItemId": "e9",
                    "ItemType": "Episode", "SeriesName": "86 Eighty-Six", "SeasonNumber": 1, "EpisodeNumber": 1,
                ])
                #expect(Self.outcome(try await Self.post(client, other, secret: String(secret))) == "not-in-library")

                // Not JSON, or over 256 KB: refused with a message.
                let broken = try await Self.post(client, "{\"NotificationType\": ", secret: String(secret))
                #expect(broken.status == .badRequest && String(buffer: broken.body).contains("Generic destination"))
                let huge = try await Self.post(
                    client, "{\"Name\": \"" + String(repeating: "a", count: 300_000) + "\"}", secret: String(secret))
                #expect(huge.status == .contentTooLarge)

                // Turned off: the address answers 404 again.
                _ = try await admin.post("/household/jellyfin", ["action": "forget"])
                #expect(try await Self.post(client, film, secret: String(secret)).status == .notFound)
            }
        }
    }

    @Test func jellyfinsSevenDecimalTimestampsGiveTheHouseholdsDay() throws {
        var event = JellyfinEvent()
        event.utcTimestamp = "2025-08-15T23:19:42.3644778Z"
        #expect(event.day(in: TimeZone(identifier: "Europe/Berlin")!, today: "2026-01-01") == "2025-08-16")
        #expect(event.day(in: TimeZone(identifier: "UTC")!, today: "2026-01-01") == "2025-08-15")
        // Never after today; unreadable is today.
        #expect(event.day(in: TimeZone(identifier: "UTC")!, today: "2025-08-01") == "2025-08-01")
        event.utcTimestamp = "2025-08-15T23:19:42Z"
        #expect(event.day(in: TimeZone(identifier: "Europe/Berlin")!, today: "2026-01-01") == "2025-08-16")
        event.utcTimestamp = "yesterday"
        #expect(event.day(in: TimeZone(identifier: "UTC")!, today: "2026-01-01") == "2026-01-01")
    }
}

extension SharedFixtureConformance {
    /// The two payloads recorded from Jellyfin 10.10.3's webhook plugin (`../shared/fixtures/screen-imports/`): a
    /// playback stopped after 5 s and a "played" taken off. Neither is a finished viewing, whatever its event name.
    @Suite(.enabled(if: SharedFixtures.available, SharedFixtures.skipReason)) struct RealJellyfinPayloads {
        static func real(_ name: String) throws -> Data {
            try Data(
                contentsOf: SharedFixtures.url(
                    "screen-imports/jellyfin_webhook_\(name)_episode__AtaraxyState_JellyfinAnilistSync.json"))
        }

        @Test func neitherRecordedPayloadIsAFinishedViewing() throws {
            let stopped = try JSONDecoder().decode(JellyfinEvent.self, from: Self.real("PlaybackStop"))
            #expect(stopped.notificationType == "PlaybackStop" && stopped.playedToCompletion == false)
            #expect(!stopped.isFinished)
            #expect(stopped.seriesName == "86 Eighty-Six" && stopped.seasonNumber == 1 && stopped.episodeNumber == 1)
            #expect(stopped.tmdbID == nil && stopped.imdbID == nil, "only an AniDB id")
            #expect(stopped.day(in: TimeZone(identifier: "Europe/Berlin")!, today: "2026-01-01") == "2025-08-15")
            let unmarked = try JSONDecoder().decode(JellyfinEvent.self, from: Self.real("UserDataSaved"))
            #expect(unmarked.notificationType == "UserDataSaved" && unmarked.played == false)
            #expect(!unmarked.isFinished)
            #expect(unmarked.userID == "02700c8344d542619b39319296c0d4c7" && unmarked.userName == "Rain")
        }
    }
}
