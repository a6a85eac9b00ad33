import Foundation
import GRDB
import Logging
import Testing

@testable import ShelfedKit

/// Filling in imported books after the import: Open Library first, Google Books within a daily budget that
/// carries over to the next day, only empty fields, failures retried later.
@Suite struct EnrichmentTests {
    let directory: URL
    let db: AppDatabase
    let clock = TestClock("2026-11-20T09:00:00Z")  // 01:00 in Google's quota day (Pacific time)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("enrich-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        db = try AppDatabase(path: directory.appendingPathComponent("shelfed.sqlite").path)
    }

    /// Imports `csv` (Goodreads columns) for a new user; returns the job id.
    func importCSV(_ csv: String) async throws -> String {
        let userID = try await UserStore(db: db).create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: clock.now
        ).id!
        let file = directory.appendingPathComponent("export.csv")
        try Data(csv.utf8).write(to: file)
        let store = ImportStore(db: db, directory: directory.appendingPathComponent("imports"))
        let staged = try await store.stage(upload: file, fileName: "export.csv", userID: userID, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: userID, existing: .update, shelfMapping: [:])
        try await ImportRunner(db: db, logger: Logger(label: "t"), now: { self.clock.now }).runUntilIdle()
        let job = try #require(try await store.job(id: staged.id, of: userID))
        // The import is finished and the books are on the shelves before anything is looked up.
        #expect(job.status == .completed)
        return staged.id
    }

    func worker(_ fake: FakeBooksServer, budget: Int) -> EnrichmentWorker {
        var logger = Logger(label: "enrichment-tests")
        logger.logLevel = .critical
        // Generous waits: no test here waits for a timeout, and the fake can take seconds under CI's parallel run.
        let search = BookSearchService(
            settings: fake.settings(timeout: .seconds(30)), database: db, clock: clock.appClock, logger: logger,
            http: { .shared })
        let covers = CoverStore(
            http: { .shared }, directory: directory.appendingPathComponent("covers"), timeout: .seconds(30),
            maxBytes: 2_000_000, logger: logger)
        return EnrichmentWorker(
            db: db, search: search, covers: covers, budget: GoogleBudget(db: db, dailyCalls: budget), logger: logger,
            now: { self.clock.now }, pause: .zero)
    }

    func book(_ title: String) throws -> Row {
        try #require(
            try db.writer.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM book WHERE title = ?", arguments: [title])
            })
    }

    func queue(_ title: String) throws -> Row {
        try #require(
            try db.writer.read { db in
                try Row.fetchOne(
                    db,
                    sql:
                        "SELECT enrichment_queue.* FROM enrichment_queue JOIN book ON book.id = book_id WHERE title = ?",
                    arguments: [title])
            })
    }

    @Test func openLibraryFirstThenGoogleWithinTheDailyBudgetAndTheRestTheNextDay() async throws {
        let jobID = try await importCSV(
            #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Number of Pages
            1,Sabriel,Garth Nix,"=""""","=""9780060273224""",0,to-read,
            2,Discourse Networks,Friedrich Kittler,"=""""","=""9780804720991""",0,read,999
            3,The Complete Essays,Michel de Montaigne,"=""""","=""9780140446043""",0,read,
            4,A Zine Without Numbers,Someone,"=""""","=""""",0,read,
            5,Unbekannt,Niemand,"=""""","=""9783868943238""",0,to-read,

            """#)
        try await FakeBooksServer.run { fake in
            let worker = worker(fake, budget: 2)
            try await worker.runUntilIdle()

            // Sabriel: Open Library's edition fills the page count, publisher and year; its Google lookup (call 1)
            // finds nothing more.
            let sabriel = try book("Sabriel")
            #expect(sabriel["page_count"] as Int? == 491)
            #expect(sabriel["publisher"] as String? == "Harper Trophy")
            #expect(sabriel["published_date"] as String? == "1996")
            #expect(try queue("Sabriel")["status"] as String == "enriched")
            // Discourse Networks: unknown to Open Library, found by Google (call 2): description, categories and the
            // cover; the page count the export gave (999) is kept.
            let kittler = try book("Discourse Networks")
            #expect(
                (kittler["description"] as String?)?.hasPrefix("A study of how reading and writing were taught") == true
            )
            #expect(kittler["categories"] as String == #"["Literary Criticism"]"#)
            #expect(kittler["page_count"] as Int == 999)
            let cover = try #require(kittler["cover_path"] as String?)
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("covers/\(cover)").path))
            // The allowance is spent: Montaigne and the German book wait for the next quota day; no ISBN fails.
            #expect(fake.googleRequests.count == 2)
            #expect(try await GoogleBudget(db: db, dailyCalls: 2).used(at: clock.now) == 2)
            let montaigne = try queue("The Complete Essays")
            #expect(montaigne["status"] as String == "pending")
            #expect(montaigne["last_error"] as String? == EnrichmentWorker.waitingForBudget)
            #expect(montaigne["next_try_at"] as Date == ISO8601DateFormatter().date(from: "2026-11-21T08:00:00Z"))
            #expect(try queue("A Zine Without Numbers")["status"] as String == "failed")
            var progress = try await db.read { db in try EnrichmentQueueStore.progress(ofJob: jobID, db) }
            #expect(
                progress
                    == EnrichmentProgress(enriched: 2, failed: 1, pending: 2, waitingForBudget: 2, withDescription: 2))
            #expect(try book("The Complete Essays")["description"] as String? == nil)

            // Still the same quota day an hour later: nothing is due, nothing is asked.
            clock.advance(by: 3_600)
            try await worker.runUntilIdle()
            #expect(fake.googleRequests.count == 2)

            // The next quota day: the waiting books are looked up.
            clock.advance(by: 23 * 3_600)
            try await worker.runUntilIdle()
            #expect(fake.googleRequests.count == 4)
            let essays = try book("The Complete Essays")
            #expect(essays["page_count"] as Int? == 1360)
            #expect(essays["categories"] as String == #"["Literary Collections"]"#)
            #expect(essays["cover_path"] as String? != nil)
            #expect(
                try queue("Unbekannt")["last_error"] as String?
                    == "Neither Open Library nor Google Books knows ISBN 9783868943238.")
            progress = try await db.read { db in try EnrichmentQueueStore.progress(ofJob: jobID, db) }
            #expect(
                progress
                    == EnrichmentProgress(enriched: 3, failed: 2, pending: 0, waitingForBudget: 0, withDescription: 3))
            #expect(fake.coverRequests.allSatisfy { $0.hasPrefix("/gcovers/") })
        }
    }

    @Test func anOutageIsRetriedLaterAndABudgetOfZeroNeverAsksGoogle() async throws {
        _ = try await importCSV(
            #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf
            1,Sabriel,Garth Nix,"=""""","=""9780060273224""",0,to-read

            """#)
        try await FakeBooksServer.run { fake in
            let worker = worker(fake, budget: 0)
            fake.failOpenLibrary(.status(503), .status(503), .status(503))
            try await worker.runUntilIdle()
            let waiting = try queue("Sabriel")
            #expect(waiting["status"] as String == "pending")
            #expect(waiting["attempts"] as Int == 1)
            #expect(waiting["next_try_at"] as Date == clock.now.addingTimeInterval(60))
            #expect((waiting["last_error"] as String?)?.contains("did not answer") == true)
            #expect(try book("Sabriel")["page_count"] as Int? == nil)

            clock.advance(by: 61)
            try await worker.runUntilIdle()
            #expect(try queue("Sabriel")["status"] as String == "enriched")
            #expect(try book("Sabriel")["page_count"] as Int? == 491)
            // The edition's series ("The Old Kingdom ; 1") fills the book's.
            #expect(try book("Sabriel")["series"] as String? == "The Old Kingdom")
            #expect(try book("Sabriel")["series_position"] as Double? == 1)
            #expect(fake.googleRequests.isEmpty)
        }
    }

    /// openlibrary.org keeps most descriptions and subjects on the work, not the edition an ISBN leads to.
    @Test func aDescriptionKeptOnTheWorkIsFollowedAndCounted() async throws {
        let jobID = try await importCSV(
            #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf
            1,The Quiet Orchard,,"=""""","=""9780000000026""",0,to-read

            """#)
        try await FakeBooksServer.run { fake in
            try await worker(fake, budget: 0).runUntilIdle()
            let orchard = try book("The Quiet Orchard")
            #expect((orchard["description"] as String?)?.hasPrefix("A widowed beekeeper keeps") == true)
            #expect(orchard["categories"] as String == #"["Orchards","Family life","Fiction"]"#)
            #expect(orchard["page_count"] as Int? == 288)
            // The work's well-formed author key is followed; the one pointing at another host is never asked for.
            #expect(
                fake.openLibraryRequests == [
                    "/ol/isbn/9780000000026.json", "/ol/books/OL1000002M.json", "/ol/works/OL1000002W.json",
                    "/ol/authors/OL382982A.json",
                ])
            let progress = try await db.read { db in try EnrichmentQueueStore.progress(ofJob: jobID, db) }
            #expect(progress.withDescription == 1 && progress.enriched == 1)
            var page = try #require(ImportJobPage.lines(progress))
            #expect(page.described == "1 of 1 book has a description")
            page = try #require(ImportJobPage.lines(EnrichmentProgress(enriched: 3, failed: 1, withDescription: 2)))
            #expect(page.described == "2 of 4 books have a description")
        }
    }

    @Test func someoneTypingADescriptionMeanwhileKeepsTheirs() async throws {
        _ = try await importCSV(
            #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf
            1,Discourse Networks,Friedrich Kittler,"=""""","=""9780804720991""",0,read

            """#)
        try await db.write { db in
            try db.execute(sql: "UPDATE book SET description = 'Mine.', categories = '[\"Media theory\"]'")
        }
        try await FakeBooksServer.run { fake in
            try await worker(fake, budget: 10).runUntilIdle()
            let kittler = try book("Discourse Networks")
            #expect(kittler["description"] as String == "Mine.")
            #expect(kittler["categories"] as String == #"["Media theory"]"#)
            #expect(kittler["page_count"] as Int? == 459)
        }
    }

    @Test func nothingIsLookedUpUntilTheImportHasFinished() async throws {
        let userID = try await UserStore(db: db).create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: clock.now
        ).id!
        let file = directory.appendingPathComponent("export.csv")
        try Data(
            #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf
            1,Sabriel,Garth Nix,"=""""","=""9780060273224""",0,to-read
            2,Discourse Networks,Friedrich Kittler,"=""""","=""9780804720991""",0,read

            """#.utf8
        ).write(to: file)
        let store = ImportStore(db: db, directory: directory.appendingPathComponent("imports"))
        let staged = try await store.stage(upload: file, fileName: "export.csv", userID: userID, now: clock.now)
        _ = try await store.confirm(jobID: staged.id, userID: userID, existing: .update, shelfMapping: [:])
        let runner = ImportRunner(db: db, logger: Logger(label: "t"), now: { self.clock.now }, batchSize: 1)
        try await runner.runBatch(of: staged.id)
        try await FakeBooksServer.run { fake in
            let worker = worker(fake, budget: 10)
            // One book is on the shelf and queued, but its import is still running.
            #expect(try await db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM enrichment_queue") } == 1)
            #expect(try await worker.enrichNext() == false)
            #expect(fake.openLibraryRequests.isEmpty && fake.googleRequests.isEmpty)
            try await runner.runUntilIdle()
            try await worker.runUntilIdle()
            #expect(try queue("Sabriel")["status"] as String == "enriched")
            #expect(try queue("Discourse Networks")["status"] as String == "enriched")
        }
    }
}
