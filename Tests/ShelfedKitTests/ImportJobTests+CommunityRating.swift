import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Goodreads' "Average Rating" is what its readers thought of a book (issue 36): kept with the book and said to be
/// Goodreads', never mixed with the person's own rating; 0.00 (nobody rated it) and nonsense are left out.
extension ImportJobTests {
    @Test func goodreadsAverageRatingIsKeptWithItsSource() async throws {
        let me = try await user("ada")
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Average Rating,Exclusive Shelf
            21,Dune,Frank Herbert,,,5,4.27,read
            22,Unrated,Nobody,,,0,0.00,to-read
            23,Broken,Someone,,,0,"=""9.5""",to-read
            """#
        let file = directory.appendingPathComponent("average.csv")
        try Data(csv.utf8).write(to: file)
        let staged = try await store.stage(upload: file, fileName: "average.csv", userID: me, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: me, existing: .update, shelfMapping: [:])
        try await runner().runUntilIdle()
        let rows = try await db.read { db in
            try Row.fetchAll(
                db, sql: "SELECT title, community_rating, community_ratings, community_source FROM book ORDER BY title"
            ).map { row in
                (
                    title: row["title"] as String, average: row["community_rating"] as Double?,
                    count: row["community_ratings"] as Int?, source: row["community_source"] as String?
                )
            }
        }
        let byTitle = Dictionary(uniqueKeysWithValues: rows.map { ($0.title, $0) })
        #expect(byTitle["Dune"]?.average == 4.27)
        #expect(byTitle["Dune"]?.source == "Goodreads")
        #expect(byTitle["Dune"]?.count == nil)
        #expect(byTitle["Unrated"]?.average == nil)
        #expect(byTitle["Broken"]?.average == nil)
        let dune = try await db.read { db in try Book.fetchOne(db, sql: "SELECT * FROM book WHERE title = 'Dune'") }
        #expect(dune?.community?.text == "4.27 on Goodreads")
    }
}
