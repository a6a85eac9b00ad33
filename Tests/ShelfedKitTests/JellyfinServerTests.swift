import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// The household's Jellyfin server (issue 38), against a stand-in answering as Jellyfin's API documents: the admin
/// links it with an address and an API key, checked before it is kept (a wrong address or a refused key is said so,
/// the key never shown back); a linked member brings in what they played there — a film onto Watched on the day it
/// was last played, episodes of a show they have into its viewing — and doing it again adds nothing.
@Suite struct JellyfinServerTests {
    @Test func theAdminLinksTheServerAndAMemberBringsInWhatTheyPlayed() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())  // 2026-03-15
            try await app.run { client in
                let admin = WebSession(client)
                try await admin.register("admin")
                let rain = WebSession(client)
                try await rain.register("rain")
                // Not linked yet: the import page offers nothing, and the action is not there.
                #expect(!(try await rain.get("/import").text.contains("From the house's Jellyfin")))
                #expect(try await rain.post("/import/from-jellyfin", [:]).status == .notFound)

                let address = fake.baseURL + "/jellyfin"
                let badURL = try await admin.post(
                    "/household/jellyfin",
                    [
                        "action": "server", "jellyfin_url": "jellyfin.local",
                        "jellyfin_api_key": FakeBooksServer.jellyfinKey,
                    ])
                #expect(badURL.status == .unprocessableContent && badURL.text.contains("Type the address you open"))
                #expect(badURL.text.contains(#"value="jellyfin.local""#), "what was typed stays")
                let refused = try await admin.post(
                    "/household/jellyfin",
                    [
                        "action": "server", "jellyfin_url": address + "/",
                        "jellyfin_api_key": "ffffffffffffffffffffffffffffffff",
                    ])
                #expect(
                    refused.status == .unprocessableContent && refused.text.contains("Jellyfin refused the API key"))
                #expect(!refused.text.contains("ffffffffffffffffffffffffffffffff"), "a key is never shown back")
                let linked = try await admin.post(
                    "/household/jellyfin",
                    [
                        "action": "server", "jellyfin_url": address + "/",
                        "jellyfin_api_key": FakeBooksServer.jellyfinKey,
                    ])
                #expect(linked.status == .ok && linked.text.contains("Connected to “Living room” (Jellyfin 10.10.3)"))
                #expect(!linked.text.contains(FakeBooksServer.jellyfinKey))
                #expect(try await rain.post("/household/jellyfin", ["action": "forget-server"]).status == .notFound)
                let byMember = try await rain.post(
                    "/household/jellyfin", ["action": "server", "jellyfin_url": address, "jellyfin_api_key": "x"])
                #expect(byMember.status == .notFound)
                // A key with a quote never reaches a header; no key typed keeps the saved one.
                let quoted = try await admin.post(
                    "/household/jellyfin",
                    ["action": "server", "jellyfin_url": address, "jellyfin_api_key": #"abc"def0123456789abcdef"#])
                #expect(quoted.status == .unprocessableContent && quoted.text.contains("Paste an API key"))
                let keptKey = try await admin.post(
                    "/household/jellyfin", ["action": "server", "jellyfin_url": address])
                #expect(keptKey.status == .ok && keptKey.text.contains("Connected to “Living room”"))

                // Rain is not linked to a Jellyfin user yet: she is told whom to ask.
                #expect(try await rain.get("/import").text.contains("From the house's Jellyfin"))
                let unlinked = try await rain.post("/import/from-jellyfin", [:])
                #expect(
                    unlinked.status == .unprocessableContent && unlinked.text.contains("not linked to a Jellyfin user"))
                _ = try await admin.post("/household/jellyfin", ["action": "users", "jellyfin_user_2": "RAIN"])

                // Before she has the show: the film comes in, the episodes (and the film with no day) are passed over.
                let first = try await rain.post("/import/from-jellyfin", [:])
                #expect(first.status == .ok && first.text.contains("From Jellyfin: 1 film or episode counted."))
                #expect(first.text.contains("4 items were passed over"))
                // Once it is on her shelves, its episodes count when brought in again; the film is not counted twice.
                let severance = try await ShowEpisodeTests.add(rain, "tvmaze", "44778")
                let brought = try await rain.post("/import/from-jellyfin", [:])
                #expect(brought.status == .ok)
                #expect(brought.text.contains("From Jellyfin: 2 films and episodes counted, 1 was already."))
                #expect(brought.text.contains("2 items were passed over"), "Nobody's Show, and Heat with no day")
                let (film, episodes) = try await app.database().read { db in
                    (
                        try String.fetchOne(
                            db,
                            sql: """
                                SELECT user_book.shelf || ' ' || user_book.finished_at FROM user_book
                                JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = 2 AND book.title = 'Dune'
                                """),
                        try String.fetchAll(
                            db,
                            sql: """
                                SELECT e.season || 'x' || e.number || ' ' || w.watched_on FROM episode_watch w
                                JOIN episode e ON e.id = w.episode_id WHERE e.book_id = ? ORDER BY e.season, e.number
                                """, arguments: [severance])
                    )
                }
                #expect(film == "read 2026-02-01")
                let heat = try await app.database().read { db in
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE title = 'Heat'")
                }
                #expect(heat == 0, "a play with no day is not dated today")
                #expect(episodes == ["1x1 2026-02-03", "1x2 2026-02-04"])
                #expect(
                    fake.jellyfinRequests.contains {
                        $0.hasPrefix("/jellyfin/Users/\(FakeBooksServer.jellyfinUserID)/Items")
                    })

                // Again: nothing twice.
                let again = try await rain.post("/import/from-jellyfin", [:])
                #expect(again.text.contains("From Jellyfin: 0 films and episodes counted, 3 were already."))

                // `doctor` checks the linked server and names a refused key with its fix.
                var doctor = Doctor(config: app.config)
                doctor.providerWait = .seconds(60)
                #expect(await doctor.jellyfinServer()?.status == .ok)
                try await app.database().write { db in
                    try db.execute(
                        sql: "UPDATE household_setting SET value = 'ffffffffffffffffffffffffffffffff' WHERE key = ?",
                        arguments: [JellyfinServer.apiKeyKey])
                }
                let refusedKey = await doctor.jellyfinServer()
                #expect(refusedKey?.status == .problem && refusedKey?.fix?.contains("API Keys") == true)
                let stale = try await rain.post("/import/from-jellyfin", [:])
                #expect(stale.status != .ok && stale.text.contains("Nothing was changed"))
                #expect(stale.text.contains("ask whoever runs Shelfed to save a new one"))

                // Unlinked: the action is gone again.
                _ = try await admin.post("/household/jellyfin", ["action": "forget-server"])
                #expect(await doctor.jellyfinServer() == nil)
                #expect(try await rain.post("/import/from-jellyfin", [:]).status == .notFound)
            }
        }
    }
}
