import Foundation
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// A year of films and shows on the profile, in the year in review and through the API (issue 37): every viewing of
/// a film counts (a film seen twice, twice), every episode watched and every show finished, their running times
/// add up to the hours, and none of it is ever counted as a book read.
@Suite struct WatchingStatisticsTests {
    /// Alice reads one book, watches Dune (155 minutes) today and again on 1 February, and all seven aired episodes
    /// of Severance (57 + 53 + 47 + 55 + 50 + 50 + 50 = 362 minutes), which finishes it.
    static func watchAYear(_ web: WebSession) async throws -> (film: Int64, show: Int64) {
        // The book is finished today by its move from Reading (added straight to Read, a day is not assumed).
        let book = try await web.addBook(["title": "Emma", "shelf": "reading", "page_count": "300"])
        _ = try await web.post("/books/\(book)/shelf", ["shelf": "read"])
        let added = try await web.post(
            "/titles/add", ["source": "tmdb", "id": "438631", "kind": "movie", "shelf": "want_to_read"])
        let film = try #require(ScreenAddTests.bookID(from: added))
        // Straight to Watched, a film's day is not assumed; "watched it again today" then dates a viewing.
        _ = try await web.post("/books/\(film)/shelf", ["shelf": "read"])
        _ = try await web.post("/books/\(film)/read-again", ["watched_on": ""])
        _ = try await web.post("/books/\(film)/read-again", ["watched_on": "2026-02-01"])
        let show = try await ShowEpisodeTests.add(web, "tvmaze", "44778")
        _ = try await web.post("/books/\(show)/episodes", ["season": "1", "scope": "season"])
        _ = try await web.post("/books/\(show)/episodes", ["season": "2", "mark": "up_to:3"])
        return (film, show)
    }

    @Test func filmsEpisodesAndShowsAddUpApartFromBooks() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let (film, show) = try await Self.watchAYear(web)
                let alice = try #require(
                    try await app.database().writer.read { db in
                        try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'alice'")
                    })
                let statistics = StatisticsStore(db: try app.database())
                let watching = try await statistics.watching(2026, of: alice)
                #expect(watching.filmsWatched == 2)
                #expect(watching.episodesWatched == 7)
                #expect(watching.showsFinished == 1)
                #expect(watching.minutesWatched == 2 * 155 + 362)
                #expect(watching.months[1].films == 1 && watching.months[2].films == 1)
                #expect(watching.months[2].episodes == 7)
                #expect(watching.titles.map(\.bookID).sorted() == [film, film, show].sorted())
                #expect(try await statistics.watching(2025, of: alice).hasWatching == false)
                // The reading figures count the book alone.
                #expect(try await statistics.year(2026, of: alice).booksFinished == 1)
                #expect(try await statistics.allTime(of: alice).booksRead == 1)

                let profile = try await web.get("/profile").text
                #expect(profile.contains("Films and shows in 2026"))
                for figure in [
                    "<strong>2</strong> films watched", "<strong>7</strong> episodes watched",
                    "<strong>1</strong> show finished", "<strong>11</strong> hours watched",
                ] {
                    #expect(profile.contains(figure), "\(figure)")
                }
                #expect(profile.contains("<title id=\"watching-title\">Time watched per month, 2026</title>"))
                #expect(profile.contains("March: 1 film, 7 episodes, 9 h"))
                #expect(profile.contains("<strong>1</strong> book finished"))

                let review = try await web.get("/profile/year/2026").text
                #expect(review.contains("<h1>Your 2026 in books, films and shows</h1>"))
                #expect(review.contains("title=\"Severance · TV show, finished 2026-03-15\""))
                #expect(review.contains("title=\"Dune · Film, watched 2026-02-01\""))

                var api = APIClient(client)
                try await api.signIn("alice@example.com")
                let json = try #require(try await api.get("/api/v1/profile/year/2026").json)
                let figures = try #require(json["watching"] as? [String: Any])
                #expect(figures["films_watched"] as? Int == 2 && figures["episodes_watched"] as? Int == 7)
                #expect(figures["shows_finished"] as? Int == 1 && figures["minutes_watched"] as? Int == 672)
                #expect((figures["titles"] as? [[String: Any]])?.count == 3)
                #expect(json["books_finished"] as? Int == 1)
            }
        }
    }

    @Test func aYearWithNothingWatchedShowsNoFilmsSectionAndAnotherPersonsWatchingIsNotCounted() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings(tmdbToken: FakeBooksServer.tmdbToken))
            try await app.run { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                _ = try await Self.watchAYear(alice)
                let bob = WebSession(client)
                try await bob.register("bob")
                _ = try await bob.addBook(["title": "Persuasion", "shelf": "read"])
                let profile = try await bob.get("/profile").text
                #expect(!profile.contains("Films and shows in"))
                let review = try await bob.get("/profile/year/2026").text
                #expect(review.contains("<h1>Your 2026 in books</h1>") && !review.contains("watching-heading"))
                // Alice's watching year alone, without a book: the page is about films and shows.
                let films = try await alice.get("/profile/year/2026").text
                #expect(films.contains("Films and shows in 2026"))
                let empty = try await bob.get("/profile/year/2025").text
                #expect(empty.contains("Nothing finished or put down in 2025."))
            }
        }
    }
}
