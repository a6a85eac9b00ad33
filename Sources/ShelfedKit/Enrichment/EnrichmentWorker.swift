import Foundation
import GRDB
import Logging

/// Fills in what imported books lack — cover, description, categories, page count, publisher, date — after the
/// import and never during it: Open Library first (no quota), then Google Books within `GoogleBudget`. One book
/// at a time with a pause between, started and stopped with the server; the queue lives in the database, so a
/// restart or the end of a day's allowance carries on where it stopped. Only empty fields are filled.
final class EnrichmentWorker: BackgroundWorker {
    let queue: EnrichmentQueueStore
    let search: BookSearchService
    let covers: CoverStore
    let budget: GoogleBudget
    let logger: Logger
    let now: @Sendable () -> Date
    /// Between two books, to be a polite client of Open Library.
    let pause: Duration
    let name = "Enrichment"
    let doorbell = Doorbell()
    /// Books fall due when their import finishes (a commit to these rings) and when a retry's wait is over (at
    /// least a minute: the queue looks this often).
    let watchedTables = ["enrichment_queue", "import_job"]
    let idleWait: Duration = .seconds(60)

    /// Transient failures (timeouts, 5xx) before a book is given up on; the waits double from a minute.
    static let retries = Backoff(tries: 8, first: .seconds(60), factor: 2, longest: .seconds(6 * 3600))
    static var maxAttempts: Int { retries.tries }
    static let waitingForBudget = "Waiting for tomorrow's Google Books allowance."

    init(
        db: AppDatabase, search: BookSearchService, covers: CoverStore, budget: GoogleBudget, logger: Logger,
        now: @escaping @Sendable () -> Date, pause: Duration = .milliseconds(500)
    ) {
        self.queue = EnrichmentQueueStore(db: db)
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
        try await queue.nextDue(at: now())
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
            if let edition = try await search.openLibrary.edition(isbn: isbn, followingWork: true) {
                found.append(edition)
            }
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
        let coverFile: String?
        if case .enriched(let fill, _) = outcome { coverFile = fill.coverFile } else { coverFile = nil }
        let coverKept = try await queue.record(outcome, for: book, now: now)
        // A cover downloaded for a book that got one meanwhile (or was deleted) is not kept.
        if let coverFile, !coverKept { covers.remove(coverFile) }
    }

    /// A book whose lookup kept failing in a way this worker does not handle is given up on with `reason`.
    func giveUp(_ book: QueuedBook, reason: String) async throws {
        try await queue.record(.failed(reason), for: book, now: now())
    }
}
