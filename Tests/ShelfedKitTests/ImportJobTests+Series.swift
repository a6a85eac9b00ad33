import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Series from imported titles (issue 24): "Leviathan Wakes (The Expanse, #1)" is a title and a series.
extension ImportJobTests {
    static let seriesCSV = #"""
        Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf
        11,"Leviathan Wakes (The Expanse, #1)",James S.A. Corey,,,5,read
        12,"Caliban's War (The Expanse, #2)",James S.A. Corey,,,,currently-reading
        13,"Gods of Risk (The Expanse, #2.5)",James S.A. Corey,,,,to-read
        14,"Nevermoor (Nevermoor, #1-3)",Jessica Townsend,,,,to-read
        15,Saga (Vol. 1),Brian K. Vaughan,,,,to-read
        """#

    func importSeriesFile(for userID: Int64, named name: String = "series.csv") async throws -> ImportJob {
        let file = directory.appendingPathComponent(name)
        try Data(Self.seriesCSV.utf8).write(to: file)
        let staged = try await store.stage(upload: file, fileName: name, userID: userID, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: userID, existing: .update, shelfMapping: [:])
        try await runner().runUntilIdle()
        return try #require(try await store.job(id: staged.id, of: userID))
    }

    func seriesRows() async throws -> [String: (String?, Double?)] {
        try await db.read { db in
            var found: [String: (String?, Double?)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT title, series, series_position FROM book") {
                found[row[0]] = (row[1], row[2])
            }
            return found
        }
    }

    @Test func aGoodreadsTitleGivesItsSeriesAndKeepsATitleThatIsOnlyATitle() async throws {
        let me = try await user("ada")
        let job = try await importSeriesFile(for: me)
        #expect(job.created == 5)
        let rows = try await seriesRows()
        #expect(Set(rows.keys) == ["Leviathan Wakes", "Caliban's War", "Gods of Risk", "Nevermoor", "Saga (Vol. 1)"])
        #expect(rows["Leviathan Wakes"]! == ("The Expanse", 1))
        #expect(rows["Caliban's War"]! == ("The Expanse", 2))
        #expect(rows["Gods of Risk"]! == ("The Expanse", 2.5))
        // An omnibus of books 1 to 3 starts at 1.
        #expect(rows["Nevermoor"]! == ("Nevermoor", 1))
        #expect(rows["Saga (Vol. 1)"]! == (nil, nil))

        // The same file again finds every book: nothing new, nothing doubled.
        clock.advance(by: 60)
        let again = try await importSeriesFile(for: me, named: "again.csv")
        #expect((again.created, again.failed) == (0, 0) && again.skipped + again.updated == 5)
        #expect(try await count("SELECT COUNT(*) FROM book") == 5)

        // The Goodreads export writes the series back into the title, as Goodreads does.
        let export = try await GoodreadsExport(db: db).csv(of: me)
        #expect(export.contains("\"Leviathan Wakes (The Expanse, #1)\""))
        #expect(export.contains("\"Gods of Risk (The Expanse, #2.5)\""))
        #expect(export.contains("Saga (Vol. 1)") && !export.contains("Saga (Vol. 1) ("))
    }

    @Test func booksImportedBeforeSeriesExistedGetThemFromTheirTitleButTypedTitlesAreLeftAlone() throws {
        let path = directory.appendingPathComponent("old.sqlite").path
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v15 reading journal")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO user (username, email, display_name, password_hash, created_at)
                        VALUES ('ada', 'ada@example.com', 'Ada', 'x', '2024-01-01 00:00:00');
                        INSERT INTO book (title, authors, categories, source, created_at, updated_at, owner_user_id)
                        VALUES ('Dune Messiah (Dune, #2)', '[]', '[]', 'import', '2024-01-01', '2024-01-01', 1),
                            ('My notes (draft, #3)', '[]', '[]', 'manual', '2024-01-01', '2024-01-01', 1),
                            ('Saga (Vol. 2)', '[]', '[]', 'import', '2024-01-01', '2024-01-01', 1);
                        """)
            }
        }
        let database = try AppDatabase(path: path)
        let rows = try database.writer.read { db in
            try Row.fetchAll(db, sql: "SELECT title, series, series_position FROM book ORDER BY id").map {
                [$0[0] as String?, $0[1] as String?, ($0[2] as Double?).map { String($0) }]
            }
        }
        #expect(rows[0] == ["Dune Messiah", "Dune", "2.0"])
        #expect(rows[1] == ["My notes (draft, #3)", nil, nil])
        #expect(rows[2] == ["Saga (Vol. 2)", nil, nil])
    }
}
