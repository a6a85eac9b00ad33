import Foundation
import GRDB
import HummingbirdTesting
import Logging
import Testing

@testable import ShelfedKit

/// Films and shows kept current (issue 37, DESIGN §17): a show still airing is asked again after a week, a film after
/// six months; what the provider says now replaces a shared row's details and adds the new episodes, which come back
/// on the home page and the show's page as "new episodes" to whoever watched it to the end; a provider that is down
/// is asked again six hours later, not at every look.
@Suite struct ScreenRefreshTests {
    static func worker(_ app: TestApp, _ fake: FakeBooksServer, token: String? = nil) throws -> ScreenRefreshWorker {
        var logger = Logger(label: "screen-refresh-tests")
        logger.logLevel = .critical
        let titles = TitleSearchService(
            settings: fake.settings(tmdbToken: token), database: try app.database(), clock: app.config.clock,
            logger: logger, http: { OutboundHTTP.client })
        return ScreenRefreshWorker(
            db: try app.database(), titles: titles, logger: logger, clock: app.config.clock, pause: .zero)
    }

    @Test func providerKeysAreReadOnlyInTheirOwnShapes() {
        #expect(ScreenRefreshWorker.due(bookID: 1, key: "tmdb:movie:550", kind: "movie", true)?.providerID == "550")
        #expect(ScreenRefreshWorker.due(bookID: 1, key: "tvmaze:44778", kind: "show", false)?.source == .tvmaze)
        #expect(ScreenRefreshWorker.due(bookID: 1, key: "wikidata:Q1", kind: "movie", true)?.providerID == "Q1")
        for (key, kind) in [
            ("tmdb:show:550", "movie"), ("tmdb:movie", "movie"), ("tvmaze:1:2", "show"), ("tvmaze:1", "movie"),
            ("wikidata:Q1", "show"), ("", "movie"), ("tmdb:movie:550", "book"), ("imdb:tt1", "movie"),
        ] {
            #expect(ScreenRefreshWorker.due(bookID: 1, key: key, kind: kind, true) == nil, "\(key) as \(kind)")
        }
    }

    @Test func aRunningShowIsAskedAgainWeeklyAndItsNewEpisodesComeBack() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())  // 2026-03-15
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let show = try await ShowEpisodeTests.add(web, "tvmaze", "44778")
                _ = try await web.post("/books/\(show)/episodes", ["season": "1", "scope": "season"])
                _ = try await web.post("/books/\(show)/episodes", ["season": "2", "mark": "up_to:3"])
                #expect(try await web.get("/books/\(show)").text.contains(#"<span class="shelf-badge">Watched</span>"#))
                let worker = try Self.worker(app, fake)
                #expect(try await worker.next() == nil, "checked when it was added")

                fake.renewSeverance()
                app.clock.advance(by: 6 * 86_400)
                #expect(try await worker.next() == nil, "a running show waits a week")
                app.clock.advance(by: 2 * 86_400)  // 2026-03-23
                let due = try #require(try await worker.next())
                #expect(due.bookID == show && due.source == .tvmaze && due.providerID == "44778")
                #expect(due.shared && due.period == ScreenRefreshWorker.airingAge)
                try await worker.run(due)
                #expect(try await worker.next() == nil)
                let (description, seasonThree) = try await app.database().writer.read { db in
                    (
                        try String.fetchOne(db, sql: "SELECT description FROM book WHERE id = ?", arguments: [show]),
                        try String.fetchAll(
                            db, sql: "SELECT title FROM episode WHERE book_id = ? AND season = 3 ORDER BY number",
                            arguments: [show])
                    )
                }
                #expect(description == "Renewed for a third season.")
                #expect(seasonThree == ["Cold Harbor Again", "Not Yet"])

                // Watched to the end before, it comes back with its new episode, on Watched still.
                var home = try await web.get("/").text
                #expect(home.contains(#"<h2 id="new-episodes-heading">New episodes</h2>"#))
                #expect(home.contains("New episode: <strong>S3E1</strong> Cold Harbor Again"))
                let page = try await web.get("/books/\(show)").text
                #expect(page.contains("New episode: <strong>S3E1</strong>"))
                #expect(page.contains(#"<span class="shelf-badge">Watched</span>"#))
                _ = try await web.post("/books/\(show)/episodes", ["season": "3", "episode": "1", "scope": "one"])
                #expect(try await web.get("/books/\(show)").text.contains(#"<span class="shelf-badge">Watched</span>"#))
                home = try await web.get("/").text
                #expect(!home.contains("New episodes"), "S3E2 has not aired yet")
                app.clock.advance(by: 19 * 86_400)  // 2026-04-11
                #expect(try await web.get("/").text.contains("New episode: <strong>S3E2</strong> Not Yet"))

                // Someone who never caught up is not told of new episodes: they are simply next.
                let bob = WebSession(client)
                try await bob.register("bob")
                _ = try await ShowEpisodeTests.add(bob, "tvmaze", "44778", shelf: "reading")
                #expect(!(try await bob.get("/").text.contains("New episodes")))
            }
        }
    }

    @Test func aShowPutOnWatchedWithoutADayStillHearsOfNewEpisodes() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())  // 2026-03-15
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                // Straight onto Watched from the search, no day given (nor any episode marked).
                let show = try await ShowEpisodeTests.add(web, "tvmaze", "44778", shelf: "read")
                let finished = try await app.database().read { db in
                    try String.fetchOne(
                        db, sql: "SELECT shelf || '/' || COALESCE(finished_at, '-') FROM user_book WHERE book_id = ?",
                        arguments: [show])
                }
                #expect(finished == "read/-")
                #expect(!(try await web.get("/").text.contains("New episodes")), "nothing aired since it was added")
                fake.renewSeverance()
                app.clock.advance(by: 8 * 86_400)  // 2026-03-23: S3E1 aired on the 20th
                let worker = try Self.worker(app, fake)
                try await worker.run(try #require(try await worker.next()))
                // What aired before it was added is not news; S3E1, aired after, is.
                let home = try await web.get("/").text
                #expect(home.contains("New episode: <strong>S3E1</strong> Cold Harbor Again"))
            }
        }
    }

    @Test func aFilmWaitsSixMonthsAndAProviderThatIsDownIsAskedAgainSixHoursLater() async throws {
        try await FakeBooksServer.run { fake in
            let token = FakeBooksServer.tmdbToken
            let app = TestApp(search: fake.settings(tmdbToken: token))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                _ = try await ScreenPhotoTests.addFilm(web)
                let worker = try Self.worker(app, fake, token: token)
                app.clock.advance(by: 30 * 86_400)
                #expect(try await worker.next() == nil, "a film waits six months")
                app.clock.advance(by: 153 * 86_400)
                let due = try #require(try await worker.next())
                #expect(due.source == .tmdb && due.kind == .movie && due.period == ScreenRefreshWorker.settledAge)

                let asked = fake.tmdbRequests.count
                // As many failures as the search tries (three), so the next request is answered.
                fake.failScreen("tmdb", .status(503), .status(503), .status(503))
                try await worker.run(due)
                #expect(fake.tmdbRequests.count > asked)
                #expect(try await worker.next() == nil, "not asked again at the next look")
                app.clock.advance(by: 5 * 3_600)
                #expect(try await worker.next() == nil)
                app.clock.advance(by: 2 * 3_600)
                let again = try #require(try await worker.next())
                try await worker.run(again)
                app.clock.advance(by: 7 * 3_600)
                #expect(try await worker.next() == nil, "answered this time: six months before the next")
            }
        }
    }

    /// Six months on, a film is asked again in the language of whoever has had it longest: a Spanish reader's
    /// synopsis stays Spanish (it went back to English before).
    @Test func aFilmIsAskedAgainInTheLanguageItWasAddedIn() async throws {
        try await FakeBooksServer.run { fake in
            let token = FakeBooksServer.tmdbToken
            let app = TestApp(search: fake.settings(tmdbToken: token))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                _ = try await web.post("/language", ["language": "es", "back": "/"])
                let film = try await ScreenPhotoTests.addFilm(web)
                let overview = {
                    try await app.database().read { db in
                        try String.fetchOne(db, sql: "SELECT description FROM book WHERE id = ?", arguments: [film])
                    }
                }
                #expect(try await overview() == FakeBooksServer.spanishDuneOverview)
                app.clock.advance(by: 183 * 86_400)
                let due = try #require(try await Self.worker(app, fake, token: token).next())
                #expect(due.language == .es)
                let asked = fake.tmdbRequests.count
                try await Self.worker(app, fake, token: token).run(due)
                #expect(fake.tmdbRequests.dropFirst(asked).contains { $0.contains("language=es-ES") })
                #expect(try await overview() == FakeBooksServer.spanishDuneOverview)
            }
        }
    }
}
