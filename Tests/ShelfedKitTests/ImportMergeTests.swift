import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Rows that are one book: two jobs of one file at once, two editions in one file; and the counts of a job whose
/// failed row is fixed after it was cancelled (issue 20).
extension ImportJobTests {
    /// One shelf entry as the merge test reads it.
    struct Entry: Sendable {
        let shelf: String
        let finished: String?
        let rating: Double?
        let added: String
    }

    /// A Goodreads export of `count` books without ISBNs (matched by title and author only), as a phone's retried
    /// upload would send it twice.
    func isbnlessExport(_ count: Int) throws -> URL {
        var csv = "Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,Date Read,Date Added\n"
        for number in 1...count {
            csv += "\(number),A Book Numbered \(number),Author \(number % 7),,,0,to-read,,,2024/01/01\n"
        }
        let file = directory.appendingPathComponent("isbnless-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: file)
        return file
    }

    func stageAndConfirm(_ file: URL, for userID: Int64, existing: ImportJob.Existing = .update) async throws
        -> ImportJob
    {
        let staged = try await store.stage(upload: file, fileName: "export.csv", userID: userID, now: clock.now)
        return try #require(
            try await store.confirm(jobID: staged.id, userID: userID, existing: existing, shelfMapping: [:]))
    }

    @Test func theSameFileImportedTwiceAtOnceAddsEachBookOnce() async throws {
        let me = try await user("ada")
        let file = try isbnlessExport(230)
        let first = try await stageAndConfirm(file, for: me)
        let second = try await stageAndConfirm(file, for: me)
        // setup: both jobs run together, batch by batch, as they do in the server
        let worker = runner(batchSize: 50)
        try await worker.runUntilIdle()
        // validate
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE user_id = ?", [me]) == 230)
        #expect(try await count("SELECT COUNT(*) FROM book WHERE owner_user_id = ?", [me]) == 230)
        let a = try #require(try await store.job(id: first.id, of: me))
        let b = try #require(try await store.job(id: second.id, of: me))
        #expect(a.status == .completed && b.status == .completed)
        #expect(a.created + b.created == 230)
        #expect(a.skipped + b.skipped == 230)
        // Whichever job ran first added the books; the other says why it added none.
        let skipped =
            try await store.rows(of: first.id, userID: me, outcome: .skipped, limit: 300)
            + store.rows(of: second.id, userID: me, outcome: .skipped, limit: 300)
        #expect(skipped.count == 230)
        #expect(skipped.allSatisfy { $0.message?.contains("another import of yours running at the same time") == true })
    }

    @Test func twoEditionsOfOneBookInOneFileKeepTheShelfBeingRead() async throws {
        let me = try await user("ada")
        // The book was wanted in 2024 (one edition) and is being read since 2025 (another edition).
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,Date Read,Date Added
            10,The Dispossessed,Ursula K. Le Guin,,"=""9780061054884""",0,to-read,,,2024/03/01
            11,The Dispossessed,Ursula K. Le Guin,,"=""9780060512750""",0,currently-reading,,,2025/02/10
            20,Kindred,Octavia E. Butler,,"=""9780807083697""",0,currently-reading,,,2025/05/01
            21,Kindred,Octavia E. Butler,,"=""9780807083680""",5,read,,2025/06/01,2023/01/01
            30,Piranesi,Susanna Clarke,,"=""9781635575996""",0,read,,2022/08/08,2022/07/01
            31,Piranesi,Susanna Clarke,,"=""9781526622426""",0,to-read,,,2025/01/01
            """#
        let file = directory.appendingPathComponent("editions.csv")
        try Data(csv.utf8).write(to: file)
        for existing in [ImportJob.Existing.skip, .update] {
            try await db.write { db in _ = try UserBook.deleteAll(db) }
            let job = try await stageAndConfirm(file, for: me, existing: existing)
            try await runner().runUntilIdle()
            let shelves = try await db.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT book.title, user_book.shelf, user_book.finished_at, user_book.rating, user_book.added_at
                        FROM user_book JOIN book ON book.id = user_book.book_id WHERE user_book.user_id = ?
                        """, arguments: [me]
                ).reduce(into: [String: Entry]()) {
                    $0[$1["title"]] = Entry(
                        shelf: $1["shelf"], finished: $1["finished_at"], rating: $1["rating"], added: $1["added_at"])
                }
            }
            #expect(shelves.count == 3)
            // More advanced wins: reading over want to read, read over reading and over a later want to read.
            #expect(shelves["The Dispossessed"]?.shelf == "reading")
            #expect(shelves["Kindred"]?.shelf == "read")
            #expect(shelves["Kindred"]?.finished == "2025-06-01")
            #expect(shelves["Kindred"]?.rating == 5.0)
            #expect(shelves["Piranesi"]?.shelf == "read")
            #expect(shelves["Piranesi"]?.finished == "2022-08-08")
            // Added when it was first listed.
            #expect(shelves["Kindred"]?.added.hasPrefix("2023-01-01") == true)
            let done = try #require(try await store.job(id: job.id, of: me))
            #expect((done.created, done.failed) == (3, 0))
            // The results say what happened to the second row of each book.
            let merged = try await store.rows(of: job.id, userID: me, limit: 10).filter { $0.row % 2 == 1 }
            #expect(merged.count == 3)
            #expect(merged.allSatisfy { $0.message?.contains("earlier row of this file") == true })
        }
    }

    @Test func fixingARowOfAnImportCancelledInItsPreviewImportsNothing() async throws {
        let me = try await user("ada")
        let staged = try await store.stage(
            upload: Self.fixture("storygraph_excel_mangled.csv"),
            fileName: "sg.csv", userID: me, now: clock.now)
        #expect(staged.status == .preview)
        let failed = try #require(try await store.rows(of: staged.id, userID: me, outcome: .failed, limit: 1).first)
        _ = try await store.cancel(jobID: staged.id, userID: me, now: clock.now)

        var values = failed.raw
        values[0] = "A Title Typed In"
        let result = try await store.retry(
            jobID: staged.id, row: failed.row, userID: me, values: values, now: clock.now)
        #expect(result == .notFound)
        let after = try #require(try await store.job(id: staged.id, of: me))
        #expect(after.failed == 0 && after.created == 0)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE user_id = ?", [me]) == 0)
    }

    @Test func aCancelledOrDeletedJobLeavesNoFileBehind() async throws {
        let me = try await user("ada")
        let unknown = directory.appendingPathComponent("unknown.csv")
        try Data("Name,Writer\nDune,Frank Herbert\n".utf8).write(to: unknown)
        let files = { (try? FileManager.default.contentsOfDirectory(atPath: store.directory.path)) ?? [] }
        // A file of no known tracker waits for its columns with its file kept; cancelling removes it.
        let waiting = try await store.stage(upload: unknown, fileName: "unknown.csv", userID: me, now: clock.now)
        #expect(waiting.status == .mapping && files().count == 1)
        _ = try await store.cancel(jobID: waiting.id, userID: me, now: clock.now)
        #expect(files().isEmpty)
        // Deleting the account removes the files of its jobs.
        _ = try await store.stage(upload: unknown, fileName: "unknown.csv", userID: me, now: clock.now)
        #expect(files().count == 1)
        store.remove(try await store.files(of: me))
        #expect(files().isEmpty)
        // At start, only files of jobs still waiting for column choices stay: a job cut off while staging, or one
        // whose row is gone, leaves nothing.
        let kept = try await store.stage(upload: unknown, fileName: "unknown.csv", userID: me, now: clock.now)
        try Data("half".utf8).write(to: store.cleanFile("deadbeef"))
        try Data("gone".utf8).write(to: store.cleanFile(ImportJob.newID()))
        #expect(files().count == 3)
        #expect(try store.removeFilesOfEndedJobs().count == 2)
        #expect(files() == [store.cleanFile(kept.id).lastPathComponent])
    }
}
