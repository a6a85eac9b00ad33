import Foundation
import GRDB
import Testing
import ZIPFoundation

@testable import ShelfedKit

extension SharedFixtureConformance {
    /// The real Letterboxd and IMDb exports in `../shared/fixtures/screen-imports/`, imported into a real database. The
    /// figures are those SOURCES.md counted from the files (2,604 watched films, 2,132 diary rows, two films called
    /// "The Haunted Castle" of 1897, 411 and 269 IMDb ratings), not read back from the importer.
    @Suite(.enabled(if: SharedFixtures.available, SharedFixtures.skipReason)) struct RealScreenExports {
        static func real(_ name: String) -> URL {
            SharedFixtures.url("screen-imports/\(name)__patrickmjones_letterboxd-data.csv")
        }

        /// The five Letterboxd files, zipped as Letterboxd names them (in a temporary folder, never in the project).
        static func zipped(into directory: URL) throws -> URL {
            let url = directory.appendingPathComponent("letterboxd-export.zip")
            let archive = try Archive(url: url, accessMode: .create)
            for part in ["watched", "diary", "ratings", "reviews", "watchlist"] {
                try archive.addEntry(
                    with: "\(part).csv", fileURL: real("letterboxd_\(part)"), compressionMethod: .deflate)
            }
            return url
        }

        @Test func aRealLetterboxdExportImportsWholeAndAgainChangesNothing() async throws {
            let suite = try ScreenImportTests()
            let me = try await suite.user("patrick")
            let zip = try Self.zipped(into: suite.directory)
            let job = try await suite.importFile(zip, named: "letterboxd-export.zip", for: me)
            #expect(job.status == .completed && job.format == .letterboxd)
            // 2,604 + 2,132 + 5 + 162 + 805 rows; the diary's viewings of the two 1897 "Haunted Castle" films, if any,
            // are asked about rather than guessed.
            #expect(job.total == 2_604 + 2_132 + 5 + 162 + 805)
            let failed = try await suite.store.rows(of: job.id, userID: me, outcome: .failed, limit: 1_000)
            #expect(
                failed.allSatisfy { $0.message?.contains("“The Haunted Castle” (1897)") == true },
                "\(failed.map { "\($0.row): \($0.raw.prefix(4)) \($0.message ?? "")" })")
            let counts = try await suite.db.read { db in
                (
                    castles: try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM book WHERE title = 'The Haunted Castle' AND published_date = '1897'"),
                    dated: try Int.fetchOne(
                        db,
                        sql: """
                            SELECT (SELECT COUNT(*) FROM user_book WHERE finished_at IS NOT NULL)
                                + (SELECT COUNT(*) FROM read_through WHERE finished_at IS NOT NULL)
                            """),
                    undatedYear: try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM book WHERE title = 'Deep-Fried Fingers' AND published_date IS NULL"),
                    halloweens: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE title = 'Halloween'")
                )
            }
            #expect(counts.castles == 2)
            // Every diary row is one dated viewing (reviews are diary entries, so they add none).
            #expect(counts.dated == 2_132 - failed.count)
            #expect(counts.undatedYear == 1)
            #expect((counts.halloweens ?? 0) >= 2)

            let again = try await suite.importFile(zip, named: "letterboxd-export.zip", for: me)
            #expect(again.created == 0 && again.updated == 0)
        }

        @Test func realIMDbRatingsOfBothFormatsAreOneLibrary() async throws {
            let suite = try ScreenImportTests()
            let me = try await suite.user("ethan")
            let old = SharedFixtures.url(
                "screen-imports/imdb_ratings_2021_export__ethanfuerst_imdb-ratings-dashboard.csv")
            let new = SharedFixtures.url(
                "screen-imports/imdb_ratings_2025_export__ethanfuerst_imdb-ratings-dashboard.csv")
            let first = try await suite.importFile(old, named: "ratings.csv", for: me)
            #expect(first.format == .imdbRatings && first.created == 269 && first.failed == 0)
            let second = try await suite.importFile(new, named: "ratings.csv", for: me)
            #expect(second.failed == 0 && second.created + second.updated + second.skipped == 411)
            let facts = try await suite.db.read { db in
                (
                    inarritu: try Int.fetchOne(
                        db, sql: "SELECT COUNT(*) FROM book WHERE authors LIKE '%Alejandro G. Iñárritu%'"),
                    original: try String.fetchOne(
                        db, sql: "SELECT original_title FROM book WHERE title = 'I''m Still Here'"),
                    offScale: try Int.fetchOne(
                        db,
                        sql:
                            "SELECT COUNT(*) FROM user_book WHERE rating IS NULL OR rating * 2 != CAST(rating * 2 AS INT)"
                    )
                )
            }
            #expect((facts.inarritu ?? 0) >= 1)
            #expect(facts.original == "Ainda Estou Aqui")
            #expect(facts.offScale == 0)
        }

        @Test func realTraktAnswersGiveEveryPlayItsPass() async throws {
            let suite = try ScreenImportTests()
            let me = try await suite.user("fuzeman")
            let names = [
                "watched-shows.json": "trakt_sync_watched_shows", "watched-movies.json": "trakt_sync_watched_movies",
                "ratings-episodes.json": "trakt_sync_ratings_episodes",
            ]
            let files = try names.sorted { $0.key < $1.key }.map { name, fixture in
                (
                    path: name,
                    text: try String(
                        contentsOf: SharedFixtures.url("screen-imports/\(fixture)__fuzeman_trakt.py.json"),
                        encoding: .utf8)
                )
            }
            let zip = try suite.zip(files)
            let job = try await suite.importFile(zip, named: "trakt-export.zip", for: me)
            #expect(job.status == .completed && job.format == .trakt && job.failed == 0)
            let facts = try await suite.db.read { db in
                (
                    shows: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE kind = 'show'"),
                    films: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE kind = 'movie'"),
                    chuckPasses: try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM episode_watch JOIN episode ON episode.id = episode_watch.episode_id
                            JOIN book ON book.id = episode.book_id
                            WHERE book.title = 'Chuck' AND episode.season = 1 AND episode.number = 2
                            """),
                    archerSpecials: try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM episode JOIN book ON book.id = episode.book_id
                            WHERE book.title = 'Archer' AND episode.season = 0
                            """),
                    acres: try Int.fetchOne(
                        db,
                        sql: """
                            SELECT 1 + (SELECT COUNT(*) FROM read_through WHERE user_book_id = user_book.id)
                            FROM user_book JOIN book ON book.id = user_book.book_id WHERE book.title = '100 Bloody Acres'
                            """)
                )
            }
            // SOURCES.md: 9 shows, 3 films; Chuck S1E2 was played 9 times; Archer has specials; "100 Bloody Acres"
            // was played twice.
            #expect(facts.shows == 9 && facts.films == 3)
            #expect(facts.chuckPasses == 9)
            #expect((facts.archerSpecials ?? 0) > 0)
            #expect(facts.acres == 2)
            let again = try await suite.importFile(zip, named: "trakt-export.zip", for: me)
            #expect(again.created == 0 && again.updated == 0)
        }
    }
}
