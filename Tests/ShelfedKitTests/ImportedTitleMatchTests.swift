import Foundation
import GRDB
import HummingbirdTesting
import Logging
import Testing

@testable import ShelfedKit

/// Imported films and shows matched to a provider after the import (issue 38), against the stand-ins answering like
/// the recordings: an IMDb id is the title (TMDB's find with a token; Wikidata's P345 for a film and TVmaze's lookup
/// for a show without one); a title and year is matched only when exactly one title of that kind, name and year
/// exists; several, or a row without a year, wait for the person's choice; a provider that is down leaves the row
/// waiting six hours and the import's rows untouched.
@Suite struct ImportedTitleMatchTests {
    static func matcher(_ app: TestApp, _ fake: FakeBooksServer, token: String? = nil) throws
        -> ImportedTitleMatchWorker
    {
        var logger = Logger(label: "title-match-tests")
        logger.logLevel = .critical
        let titles = TitleSearchService(
            settings: fake.settings(tmdbToken: token), database: try app.database(), clock: app.config.clock,
            logger: logger, http: { OutboundHTTP.client })
        let covers = CoverStore(
            http: { OutboundHTTP.client }, directory: app.config.coversDirectory, timeout: .seconds(5),
            maxBytes: 1_048_576, logger: logger)
        return ImportedTitleMatchWorker(
            matching: ImportedTitleMatching(db: try app.database(), titles: titles, covers: covers), logger: logger,
            clock: app.config.clock, pause: .zero)
    }

    /// Runs the worker until nothing is due (bounded).
    static func matchAll(_ worker: ImportedTitleMatchWorker) async throws {
        for _ in 0..<20 {
            guard let due = try await worker.next() else { return }
            try await worker.run(due)
        }
        Issue.record("titles still due after 20 runs")
    }

    static func importCSV(_ web: WebSession, _ name: String, _ text: String) async throws {
        let uploaded = try await web.upload(
            "/import", files: [.init(field: "file", filename: name, contentType: "text/csv", data: Data(text.utf8))])
        let path = try #require(uploaded.headers[.location])
        _ = try await web.post(path + "/confirm", ["existing": "update"])
        _ = try await ImportWebTests.waitForResults(web, path)
    }

    /// Each imported row by title (and year): its provider key, match state, makers, cover and episode count.
    static func rows(_ app: TestApp) async throws -> [String: [String: String]] {
        try await app.database().read { db in
            var rows: [String: [String: String]] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT book.title || COALESCE(' ' || substr(book.published_date, 1, 4), '') AS name,
                        book.provider_key, book.title_match, book.authors, book.cover_path IS NOT NULL AS poster,
                        book.description IS NOT NULL AS described, user_book.rating,
                        (SELECT COUNT(*) FROM episode WHERE episode.book_id = book.id) AS episodes
                    FROM book JOIN user_book ON user_book.book_id = book.id WHERE book.source = 'import'
                    """)
            {
                let name: String = row["name"]
                rows[name] = Dictionary(
                    uniqueKeysWithValues: row.columnNames.map { ($0, row[$0].map { "\($0)" } ?? "-") })
            }
            return rows
        }
    }

    static let imdbRatings = """
        Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,\
        Num Votes,Release Date,Directors
        tt1160419,9,2025-03-15,"Dune","Dune",https://www.imdb.com/title/tt1160419,"Movie",8.0,155,2021,"Sci-Fi",\
        900000,"2021-09-15",""
        tt11280740,10,2025-03-14,"Severance","Severance",https://www.imdb.com/title/tt11280740,"TV Series",8.7,55,\
        2022,"Drama",300000,"2022-02-18",""
        tt0000009,6,2025-03-13,"A Film Nobody Knows","A Film Nobody Knows",https://www.imdb.com/title/tt0000009,\
        "Movie",6.0,90,1999,"Drama",10,"1999-01-01","Someone"

        """

    @Test func withoutATokenIMDbIdsAreFoundThroughWikidataAndTVmaze() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("ada")
                try await Self.importCSV(web, "ratings.csv", Self.imdbRatings)
                let worker = try Self.matcher(app, fake)
                try await Self.matchAll(worker)
                let rows = try await Self.rows(app)
                let dune = try #require(rows["Dune 2021"])
                #expect(dune["provider_key"] == "wikidata:Q37550044" && dune["title_match"] == "matched")
                #expect(dune["authors"] == #"["Denis Villeneuve"]"#, "the director Wikidata names")
                #expect(dune["rating"] == "4.5", "what the export said stays")
                let severance = try #require(rows["Severance 2022"])
                #expect(severance["provider_key"] == "tvmaze:44778" && severance["poster"] == "1")
                #expect(severance["described"] == "1" && Int(severance["episodes"] ?? "") ?? 0 > 5)
                #expect(fake.tvmazeRequests.contains { $0.hasPrefix("/tvmaze/lookup/shows") })
                // Wikidata knows neither its IMDb id nor its title: kept as the export wrote it.
                let unknown = try #require(rows["A Film Nobody Knows 1999"])
                #expect(unknown["provider_key"] == "-" && unknown["title_match"] == "none")
                #expect(unknown["authors"] == #"["Someone"]"#)
                #expect(fake.tmdbRequests.isEmpty, "no token: TMDB is never asked")
                #expect(try await worker.next() == nil)
                // Once the admin gives a TMDB token, what nobody knew is asked again at once, not in six months.
                let withToken = try Self.matcher(app, fake, token: FakeBooksServer.tmdbToken)
                try await withToken.matching.titles.tokens.set(FakeBooksServer.tmdbToken, now: app.config.clock.now())
                let again = try #require(try await withToken.next())
                #expect(again.bookID == (try Self.bookID(app, "A Film Nobody Knows", year: "1999")))

                // The film's page now shows what Wikidata said, and credits it; the show credits TVmaze.
                let page = try await web.get("/books/\(try Self.bookID(app, "Dune"))").text
                #expect(page.contains("Denis Villeneuve"))
                #expect(page.contains(#"Film data from <a href="https://www.wikidata.org">Wikidata</a>"#))
                let show = try await web.get("/books/\(try Self.bookID(app, "Severance", year: "2022"))").text
                #expect(show.contains(#"Show data from <a href="https://www.tvmaze.com">TVmaze</a>"#))
                #expect(!show.contains("Which one is it?"))
            }
        }
    }

    @Test func withATokenIMDbIdsAreFoundThroughTMDBsFind() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("ada")
                try await Self.importCSV(web, "ratings.csv", Self.imdbRatings)
                try await Self.matchAll(try Self.matcher(app, fake, token: FakeBooksServer.tmdbToken))
                let rows = try await Self.rows(app)
                #expect(rows["Dune 2021"]?["provider_key"] == "tmdb:movie:438631")
                #expect(fake.tmdbRequests.contains { $0.hasPrefix("/tmdb/find/tt1160419") })
                // TMDB's find has no show for Severance's IMDb id: TVmaze's lookup does.
                #expect(rows["Severance 2022"]?["provider_key"] == "tvmaze:44778")
            }
        }
    }

    static let letterboxdWatched = """
        Date,Name,Year,Letterboxd URI
        2024-01-05,Dune,2021,https://boxd.it/aaaa
        2024-01-06,Dune,,https://boxd.it/bbbb
        2024-01-07,Dune,1962,https://boxd.it/cccc

        """

    @Test func titleAndYearMatchOnlyOneTitleAndTheRestWaitForAChoice() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("ada")
                try await Self.importCSV(web, "watched.csv", Self.letterboxdWatched)
                let worker = try Self.matcher(app, fake, token: FakeBooksServer.tmdbToken)
                try await Self.matchAll(worker)
                let rows = try await Self.rows(app)
                // TMDB's search has one Dune of 2021: that is the film, with its poster.
                let dune = try #require(rows["Dune 2021"])
                #expect(dune["provider_key"] == "tmdb:movie:438631" && dune["poster"] == "1")
                #expect(dune["described"] == "1")
                // No year: two films called Dune fit, so the person chooses. 1962: none does.
                #expect(rows["Dune"]?["title_match"] == "review" && rows["Dune"]?["provider_key"] == "-")
                #expect(rows["Dune 1962"]?["title_match"] == "none")

                var page = try await web.get("/titles/match").text
                #expect(page.contains("Which title is it?"))
                #expect(page.contains("Dune (2021) <span") && page.contains("None of these"))
                let undated = try Self.bookID(app, "Dune", year: nil)
                #expect(page.contains(#"action="/titles/match/\#(undated)""#))
                #expect(page.contains(#"id="choice-\#(undated)-0""#), "each choice has its own field id")
                // The film's own page asks too.
                let waiting = try await web.get("/books/\(undated)").text
                #expect(
                    waiting.contains(
                        #"<a href="/titles/match?title=\#(undated)#title-\#(undated)">Which one is it?</a>"#))
                // The import's results say a choice waits (counted for her alone).
                let imports = ImportStore(db: try app.database(), directory: app.config.dataDirectory)
                let counts = try await imports.titleMatching(of: 1)
                #expect(counts.pending == 0 && counts.choices == 1)
                #expect(try await imports.titleMatching(of: 2).choices == 0)

                // Another person sees nothing of hers, and cannot choose for her.
                let bob = WebSession(client)
                try await bob.register("bob")
                #expect(try await bob.get("/titles/match").text.contains("Nothing to choose"))
                let foreign = try await bob.post("/titles/match/\(undated)", ["choice": "0"])
                #expect(foreign.status == .notFound)

                // No choice: asked again, nothing written.
                let none = try await web.post("/titles/match/\(undated)", [:])
                #expect(none.status == .unprocessableContent)
                #expect(none.text.contains("Choose one of the titles"))
                // A title TMDB no longer answers for: a message, nothing written.
                let gone = try await web.post("/titles/match/\(undated)", ["choice": "1"])
                #expect(gone.status != .seeOther && gone.text.contains("Nothing was changed"))
                #expect(try await Self.rows(app)["Dune"]?["title_match"] == "review")
                // She chooses the 2021 film: it gets its details, and leaves the list.
                let chosen = try await web.post("/titles/match/\(undated)", ["choice": "0"])
                #expect(chosen.status == .seeOther)
                let matched = try await app.database().read { db in
                    try String.fetchAll(
                        db, sql: "SELECT provider_key || ' ' || published_date FROM book WHERE id = ?",
                        arguments: [undated])
                }
                #expect(matched == ["tmdb:movie:438631 2021"], "the year comes from TMDB now")
                let film = try await web.get("/books/\(undated)").text
                #expect(!film.contains("Which one is it?") && film.contains(#"data from <a href="/about">TMDB</a>"#))
                page = try await web.get("/titles/match").text
                #expect(page.contains("Nothing to choose"))
            }
        }
    }

    @Test func noneOfTheseKeepsTheRowAsImportedOnce() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("ada")
                try await Self.importCSV(
                    web, "watched.csv", "Date,Name,Year,Letterboxd URI\n2024-01-06,Dune,,https://boxd.it/bbbb\n")
                let worker = try Self.matcher(app, fake)
                try await Self.matchAll(worker)
                let dune = try Self.bookID(app, "Dune", year: nil)
                #expect(try await Self.rows(app)["Dune"]?["title_match"] == "review")
                let kept = try await web.post("/titles/match/\(dune)", ["choice": "none"])
                #expect(kept.status == .seeOther && kept.headers[.location] == "/titles/match?saved=title-kept")
                let (state, candidates) = try await app.database().read { db in
                    (
                        try String.fetchOne(db, sql: "SELECT title_match FROM book WHERE id = ?", arguments: [dune]),
                        try Int.fetchOne(
                            db, sql: "SELECT COUNT(*) FROM title_candidate WHERE book_id = ?", arguments: [dune])
                    )
                }
                #expect(state == "kept" && candidates == 0)
                // A second tap (another tab) changes nothing and lands on the list.
                let again = try await web.post("/titles/match/\(dune)", ["choice": "0"])
                #expect(again.status == .seeOther && again.headers[.location] == "/titles/match")
                #expect(try await Self.rows(app)["Dune"]?["provider_key"] == "-")
                #expect(try await worker.next() == nil, "kept is not looked up again")
                #expect(!(try await web.get("/books/\(dune)").text.contains("Which one is it?")))
            }
        }
    }

    @Test func aProviderThatIsDownLeavesTheRowWaitingSixHours() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("ada")
                try await Self.importCSV(
                    web, "watched.csv", "Date,Name,Year,Letterboxd URI\n2024-01-05,Dune,2021,https://boxd.it/aaaa\n")
                fake.failScreen("wikidata", .status(503), .status(503), .status(503))
                let worker = try Self.matcher(app, fake)
                let due = try #require(try await worker.next())
                try await worker.run(due)
                var rows = try await Self.rows(app)
                #expect(rows["Dune 2021"]?["title_match"] == "waiting")
                #expect(rows["Dune 2021"]?["provider_key"] == "-" && rows["Dune 2021"]?["rating"] == "-")
                #expect(try await worker.next() == nil, "not asked again at once")
                app.clock.advance(by: 6 * 3_600 + 60)
                try await Self.matchAll(worker)
                rows = try await Self.rows(app)
                #expect(rows["Dune 2021"]?["provider_key"] == "wikidata:Q37550044")
            }
        }
    }

    @Test func theJellyfinPageNamesEachMembersField() async throws {
        // Mustache reads stored properties only: a computed field id rendered as nothing, so the browser's form
        // sent no names. Checked here beside the other page whose fields are ids.
        try await TestApp().run { client in
            let admin = WebSession(client)
            try await admin.register("ada")
            let page = try await admin.get("/household/jellyfin").text
            #expect(page.contains(#"name="jellyfin_user_1""#) && page.contains(#"for="jellyfin_user_1""#))
        }
    }

    static func bookID(_ app: TestApp, _ title: String, year: String? = "2021") throws -> Int64 {
        try app.database().writer.read { db in
            try #require(
                try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT id FROM book WHERE title = ? AND source = 'import'
                            AND COALESCE(substr(published_date, 1, 4), '') = ?
                        """, arguments: [title, year ?? ""]))
        }
    }
}
