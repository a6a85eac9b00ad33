import Foundation
import GRDB

/// All SQL about the enrichment queue (`enrichment_queue`, one row per imported book): which book is due, and what
/// became of a lookup — filled in, waiting for tomorrow's Google Books allowance, tried again later, or given up on.
struct EnrichmentQueueStore: Sendable {
    let db: AppDatabase

    /// The book due first whose import has finished; nil when none is due.
    func nextDue(at now: Date) async throws -> QueuedBook? {
        try await db.read { db in
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

    /// Records what a lookup of `book` came to, in one transaction; true when its downloaded cover was kept.
    @discardableResult
    func record(_ outcome: EnrichmentWorker.Outcome, for book: QueuedBook, now: Date) async throws -> Bool {
        let tomorrow = GoogleBudget.nextDay(after: now)
        return try await db.write { db -> Bool in
            var coverKept = false
            switch outcome {
            case .enriched(let fill, let waitForBudget):
                coverKept = try CatalogWriter(db: db).fillEmptyFields(of: book.id, with: fill, at: now)
                if waitForBudget {
                    try Self.reschedule(book.id, at: tomorrow, message: EnrichmentWorker.waitingForBudget, db)
                } else {
                    try Self.finish(book.id, status: "enriched", message: nil, now: now, db)
                }
            case .waitForBudget:
                try Self.reschedule(book.id, at: tomorrow, message: EnrichmentWorker.waitingForBudget, db)
            case .retry(let message, let wait, let counts):
                let attempts = book.attempts + (counts ? 1 : 0)
                if attempts >= EnrichmentWorker.maxAttempts {
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
    }

    /// How far the enrichment of one import's books has got.
    static func progress(ofJob jobID: String, _ db: Database) throws -> EnrichmentProgress {
        var progress = EnrichmentProgress()
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT status, COUNT(*) AS count, SUM(last_error = ?) AS waiting FROM enrichment_queue
                WHERE job_id = ? GROUP BY status
                """, arguments: [EnrichmentWorker.waitingForBudget, jobID])
        for row in rows {
            let count: Int = row["count"]
            switch row["status"] as String {
            case "enriched": progress.enriched = count
            case "failed": progress.failed = count
            default:
                progress.pending += count
                progress.waitingForBudget += row["waiting"] ?? 0
            }
        }
        progress.withDescription =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM enrichment_queue JOIN book ON book.id = enrichment_queue.book_id
                    WHERE enrichment_queue.job_id = ? AND book.description IS NOT NULL AND book.description != ''
                    """, arguments: [jobID]) ?? 0
        return progress
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
