import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// What a review of the providers slice found, each tried as it was found (issue 37, DESIGN §13): a Wikidata running
/// time of 1e20, a summary of 200,000 `<`, a shared film edited, a remake of the same name, a refused token searched
/// again and again, one keyless provider hanging, and a season batch too large to take.
@Suite struct ScreenHostileTests {
    @Test func anAbsurdWikidataRunningTimeIsUnknownNotATrap() throws {
        for amount in ["+1e20", "+99999999999999999999", "-5", "+NaN", "+0"] {
            let json = #"""
                {"id": "Q1", "labels": {"en": {"value": "Odd"}}, "claims": {"P31": [{"mainsnak": {"snaktype": "value",
                "datavalue": {"value": {"id": "Q11424"}}}, "rank": "normal"}], "P2047": [{"mainsnak": {"snaktype":
                "value", "datavalue": {"value": {"amount": "\#(amount)", "unit": "http://www.wikidata.org/entity/Q25235"}}},
                "rank": "normal"}]}}
                """#
            let entity = try JSONDecoder().decode(WikidataEntity.self, from: Data(json.utf8))
            #expect(entity.runtimeMinutes == nil, "\(amount)")
            #expect(entity.isFilm && entity.searchResult()?.title == "Odd")
        }
    }

    @Test func aSummaryOfTwoHundredThousandOpeningBracketsIsReadInOnePass() {
        let bomb = String(repeating: "<", count: 200_000)
        let started = ContinuousClock.now
        let text = ScreenText.overview(bomb, html: true)
        // One pass takes milliseconds; the old search for `>` after every `<` took minutes.
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(text?.count == CatalogLimits.description)
    }

    @Test func aSharedFilmEditedStaysAFilmAndAShowKeepsItsWatchedEpisodes() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let show = try await web.post(
                    "/titles/add", ["source": "tvmaze", "id": "44778", "kind": "show", "shelf": "reading"])
                let id = try #require(ScreenAddTests.bookID(from: show))
                _ = try await web.post("/books/\(id)/episodes", ["season": "1", "episode": "2", "scope": "up_to"])
                let edit = try await web.get("/books/\(id)/edit")
                #expect(edit.status == .ok)
                let saved = try await web.post(
                    "/books/\(id)/edit", ["title": "Severance (ours)", "authors": "Dan Erickson", "description": ""])
                #expect(saved.status == .seeOther)
                let copy = try await app.database().writer.read { db in
                    try Row.fetchOne(
                        db,
                        sql: """
                            SELECT book.id, book.kind, book.cast_names, book.owner_user_id,
                                (SELECT COUNT(*) FROM episode WHERE book_id = book.id) AS episodes,
                                (SELECT COUNT(*) FROM episode_watch w JOIN show_viewing v ON v.id = w.viewing_id
                                    JOIN episode e ON e.id = w.episode_id AND e.book_id = book.id) AS watched
                            FROM book WHERE title = 'Severance (ours)'
                            """)
                }
                #expect(copy?["kind"] == "show" && copy?["owner_user_id"] != nil)
                #expect((copy?["cast_names"] as String?)?.contains("Adam Scott") == true)
                #expect(copy?["episodes"] == 8 && copy?["watched"] == 2)
                let copyID: Int64 = try #require(copy?["id"])
                let page = try await web.get("/books/\(copyID)").text
                #expect(page.contains("2 of 7 episodes watched") && page.contains("Up next: <strong>S1E3</strong>"))
            }
        }
    }

    @Test func aRemakeOfTheSameNameIsAnotherFilm() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            let store = LibraryStore(db: try app.database())
            let userID = try #require(
                try await store.db.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM user") })
            func film(_ year: String, key: String?) -> NewBook {
                var film = NewBook(title: "The Man Who Knew Too Much")
                film.kind = .movie
                film.authors = ["Alfred Hitchcock"]
                film.publishedDate = year
                film.providerKey = key
                film.source = key == nil ? .manual : .tmdb
                return film
            }
            let (now, today) = (Date(), "2026-03-15")
            let first = try await store.add(
                film("1934", key: "tmdb:movie:1"), to: .read, for: userID, now: now, today: today)
            let remake = try await store.add(
                film("1956", key: "tmdb:movie:2"), to: .read, for: userID, now: now, today: today)
            #expect(first != remake)
            await #expect(throws: AlreadyInLibrary(bookID: remake)) {
                try await store.add(film("1956", key: "tmdb:movie:2"), to: .read, for: userID, now: now, today: today)
            }
        }
    }

    @Test func aRefusedTokenSearchedAgainAndAgainStillFallsBack() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: "eyJ.wrong-token-for-tests.x")
            for attempt in 1...7 {
                let answer = try await service.search("severance \(attempt)", kind: .show)
                #expect(answer.tokenRefused, "search \(attempt)")
            }
            // The admin's check of a new token is not shut out by the refusals before it.
            #expect(await service.check(token: FakeBooksServer.tmdbToken) == nil)
        }
    }

    @Test func oneKeylessProviderHangingLeavesTheOthersAnswerWithinTheWait() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, settings: fake.settings(timeout: .seconds(30)))
            fake.failScreen("wikidata", .stall(seconds: 25))
            // Had the search waited for Wikidata, the answer would be both providers' ("wikidata+tvmaze"); the waits
            // are long because a loaded test run stretches every one of them.
            let answer = try await service.search("Severance", kind: nil, within: .seconds(12))
            #expect(answer.source == "tvmaze" && answer.results.first?.title == "Severance")
        }
    }

    @Test func aSeasonBatchTooLargeToTakeIsAskedForASeasonAtATime() async throws {
        try await FakeBooksServer.run { fake in
            let (service, _) = try makeTitleSearch(fake, tmdbToken: FakeBooksServer.tmdbToken)
            fake.failScreen("tmdb", .normal, .hugeBody)
            let show = try await service.title(source: .tmdb, id: "90228", kind: .show)
            #expect(show.seasons.map(\.number) == [0, 1])
            #expect(fake.tmdbRequests.count == 4)
            #expect(fake.tmdbRequests[2].hasSuffix("season/0") && fake.tmdbRequests[3].hasSuffix("season/1"))
        }
    }
}
