import Foundation
import GRDB
import Logging
import Synchronization

/// Runs `POST /api/batch-enrich` jobs: each ISBN the phone app scanned is looked up (Google Books, Open Library
/// when Google lacks it; answers cached) and the book added to the owner's Want to read shelf with its cover.
/// One row at a time, its outcome and the job's counts written together, so a restart resumes at the next row
/// (a row cut off between the add and its record is found already there and counted as skipped, never twice).
/// File imports never wait for the network; these jobs do, so they have a runner of their own.
final class BarcodeJobRunner: BackgroundWorker {
    let queue: ImportQueueStore
    let books: LibraryService
    let logger: Logger
    let now: @Sendable () -> Date
    let name = "Batch enrich"
    let doorbell = Doorbell()
    /// Batches arrive through the API, which rings, as does any commit to the jobs.
    let watchedTables = ["import_job"]
    let idleWait: Duration = .seconds(300)
    /// The job whose barcode was looked up last, so the next lookup is the following person's.
    private let lastServed = Mutex<ImportJob?>(nil)

    init(db: AppDatabase, books: LibraryService, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.queue = ImportQueueStore(db: db)
        self.books = books
        self.logger = logger
        self.now = now
    }

    /// Tells the runner a batch is waiting.
    func batchAdded() {
        doorbell.ring()
    }

    /// Nothing to put right: a row cut off between its add and its record is found already there and counted as
    /// skipped when it runs again.
    func recover() async throws {}

    /// Runs every waiting row; for tests.
    func runUntilIdle() async throws {
        while try await runNextRow() {}
    }

    /// Looks up the next waiting barcode of each person's oldest running job, so people take turns: one person's
    /// hundred ISBNs never hold another's single one for minutes. False when nobody has a barcode waiting.
    @discardableResult
    func runNextRow() async throws -> Bool {
        let turns = try await queue.oldestBarcodeJobOfEachPerson()
        for job in turns { try await run(job) }
        return !turns.isEmpty
    }

    /// The oldest running job of the person whose turn it is (people in the order of their oldest job); nil when
    /// nobody has a barcode waiting.
    func next() async throws -> ImportJob? {
        let turns = try await queue.oldestBarcodeJobOfEachPerson()
        guard !turns.isEmpty else { return nil }
        return lastServed.withLock { last in
            // The first job after the last one served, in the jobs' order (found even when that one has finished).
            let turn =
                last.flatMap { last in turns.first { ($0.createdAt, $0.id) > (last.createdAt, last.id) } } ?? turns[0]
            last = turn
            return turn
        }
    }

    /// One barcode of `job`.
    func run(_ job: ImportJob) async throws {
        try Task.checkCancellation()
        try await runNextRow(of: job)
    }

    /// A job whose rows kept failing to be recorded stops, saying why; the books it added stay.
    func giveUp(_ job: ImportJob, reason: String) async throws {
        let advice = "Send the barcodes again: the books already added are found, not added twice."
        try await queue.fail(job.id, reason: "This batch stopped before the end. \(reason) \(advice)", at: now())
    }

    /// Looks up one waiting barcode of `job`, or finishes the job when none is left.
    private func runNextRow(of job: ImportJob) async throws {
        guard let row = try await queue.nextPendingRow(of: job.id) else {
            try await queue.complete(job.id, at: now())
            return
        }
        let (outcome, message, bookID) = await lookUp(row.raw.first ?? "", for: job.userId)
        try await queue.recordBarcode(
            row: row.row, of: job, outcome: outcome, message: message, bookID: bookID, at: now())
    }

    /// What became of one barcode, and the catalog book it is.
    private func lookUp(_ barcode: String, for userID: Int64) async -> (ImportRow.Outcome, String?, Int64?) {
        let shown = String(barcode.unicodeScalars.prefix(20).map(Character.init))
        guard let isbn = ISBN(barcode) else {
            return (.failed, "\(shown) is not an ISBN (an ISBN-13 starts 978 or 979; check digits must match).", nil)
        }
        do {
            let bookID = try await books.addFromProvider(volumeID: nil, isbn: isbn, to: .wantToRead, for: userID)
            return (.created, nil, bookID)
        } catch let already as AlreadyInLibrary {
            return (.skipped, "Already in your library.", already.bookID)
        } catch UpstreamFailure.notFound {
            return (.failed, "No book with ISBN \(isbn.isbn13) was found.", nil)
        } catch {
            return (.failed, "The book services did not answer for ISBN \(isbn.isbn13); send it again later.", nil)
        }
    }
}
