import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// The Goodreads-compatible export: its header, its cells, and a round trip through Shelfed's own importer.
@Suite struct ExportTests {
    let directory: URL
    let db: AppDatabase
    let store: ImportStore
    let clock = TestClock("2026-11-20T09:00:00Z")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = try AppDatabase(path: directory.appendingPathComponent("shelfed.sqlite").path)
        store = ImportStore(db: db, directory: directory.appendingPathComponent("imports"))
    }

    func user(_ name: String) async throws -> Int64 {
        try await UserStore(db: db).create(
            username: name, email: "\(name)@example.com", displayName: name, passwordHash: "x", at: clock.now
        ).id!
    }

    func importFile(_ url: URL, for userID: Int64) async throws -> ImportJob {
        let staged = try await store.stage(upload: url, fileName: "f.csv", userID: userID, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: userID, existing: .update, shelfMapping: [:])
        try await ImportRunner(db: db, logger: Logger(label: "t"), now: { self.clock.now }).runUntilIdle()
        return try #require(try await store.job(id: staged.id, of: userID))
    }

    /// Everything the export is meant to carry, per book, in a comparable form.
    func library(of userID: Int64) async throws -> [String] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT book.title, book.authors, book.isbn13, book.isbn10, book.publisher, book.page_count,
                        user_book.shelf, user_book.favourite, user_book.rating, user_book.review,
                        user_book.private_notes, user_book.owned, user_book.format, user_book.finished_at,
                        date(user_book.added_at) AS added,
                        (SELECT group_concat(name, '|') FROM (SELECT list.name FROM list_item
                            JOIN list ON list.id = list_item.list_id WHERE list_item.user_book_id = user_book.id
                            ORDER BY list.name)) AS lists
                    FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?
                    ORDER BY book.title, book.isbn13
                    """, arguments: [userID]
            ).map { row in row.columnNames.map { "\($0)=\(row[$0] as DatabaseValue)" }.joined(separator: "; ") }
        }
    }

    @Test func aGoodreadsExportReimportsToAnIdenticalLibrary() async throws {
        let ada = try await user("ada")
        for name in ["goodreads_library_export.csv", "goodreads_custom_shelf.csv"] {
            _ = try await importFile(
                TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/imports/\(name)"), for: ada)
        }
        // Something typed by hand too: a review with lines and markup, notes, a quarter-star rating, a favourite.
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE user_book SET review = 'Line one & <two>
                    Line three', private_notes = '=1+2 lend to Bo', rating = 3.75, favourite = 1
                    WHERE id = (SELECT MIN(id) FROM user_book)
                    """)
        }
        let csv = try await GoodreadsExport(db: db).csv(of: ada)
        #expect(csv.hasPrefix(GoodreadsExport.header.joined(separator: ",") + "\r\n"))
        let file = directory.appendingPathComponent("export.csv")
        try Data(csv.utf8).write(to: file)

        let bob = try await user("bob")
        let job = try await importFile(file, for: bob)
        #expect(job.format == .goodreads && job.failed == 0)
        #expect(job.created == 368)
        let original = try await library(of: ada)
        let copy = try await library(of: bob)
        #expect(original.count == copy.count)
        for (before, after) in zip(original, copy) where before != after {
            Issue.record("differs:\n\(before)\n\(after)")
        }
    }

    @Test func formulaCellsAreNeutralisedButISBNsKeepTheirForm() async throws {
        let ada = try await user("ada")
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,My Review,Number of Pages
            1,"=HYPERLINK(""http://evil.example"",""click"")",+Author,"=""0441172717""","=""9780441172719""",4,read,@tag,-2+3,9223372036854775807
            """#
        let source = directory.appendingPathComponent("hostile.csv")
        try Data(csv.utf8).write(to: source)
        let job = try await importFile(source, for: ada)
        #expect(job.created == 1)
        let export = try await GoodreadsExport(db: db).csv(of: ada)
        let line = try #require(export.split(separator: "\r\n").dropFirst().first)
        #expect(line.contains(#""'=HYPERLINK(""http://evil.example"",""click"")""#))
        #expect(line.contains(",'+Author,"))
        #expect(line.contains(#","=""0441172717""","=""9780441172719""","#))
        // A tag inside the Bookshelves cell does not start the cell, so it is no formula.
        #expect(line.contains(#""read, @tag""#))
        #expect(line.contains("'-2+3"))
        // The absurd page count was dropped on the way in, not exported.
        #expect(!line.contains("9223372036854775807"))
    }
}
