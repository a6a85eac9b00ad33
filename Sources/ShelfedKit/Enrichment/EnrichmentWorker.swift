import Foundation
import GRDB
import Logging

/// Fills in what imported books lack — cover, description, categories, page count, publisher, date — after the
/// import and never during it: Open Library first (no quota), then Google Books within `GoogleBudget`. One book
/// at a time with a pause between, started and stopped with the server; the queue lives in the database, so a
/// restart or the end of a day's allowance carries on where it stopped. Only empty fields are filled.
final class EnrichmentWorker: BackgroundWorker {
    let db: AppDatabase
    let search: BookSearchService
    let covers: CoverStore
    let budget: GoogleBudget
    let logger: Logger
    let now: @Sendable () -> Date
    /// Between two books, to be a polite client of Open Library.
    let pause: Duration
    let name = "Enrichment"
    let doorbell = Doorbell()
    /// Books fall due when their import finishes and when a retry's wait is over: the queue looks this often.
    let idleWait: Duration = .seconds(10)

    /// Transient failures (timeouts, 5xx) before a book is given up on; the waits double from a minute.
    static let retries = Backoff(tries: 8, first: .seconds(60), factor: 2, longest: .seconds(6 * 3600))
    static var maxAttempts: Int { retries.tries }
    static let waitingForBudget = "Waiting for tomorrow's Google Books allowance."

    init(
        db: AppDatabase, search: BookSearchService, covers: CoverStore, budget: GoogleBudget, logger: Logger,
        now: @escaping @Sendable () -> Date, pause: Duration = .milliseconds(500)
    ) {
        self.db = db
        self.search = search
        self.covers = covers
        self.budget = budget
        self.logger = logger
        self.now = now
        self.pause = pause
    }

    /// Nothing to put right: the queue is the table, and a book being looked up when the server stopped is still
    /// pending.
    func recover() async throws {}

    /// Enriches every book that is due; for tests.
    func runUntilIdle() async throws {
        while try await enrichNext() {}
    }

    /// Enriches the book due first; false when none is due.
    @discardableResult
    func enrichNext() async throws -> Bool {
        guard let due = try await next() else { return false }
        try await run(due)
        return true
    }

    /// The book due first, its import finished; nil when none is due.
    func next() async throws -> QueuedBook? {
        let now = now()
        return try await db.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT book.id, book.isbn13, book.isbn10, book.cover_path, book.description, book.categories,
                        book.page_count, book.publisher, book.published_date, enrichment_queue.attempts
                    FROM enrichment_queue JOIN book ON book.id = enrichment_queue.book_id
                    WHERE enrichment_queue.status = 'pending' AND enrichment_queue.next_try_at <= ?
                        AND NOT EXISTS (
                            SELECT 1 FROM import_job WHERE import_job.id = enrichment_queue.job_id
                                AND import_job.status IN ('initialized', 'processing'))
                    ORDER BY enrichment_queue.next_try_at, enrichment_queue.book_id LIMIT 1
                    """, arguments: [now]
            ).map(QueuedBook.init(row:))
        }
    }

    /// Looks the book up and records what was found, or when to try again.
    func run(_ book: QueuedBook) async throws {
        let now = now()
        let outcome = try await enrich(book, now: now)
        try await record(outcome, for: book, now: now)
    }

    // MARK: - One book

    enum Outcome: Equatable {
        /// Found; `waitForBudget` when Google Books was still wanted but today's allowance is spent.
        case enriched(BookFill, waitForBudget: Bool)
        /// Nothing found yet and Google Books must wait for tomorrow.
        case waitForBudget
        case retry(String, after: TimeInterval, counts: Bool)
        case failed(String)
    }

    func enrich(_ book: QueuedBook, now: Date) async throws -> Outcome {
        guard let isbn = book.isbn else { return .failed("No ISBN to look the book up by.") }
        var found: [VolumeResult] = []
        var failure: UpstreamFailure?
        do {
            if let edition = try await search.openLibrary.edition(isbn: isbn) { found.append(edition) }
        } catch let upstream as UpstreamFailure {
            failure = upstream
        }
        var waitForBudget = false
        var askedGoogle = false
        // A budget of 0 means Open Library only: nothing waits for Google then.
        if budget.dailyCalls > 0, book.fill(from: found).leavesGaps(in: book) {
            askedGoogle = true
            if try await budget.take(at: now) {
                do {
                    let volumes = try await search.google.search("isbn:\(isbn.isbn13)", startIndex: 0).items
                    found += volumes.filter { $0.carries(isbn) }.prefix(1)
                } catch UpstreamFailure.rateLimited(_, dailyQuota: true) {
                    waitForBudget = true
                } catch let upstream as UpstreamFailure {
                    failure = failure ?? upstream
                }
            } else {
                waitForBudget = true
            }
        }
        guard found.isEmpty else {
            var fill = book.fill(from: found)
            if book.coverPath == nil, let url = found.compactMap(\.coverURL).first {
                fill.coverFile = await covers.download(url, for: book.id)
            }
            return .enriched(fill, waitForBudget: waitForBudget && fill.leavesGaps(in: book))
        }
        if waitForBudget { return .waitForBudget }
        switch failure {
        case nil, .notFound?:
            return .failed(
                askedGoogle
                    ? "Neither Open Library nor Google Books knows ISBN \(isbn.isbn13)."
                    : "Open Library does not know ISBN \(isbn.isbn13).")
        case .circuitOpen(_, let milliseconds)?:
            // A provider that is down costs the book no attempt: it waits until the breaker lets calls through.
            return .retry("The book services are not answering.", after: Double(milliseconds) / 1000 + 1, counts: false)
        case .rateLimited(let retryAfter, _)?:
            return .retry("The book services asked to slow down.", after: Double(retryAfter ?? 60), counts: false)
        case let other?:
            let wait = Self.retries.wait(afterFailedTries: book.attempts + 1) ?? .zero
            return .retry("The book services did not answer (\(other)).", after: wait.seconds, counts: true)
        }
    }

    private func record(_ outcome: Outcome, for book: QueuedBook, now: Date) async throws {
        let tomorrow = GoogleBudget.nextDay(after: now)
        let coverFile: String?
        if case .enriched(let fill, _) = outcome { coverFile = fill.coverFile } else { coverFile = nil }
        let coverKept = try await db.write { db -> Bool in
            var coverKept = false
            switch outcome {
            case .enriched(let fill, let waitForBudget):
                coverKept = try fill.apply(to: book.id, now: now, db)
                if waitForBudget {
                    try Self.reschedule(book.id, at: tomorrow, message: Self.waitingForBudget, db)
                } else {
                    try Self.finish(book.id, status: "enriched", message: nil, now: now, db)
                }
            case .waitForBudget:
                try Self.reschedule(book.id, at: tomorrow, message: Self.waitingForBudget, db)
            case .retry(let message, let wait, let counts):
                let attempts = book.attempts + (counts ? 1 : 0)
                if attempts >= Self.maxAttempts {
                    try Self.finish(book.id, status: "failed", message: message, now: now, db)
                } else {
                    try db.execute(
                        sql:
                            "UPDATE enrichment_queue SET attempts = ?, next_try_at = ?, last_error = ? WHERE book_id = ?",
                        arguments: [attempts, now.addingTimeInterval(wait), message, book.id])
                }
            case .failed(let message):
                try Self.finish(book.id, status: "failed", message: message, now: now, db)
            }
            return coverKept
        }
        // A cover downloaded for a book that got one meanwhile (or was deleted) is not kept.
        if let coverFile, !coverKept { covers.remove(coverFile) }
    }

    /// A book whose lookup kept failing in a way this worker does not handle is given up on with `reason`.
    func giveUp(_ book: QueuedBook, reason: String) async throws {
        let now = now()
        try await db.write { db in try Self.finish(book.id, status: "failed", message: reason, now: now, db) }
    }

    private static func reschedule(_ bookID: Int64, at date: Date, message: String, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE enrichment_queue SET next_try_at = ?, last_error = ? WHERE book_id = ?",
            arguments: [date, message, bookID])
    }

    private static func finish(_ bookID: Int64, status: String, message: String?, now: Date, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE enrichment_queue SET status = ?, last_error = ?, finished_at = ? WHERE book_id = ?",
            arguments: [status, message, now, bookID])
    }
}

/// A queued book: its ISBNs and the fields enrichment may fill.
struct QueuedBook: Sendable, Equatable {
    let id: Int64
    let isbn13: String?
    let isbn10: String?
    let coverPath: String?
    let description: String?
    let hasCategories: Bool
    let pageCount: Int?
    let publisher: String?
    let publishedDate: String?
    let attempts: Int

    init(row: Row) {
        id = row["id"]
        isbn13 = row["isbn13"]
        isbn10 = row["isbn10"]
        coverPath = row["cover_path"]
        description = row["description"]
        hasCategories = (row["categories"] as String?).map { $0 != "[]" } ?? false
        pageCount = row["page_count"]
        publisher = row["publisher"]
        publishedDate = row["published_date"]
        attempts = row["attempts"]
    }

    var isbn: ISBN? { (isbn13.flatMap(ISBN.init)) ?? isbn10.flatMap(ISBN.init) }

    /// What `volumes` offer for the fields this book lacks, the first provider's value winning.
    func fill(from volumes: [VolumeResult]) -> BookFill {
        var fill = BookFill()
        for volume in volumes {
            if description == nil, fill.description == nil { fill.description = volume.description }
            if !hasCategories, fill.categories.isEmpty { fill.categories = Array(volume.categories.prefix(10)) }
            if pageCount == nil, fill.pageCount == nil {
                fill.pageCount = BoundedNumber.plausible(volume.pageCount, in: BoundedNumber.pageCount)
            }
            if publisher == nil, fill.publisher == nil { fill.publisher = volume.publisher }
            if publishedDate == nil, fill.publishedDate == nil { fill.publishedDate = volume.publishedDate }
            if coverPath == nil, fill.coverURL == nil { fill.coverURL = volume.coverURL }
        }
        return fill
    }
}

/// The values enrichment writes into a book's empty fields.
struct BookFill: Sendable, Equatable {
    var description: String?
    var categories: [String] = []
    var pageCount: Int?
    var publisher: String?
    var publishedDate: String?
    var coverURL: String?
    /// The downloaded cover, in the covers folder.
    var coverFile: String?

    /// Whether `book` would still lack a cover, description, categories or page count after this fill (what a
    /// Google Books lookup is spent on).
    func leavesGaps(in book: QueuedBook) -> Bool {
        (book.coverPath == nil && coverURL == nil) || (book.description == nil && description == nil)
            || (!book.hasCategories && categories.isEmpty) || (book.pageCount == nil && pageCount == nil)
    }

    /// Writes the values into the fields that are still empty (someone may have typed one meanwhile); true when
    /// the cover file was taken.
    func apply(to bookID: Int64, now: Date, _ db: Database) throws -> Bool {
        try db.execute(
            sql: """
                UPDATE book SET description = COALESCE(description, ?),
                    categories = CASE WHEN categories = '[]' AND ? != '[]' THEN ? ELSE categories END,
                    page_count = COALESCE(page_count, ?), publisher = COALESCE(publisher, ?),
                    published_date = COALESCE(published_date, ?), updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                description, CatalogWriter.jsonArray(categories), CatalogWriter.jsonArray(categories), pageCount,
                publisher, publishedDate, now, bookID,
            ])
        guard let coverFile else { return false }
        try db.execute(
            sql: "UPDATE book SET cover_path = ? WHERE id = ? AND cover_path IS NULL", arguments: [coverFile, bookID])
        return db.changesCount > 0
    }
}
