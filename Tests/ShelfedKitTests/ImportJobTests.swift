import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// Import jobs against a real SQLite file: staging, the runner, resuming, cancelling, re-importing.
/// Expected counts follow from the plan of `goodreads_library_export.csv` (scripts/fixtures/make_exports.py) (358 rows: 339 to-read, 16 read of
/// which 8 have no Date Read, 3 currently-reading; 9 rated; every Book Id distinct).
@Suite struct ImportJobTests {
    let directory: URL
    let db: AppDatabase
    let store: ImportStore
    let clock = TestClock("2026-11-20T09:00:00Z")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("import-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = try AppDatabase(path: directory.appendingPathComponent("shelfed.sqlite").path)
        store = ImportStore(db: db, directory: directory.appendingPathComponent("imports"))
    }

    func user(_ name: String) async throws -> Int64 {
        try await UserStore(db: db).create(
            username: name, email: "\(name)@example.com", displayName: name, passwordHash: "x", at: clock.now
        ).id!
    }

    func runner(batchSize: Int = 100, database: AppDatabase? = nil) -> ImportRunner {
        ImportRunner(db: database ?? db, logger: Logger(label: "test"), now: { self.clock.now }, batchSize: batchSize)
    }

    static func fixture(_ name: String) -> URL {
        TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/imports/\(name)")
    }

    /// Stages and confirms a fixture for `userID`.
    func startImport(
        _ name: String, for userID: Int64, existing: ImportJob.Existing = .update,
        shelves: [String: Shelf] = [:]
    ) async throws -> ImportJob {
        let staged = try await store.stage(upload: Self.fixture(name), fileName: name, userID: userID, now: clock.now)
        #expect(staged.status == .preview)
        return try #require(
            try await store.confirm(jobID: staged.id, userID: userID, existing: existing, shelfMapping: shelves))
    }

    func count(_ sql: String, _ arguments: StatementArguments = []) async throws -> Int {
        try await db.read { db in try Int.fetchOne(db, sql: sql, arguments: arguments) ?? 0 }
    }

    // MARK: -

    @Test func aGoodreadsLibraryImportsOnceAndAgainChangesNothing() async throws {
        let me = try await user("ada")
        let first = try await startImport("goodreads_library_export.csv", for: me)
        #expect(first.summary?.books == 358 && first.summary?.withoutReadDate == 8 && first.summary?.rated == 9)
        try await runner().runUntilIdle()
        let done = try #require(try await store.job(id: first.id, of: me))
        #expect(done.status == .completed)
        #expect((done.created, done.updated, done.skipped, done.failed, done.processed) == (358, 0, 0, 0, 358))
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE user_id = ?", [me]) == 358)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE shelf = 'want_to_read'") == 339)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE shelf = 'reading'") == 3)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE shelf = 'read'") == 16)
        // Never invent a date: the 8 read books without a Date Read have no finish date and no import-day stamp.
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE shelf = 'read' AND finished_at IS NULL") == 8)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE finished_at = '2026-11-20'") == 0)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE rating IS NOT NULL") == 9)
        #expect(try await count("SELECT COUNT(*) FROM list WHERE user_id = ?", [me]) == 6)
        #expect(
            try await count(
                "SELECT COUNT(*) FROM list_item JOIN list ON list.id = list_id WHERE name = '2022-reading-challenge'")
                == 22)
        #expect(try await count("SELECT COUNT(*) FROM book WHERE owner_user_id = ? AND source = 'import'", [me]) == 358)
        #expect(try await count("SELECT COUNT(*) FROM enrichment_queue") == 358)

        clock.advance(by: 3600)
        let again = try await startImport("goodreads_library_export.csv", for: me)
        try await runner().runUntilIdle()
        let second = try #require(try await store.job(id: again.id, of: me))
        #expect((second.created, second.updated, second.skipped, second.failed) == (0, 0, 358, 0))
        #expect(try await count("SELECT COUNT(*) FROM user_book") == 358)
        #expect(try await count("SELECT COUNT(*) FROM read_through") == 16)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE updated_at > ?", [first.createdAt]) == 0)
    }

    @Test func aRestartResumesAtTheFirstPendingRowWithoutDuplicates() async throws {
        let me = try await user("ada")
        let job = try await startImport("goodreads_library_export.csv", for: me)
        // Two batches, then the process "dies": a new database connection and a new runner take over.
        let interrupted = runner(batchSize: 50)
        try await interrupted.runBatch(of: job.id)
        try await interrupted.runBatch(of: job.id)
        let midway = try #require(try await store.job(id: job.id, of: me))
        #expect(midway.status == .processing && midway.processed == 100 && midway.created == 100)

        let reopened = try AppDatabase(path: directory.appendingPathComponent("shelfed.sqlite").path)
        try await runner(batchSize: 50, database: reopened).runUntilIdle()
        let done = try #require(try await store.job(id: job.id, of: me))
        #expect(done.status == .completed && done.created == 358 && done.processed == 358)
        #expect(try await count("SELECT COUNT(*) FROM user_book") == 358)
        #expect(try await count("SELECT COUNT(*) FROM import_row WHERE outcome = 'pending'") == 0)
    }

    @Test func cancellingStopsAfterTheCurrentBatchAndKeepsWhatWasImported() async throws {
        let me = try await user("ada")
        let job = try await startImport("goodreads_library_export.csv", for: me)
        let worker = runner(batchSize: 50)
        try await worker.runBatch(of: job.id)
        let canceled = try await store.cancel(jobID: job.id, userID: me, now: clock.now)
        #expect(canceled?.status == .canceled)
        try await worker.runUntilIdle()
        let after = try #require(try await store.job(id: job.id, of: me))
        #expect(after.status == .canceled && after.processed == 50 && after.created == 50)
        #expect(try await count("SELECT COUNT(*) FROM user_book") == 50)
    }

    @Test func twoUsersImportAtOnceIntoTheirOwnLibraries() async throws {
        let ada = try await user("ada")
        let bob = try await user("bob")
        let adaJob = try await startImport("goodreads_library_export.csv", for: ada)
        let bobJob = try await startImport("storygraph_export.csv", for: bob)
        let worker = runner(batchSize: 50)
        try await worker.runOneRound()
        // One round moves both jobs on: neither waits for the other to finish.
        #expect(try await store.job(id: adaJob.id, of: ada)?.processed == 50)
        #expect((try await store.job(id: bobJob.id, of: bob)?.processed ?? 0) > 0)
        try await worker.runUntilIdle()
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE user_id = ?", [ada]) == 358)
        let bobDone = try #require(try await store.job(id: bobJob.id, of: bob))
        #expect(bobDone.status == .completed)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE user_id = ?", [bob]) == bobDone.created)
        // Jobs belong to their user.
        #expect(try await store.job(id: adaJob.id, of: bob) == nil)
        #expect(try await store.cancel(jobID: adaJob.id, userID: bob, now: clock.now) == nil)
        #expect(try await store.rows(of: adaJob.id, userID: bob).isEmpty)
    }

    @Test func customShelvesGoWhereThePersonChoseAndBecomeLists() async throws {
        let me = try await user("ada")
        // `waiting` is a custom exclusive shelf in this file (1 of its 10 rows).
        let staged = try await store.stage(
            upload: Self.fixture("goodreads_custom_shelf.csv"), fileName: "gr.csv",
            userID: me, now: clock.now)
        let custom = try #require(staged.summary?.customShelves)
        #expect(custom == ["waiting": 1])
        let name = try #require(custom.keys.sorted().first)
        #expect(staged.shelfMapping[name] == .wantToRead)
        _ = try await store.confirm(jobID: staged.id, userID: me, existing: .update, shelfMapping: [name: .read])
        try await runner().runUntilIdle()
        #expect(
            try await count(
                """
                SELECT COUNT(*) FROM list_item JOIN list ON list.id = list_id JOIN user_book ON user_book.id = user_book_id
                WHERE list.name = ? AND user_book.shelf = 'read'
                """, [name]) == custom[name])
    }

    @Test func aNewerLocalShelfAndDateAreNeverOverwrittenByAnOlderImport() async throws {
        let me = try await user("ada")
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,Date Read,Date Added,My Review
            1,The Left Hand of Darkness,Ursula K. Le Guin,,"=""9780441478125""",4,read,,2019/05/02,2019/01/01,Loved it.
            """#
        let file = directory.appendingPathComponent("one.csv")
        try Data(csv.utf8).write(to: file)
        // The person already has the book, started a re-read this week.
        let library = LibraryStore(db: db)
        var new = NewBook(title: "The Left Hand of Darkness")
        new.authors = ["Ursula K. Le Guin"]
        new.isbn = ISBN("9780441478125")
        _ = try await library.add(new, to: .reading, for: me, now: clock.now, today: "2026-11-20")

        let staged = try await store.stage(upload: file, fileName: "one.csv", userID: me, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: me, existing: .update, shelfMapping: [:])
        try await runner().runUntilIdle()
        let job = try #require(try await store.job(id: staged.id, of: me))
        #expect((job.created, job.updated) == (0, 1))
        let entry = try #require(try await db.read { db in try UserBook.fetchOne(db) })
        #expect(entry.shelf == .reading && entry.startedAt == "2026-11-20")
        // What was missing is filled in; the 2019 read is kept as a read-through.
        #expect(entry.rating == 4 && entry.review == "Loved it.")
        #expect(try await count("SELECT COUNT(*) FROM read_through WHERE finished_at = '2019-05-02'") == 1)
    }

    @Test func skippingBooksIHaveLeavesThemAlone() async throws {
        let me = try await user("ada")
        _ = try await startImport("goodreads_library_export.csv", for: me)
        try await runner().runUntilIdle()
        try await db.write { db in try db.execute(sql: "UPDATE user_book SET rating = NULL") }
        let again = try await startImport("goodreads_library_export.csv", for: me, existing: .skip)
        try await runner().runUntilIdle()
        #expect(try await store.job(id: again.id, of: me)?.skipped == 358)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE rating IS NOT NULL") == 0)
    }

    @Test func problemRowsAreFailedWithTheirReasonAndKeptAsTheyWere() async throws {
        let me = try await user("ada")
        let job = try await startImport(
            "storygraph_excel_mangled.csv", for: me)
        #expect(job.failed == 115 && job.processed == 115 && job.total == 299)
        try await runner().runUntilIdle()
        let done = try #require(try await store.job(id: job.id, of: me))
        #expect(done.status == .completed && done.created + done.skipped == 184 && done.failed == 115)
        let failed = try await store.rows(of: job.id, userID: me, outcome: .failed, limit: 1)
        let row = try #require(failed.first)
        #expect(row.row == 119 && row.raw[3].hasSuffix("E+12") && row.message?.contains("number") == true)
        #expect(try await count("SELECT COUNT(*) FROM read_through WHERE finished_at = '2022-10-13'") == 1)
    }

    @Test func jobIDsAreRandomAndMalformedOnesFindNothing() async throws {
        let ids = Set((0..<100).map { _ in ImportJob.newID() })
        #expect(ids.count == 100 && ids.allSatisfy(ImportJob.isWellFormedID))
        let me = try await user("ada")
        #expect(try await store.job(id: "1", of: me) == nil)
        #expect(try await store.job(id: "' OR 1=1 --", of: me) == nil)
    }
}

extension ImportJobTests {
    @Test func aSeriesSuffixFindsTheBareTitleButNumberedVolumesStayApart() async throws {
        let me = try await user("ada")
        var dune = NewBook(title: "Dune")
        dune.authors = ["Frank Herbert"]
        _ = try await LibraryStore(db: db).add(dune, to: .read, for: me, now: clock.now, today: "2026-11-20")
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf
            1,"Dune (Dune, #1)",Frank  Herbert,,,5,read
            2,Saga (Vol. 1),Brian K. Vaughan,,,,to-read
            3,Saga (Vol. 2),Brian K. Vaughan,,,,to-read
            """#
        let file = directory.appendingPathComponent("series.csv")
        try Data(csv.utf8).write(to: file)
        let staged = try await store.stage(upload: file, fileName: "series.csv", userID: me, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: me, existing: .update, shelfMapping: [:])
        try await runner().runUntilIdle()
        let job = try #require(try await store.job(id: staged.id, of: me))
        #expect((job.created, job.updated) == (2, 1))
        #expect(try await count("SELECT COUNT(*) FROM user_book") == 3)
        #expect(try await count("SELECT COUNT(*) FROM user_book WHERE rating = 5") == 1)
    }
}

extension ImportJobTests {
    @Test func addedDaysBecomeNoonUTCThatDay() {
        let formatter = ISO8601DateFormatter()
        for day in ["1970-01-01", "2000-02-29", "2024-12-31", "1899-03-01", "2026-11-20"] {
            #expect(ImportApplier.midday(day) == formatter.date(from: day + "T12:00:00Z"), "\(day)")
        }
        #expect(ImportApplier.midday("2023-02-29") == nil)
    }
}

extension ImportJobTests {
    @Test func theAddedDayIsStoredAsGRDBStoresADate() throws {
        let value = try #require(ImportApplier.middayValue("2024-02-29"))
        #expect(Date.fromDatabaseValue(value) == ImportApplier.midday("2024-02-29"))
        #expect(ImportApplier.midday("2024-02-29")?.databaseValue == value)
    }
}
