import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Trakt's export (issue 38): watched films and shows with every play, the history's days, ratings, the watchlist;
/// each file alone, the ZIP, in either order, again.
extension ScreenImportTests {
    static let traktWatchedMovies = """
        [{"plays": 2, "last_watched_at": "2014-04-27T13:43:59.000Z",
          "movie": {"title": "100 Bloody Acres", "year": 2012,
                    "ids": {"trakt": 86920, "slug": "100-bloody-acres-2012", "imdb": "tt2290065", "tmdb": 126757}}}]
        """

    static let traktHistory = """
        [{"id": 1, "watched_at": "2013-01-05T20:00:00.000Z", "action": "watch", "type": "movie",
          "movie": {"title": "100 Bloody Acres", "year": 2012, "ids": {"trakt": 86920, "imdb": "tt2290065"}}},
         {"id": 2, "watched_at": "2014-04-27T13:43:59.000Z", "action": "watch", "type": "movie",
          "movie": {"title": "100 Bloody Acres", "year": 2012, "ids": {"trakt": 86920, "imdb": "tt2290065"}}},
         {"id": 3, "watched_at": "2015-01-01T10:00:00.000Z", "action": "scrobble", "type": "episode",
          "episode": {"season": 1, "number": 2, "title": "Chuck Versus the Helicopter", "ids": {"imdb": ""}},
          "show": {"title": "Chuck", "year": 2007, "ids": {"trakt": 1395, "tmdb": 1404, "tvrage": null}}}]
        """

    static let traktWatchedShows = """
        [{"plays": 4, "last_watched_at": "2015-03-10T05:21:51.000Z",
          "show": {"title": "Chuck", "year": 2007, "ids": {"trakt": 1395, "slug": "chuck", "tvdb": 80348,
                   "imdb": "tt0934814", "tmdb": 1404, "tvrage": null}},
          "seasons": [{"number": 0, "episodes": [{"number": 1, "plays": 1, "last_watched_at": "2014-12-24T20:00:00.000Z"}]},
                      {"number": 1, "episodes": [
                          {"number": 1, "plays": 1, "last_watched_at": "2015-01-01T09:00:00.000Z"},
                          {"number": 2, "plays": 2, "last_watched_at": "2015-03-10T05:21:51.000Z"}]}]}]
        """

    static let traktRatingsAndWatchlist = """
        [{"rated_at": "2015-01-17T04:35:22.000Z", "rating": 7, "type": "movie",
          "movie": {"title": "100 Bloody Acres", "year": 2012, "ids": {"trakt": 86920}}},
         {"rated_at": "2015-01-17T04:35:22.000Z", "rating": 6,
          "episode": {"season": 3, "number": 1, "title": "The Man From Jupiter", "ids": {"imdb": ""}},
          "show": {"title": "Archer", "year": 2009, "ids": {"trakt": 1396}}},
         {"listed_at": "2016-02-02T00:00:00.000Z", "type": "show",
          "show": {"title": "Severance", "year": 2022, "ids": {"trakt": 154997, "tmdb": 95396}}}]
        """

    var traktFiles: [(path: String, text: String)] {
        [
            ("watched-movies.json", Self.traktWatchedMovies), ("watched-history.json", Self.traktHistory),
            ("watched-shows.json", Self.traktWatchedShows), ("ratings-all.json", Self.traktRatingsAndWatchlist),
        ]
    }

    /// Each title with its shelf, rating, film viewings and show passes (`viewing number: S1E2@day …`).
    func watching(of userID: Int64) async throws -> [String] {
        let titles = try await library(of: userID).map {
            $0.components(separatedBy: " | ").prefix(7).joined(separator: " | ")
        }
        let passes = try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT book.title || ' #' || show_viewing.number || ':' AS pass,
                        ' S' || episode.season || 'E' || episode.number || '@' || episode_watch.watched_on AS watch
                    FROM show_viewing JOIN book ON book.id = show_viewing.book_id
                    JOIN episode_watch ON episode_watch.viewing_id = show_viewing.id
                    JOIN episode ON episode.id = episode_watch.episode_id
                    WHERE show_viewing.user_id = ?
                    ORDER BY book.title, show_viewing.number, episode.season, episode.number
                    """, arguments: [userID]
            ).reduce(into: [(String, String)]()) { passes, row in
                let pass: String = row["pass"]
                let watch: String = row["watch"]
                if passes.last?.0 == pass { passes[passes.count - 1].1 += watch } else { passes.append((pass, watch)) }
            }.map { $0.0 + $0.1 }
        }
        return titles + passes
    }

    @Test func traktFilesInAnyOrderAndTheZIPGiveOnePassPerPlayAndAgainChangeNothing() async throws {
        let zipped = try await user("zipped")
        let job = try await importFile(try zip(traktFiles), named: "trakt-export.zip", for: zipped)
        #expect(job.format == .trakt && job.failed == 0)
        #expect(job.skipped == 1, "Archer: only an episode was rated")
        let fromZIP = try await watching(of: zipped)
        #expect(
            fromZIP.contains {
                $0.hasPrefix("100 Bloody Acres | 2012 | read | false | 3.5 | - | 2013-01-05+2014-04-27")
            })
        #expect(fromZIP.contains { $0.hasPrefix("Chuck | 2007 | reading |") })
        #expect(fromZIP.contains { $0.hasPrefix("Severance | 2022 | want_to_read |") })
        // Each play of an episode is a pass of its own; the history's day wins over the watched list's last one;
        // specials are episodes like any other.
        #expect(fromZIP.contains("Chuck #1: S0E1@2014-12-24 S1E1@2015-01-01 S1E2@2015-01-01"), "\(fromZIP)")
        #expect(fromZIP.contains("Chuck #2: S1E2@2015-03-10"), "\(fromZIP)")

        for (name, order) in [("forwards", traktFiles), ("backwards", traktFiles.reversed())] {
            let person = try await user(name)
            for (path, text) in order { try await importFile(try file(path, text), named: path, for: person) }
            let theirs = try await watching(of: person)
            #expect(
                theirs == fromZIP,
                "\(name): \(theirs.filter { !fromZIP.contains($0) }) vs \(fromZIP.filter { !theirs.contains($0) })")
        }
        let again = try await importFile(try zip(traktFiles), named: "trakt-export.zip", for: zipped)
        #expect(again.created == 0 && again.updated == 0)
        #expect(try await watching(of: zipped) == fromZIP)
    }

    @Test func aTraktShowAlreadySharedFromAProviderKeepsItsEpisodeListAndSaysWhatWasLeftOut() async throws {
        let me = try await user("ada")
        let bookID = try await db.write { db -> Int64 in
            let writer = CatalogWriter(db: db)
            let id = try writer.insert(
                CatalogWriter.NewRow(
                    title: "Chuck", publishedDate: "2007", source: .tmdb, owner: nil, externalIDs: ["tmdb": "1404"],
                    kind: .show, providerKey: "tmdb:tv:1404",
                    seasons: [
                        ScreenSeason(
                            number: 1, name: nil,
                            episodes: [
                                ScreenEpisode(number: 1, title: "Pilot", airDate: "2007-09-24", runtimeMinutes: 43)
                            ])
                    ]),
                at: Date(timeIntervalSince1970: 0).databaseValue)
            _ = try writer.insert(
                CatalogWriter.NewEntry(userID: me, bookID: id, shelf: .wantToRead, addedAt: Date().databaseValue),
                at: Date().databaseValue)
            return id
        }
        let job = try await importFile(
            try file("watched-shows.json", Self.traktWatchedShows), named: "watched-shows.json", for: me)
        #expect(job.created == 0 && job.updated == 1)
        let row = try #require(try await store.rows(of: job.id, userID: me).first)
        #expect(row.message?.hasPrefix("2 of its episodes are not in this show's episode list") == true)
        let episodes = try await db.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM episode WHERE book_id = ?", arguments: [bookID])
        }
        #expect(episodes == 1)
    }

    @Test func traktJSONLargerThanShelfedDecodesIsRefusedBeforeItIsRead() async throws {
        let me = try await user("ada")
        let item = #"{"watched_at": "2015-01-01T10:00:00.000Z", "movie": {"title": "A", "year": 2000}},"#
        let count = Int(ImportArchive.jsonLimit) / item.utf8.count + 10
        let huge = "[" + String(repeating: item, count: count) + #"{"movie": {"title": "B"}}]"#
        await #expect(throws: ImportStore.StageError.archive(.tooLarge("watched-history.json"))) {
            try await store.stage(
                upload: try file("watched-history.json", huge), fileName: "watched-history.json", userID: me,
                now: clock.now)
        }
        await #expect(throws: ImportStore.StageError.archive(.tooLarge("watched-history.json"))) {
            try await store.stage(
                upload: try zip([("watched-history.json", huge)]), fileName: "trakt.zip", userID: me, now: clock.now)
        }
        #expect(try await store.jobs(of: me).isEmpty)
    }

    @Test func aJSONFileThatIsNotTraktsIsAClearMessage() async throws {
        let me = try await user("ada")
        await #expect(throws: ImportStore.StageError.archive(.notAnExport)) {
            try await store.stage(
                upload: try file("x.json", "[1, 2, 3"), fileName: "x.json", userID: me, now: clock.now)
        }
        #expect(try await store.jobs(of: me).isEmpty)
    }
}
