import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// The home page's "Recently finished" reads from the finish-date index, dated books first (newest first), then
/// books on Read without a date, the latest added first — without sorting the whole Read shelf (issue 35, finding 9).
@Suite struct HomePageQueriesTests {
    @Test func recentlyFinishedListsDatedBooksThenUndatedOnesFromTheIndex() async throws {
        let library = try ReadNextRankingTests.Library()
        let first = try library.add("Undated first", shelf: "read", vector: nil)
        let second = try library.add("Undated second", shelf: "read", vector: nil)
        let dated = try library.add("Dated", shelf: "read", vector: nil)
        try await library.db.writer.write { db in
            try db.execute(sql: "UPDATE user_book SET finished_at = '2026-02-01' WHERE book_id = ?", arguments: [dated])
        }
        let (titles, plan) = try await library.db.writer.read { db in
            (
                try LibraryStore.recentlyFinished(db, of: 1, limit: 3).map(\.title),
                // The plan of the query the home page runs, not of one written here.
                try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + LibraryStore.undatedReadSQL, arguments: [1, 3]
                ).map { $0["detail"] as String }
            )
        }
        #expect(titles == ["Dated", "Undated second", "Undated first"])
        #expect(first < second)
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}
