import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// "At home" (issue 38): the films and shows on the household's Jellyfin, read from a stand-in answering as
/// Jellyfin's API documents, are matched to catalog rows by TMDB key, IMDb id, or kind, title and year; their pages
/// and film night say so, owned-first; the list is read again after six hours or a changed server, and goes with the
/// server when it is unlinked.
@Suite struct JellyfinLibraryTests {
    @Test func titlesOnTheHousesJellyfinSayAtHomeUntilTheServerIsUnlinked() async throws {
        try await FakeBooksServer.run { fake in
            let clock = TestClock()
            let app = TestApp(clock: clock, search: fake.settings())
            try await app.run { client in
                let admin = WebSession(client)
                try await admin.register("admin")
                func add(_ title: String, _ kind: String, year: String = "") async throws -> Int64 {
                    try await admin.addBook(
                        ["title": title, "kind": kind, "published_date": year, "shelf": "want_to_read"])
                }
                // Dune by its TMDB key under another title; Severance by its IMDb id under another year; Arrival by
                // its title with no year; Heat is not on the server; a show called Arrival is not the film.
                let dune = try await add("Dune: Part One", "movie", year: "2021")
                let severance = try await add("Severance", "show", year: "2019")
                let arrival = try await add("ARRIVAL", "movie")
                let heat = try await add("Heat", "movie", year: "1995")
                let arrivalShow = try await add("Arrival", "show", year: "2016")
                let db = try app.database()
                try await db.write { db in
                    try db.execute(
                        sql: "UPDATE book SET provider_key = 'tmdb:movie:438631' WHERE id = ?", arguments: [dune])
                    try db.execute(
                        sql: #"UPDATE book SET external_ids = '{"imdb":"tt11280740"}' WHERE id = ?"#,
                        arguments: [severance])
                }
                var logger = Logger(label: "jellyfin-library-tests")
                logger.logLevel = .critical
                let server = JellyfinServer(
                    db: db, settings: fake.settings(), clock: app.config.clock, logger: logger,
                    http: { OutboundHTTP.client })
                let library = JellyfinLibrary(db: db, server: server)
                // No server: nothing is due, nothing is at home.
                #expect(try await library.isDue(now: clock.now) == false)
                #expect(try await library.refresh(now: clock.now) == nil)
                #expect(!(try await admin.get("/books/\(dune)").text.contains("At home")))

                let linked = try await admin.post(
                    "/household/jellyfin",
                    [
                        "action": "server", "jellyfin_url": fake.baseURL + "/jellyfin",
                        "jellyfin_api_key": FakeBooksServer.jellyfinKey,
                    ])
                #expect(linked.status == .ok)
                #expect(try await library.refresh(now: clock.now) == 4)
                #expect(fake.jellyfinRequests.contains { $0.hasPrefix("/jellyfin/Items?") })
                #expect(try await library.isDue(now: clock.now) == false)
                for (book, home) in [
                    (dune, true), (severance, true), (arrival, true), (heat, false), (arrivalShow, false),
                ] {
                    let page = try await admin.get("/books/\(book)")
                    #expect(page.text.contains("At home</span> on the house's Jellyfin") == home, "book \(book)")
                }
                let house = try await admin.get("/household/jellyfin")
                #expect(house.text.contains("Shelfed found 4 films and shows on it"))

                // Film night: what is at home comes first, and says so.
                let evening = try await FilmNight(db: db).evening(for: 1, with: [], kind: .movie, fitsIn: nil)
                #expect(evening.candidates.prefix(2).allSatisfy { $0.atHome })
                #expect(evening.candidates.last?.bookID == heat && evening.candidates.last?.atHome == false)
                let night = try await admin.get("/film-night")
                #expect(night.text.components(separatedBy: "At home on Jellyfin").count == 3 + 1)

                // Six hours on, the list is read again.
                clock.advance(by: JellyfinLibrary.refreshEvery)
                #expect(try await library.isDue(now: clock.now))

                // Unlinked: nothing is at home any more, and nothing is due.
                #expect(try await admin.post("/household/jellyfin", ["action": "forget-server"]).status == .seeOther)
                #expect(!(try await admin.get("/books/\(dune)").text.contains("At home")))
                #expect(try await library.isDue(now: clock.now) == false)
                #expect(try await db.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM jellyfin_library") } == 0)
            }
        }
    }

    /// A server's answer is hostile input: ids that are not ids give no keys, a season is not a title, an
    /// absurd year is no year.
    @Test func aServersOddItemsGiveOnlyTheKeysTheyCanBeTrustedFor() throws {
        func item(_ json: String) throws -> JellyfinClient.Item {
            try JSONDecoder().decode(JellyfinClient.Item.self, from: Data(json.utf8))
        }
        let odd = try item(
            #"{"Name":"Alien","Type":"Movie","ProductionYear":99999,"ProviderIds":{"Tmdb":"12a","Imdb":"nm0000001"}}"#)
        #expect(JellyfinLibrary.keys(of: odd) == ["movie|alien|"])
        let show = try item(
            #"{"Name":"Dark","OriginalTitle":"Dark","Type":"Series","ProductionYear":2017,"ProviderIds":{"Tmdb":"70523","TvMaze":"17861"}}"#
        )
        #expect(JellyfinLibrary.keys(of: show) == ["tmdb:show:70523", "tvmaze:17861", "show|dark|2017", "show|dark|"])
        #expect(JellyfinLibrary.keys(of: try item(#"{"Name":"Season 1","Type":"Season"}"#)).isEmpty)
        #expect(JellyfinLibrary.keys(of: try item(#"{"Name":5,"Type":"Movie"}"#)).isEmpty)
    }
}
