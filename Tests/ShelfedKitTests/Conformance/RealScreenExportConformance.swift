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
    }
}
