import Foundation
import GRDB

/// Confirmed imports and batch-enrich jobs as work for their runners (`ImportRunner`, `BarcodeJobRunner`): which
/// jobs are running, applying a job's next rows with its counts in one transaction, and ending a job. What people
/// see of their jobs is `ImportStore`'s.
struct ImportQueueStore: Sendable {
    let db: AppDatabase

    struct RunningJob: Sendable {
        let id: String
        let userID: Int64
        let createdAt: Date
    }

    /// Running file imports, oldest first.
    func runningFileJobs() async throws -> [RunningJob] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, user_id, created_at FROM import_job
                    WHERE status IN ('initialized', 'processing') AND format != 'barcodes'
                    ORDER BY created_at, id
                    """
            ).map { RunningJob(id: $0[0], userID: $0[1], createdAt: $0[2]) }
        }
    }

    /// Applies up to `size` pending rows of `jobID` in one transaction, each row's outcome recorded with its book,
    /// so a restart (even `kill -9`) resumes at the first pending row with no duplicate. `cachedMatch` gives the
    /// person's library index when an earlier batch built it. Nil when the job is not running (finished, canceled).
    func applyNextBatch(
        of jobID: String, size: Int, now: Date, cachedMatch: @escaping @Sendable (Int64) -> LibraryMatch?
    ) async throws -> (userID: Int64, match: LibraryMatch)? {
        try await db.write { db -> (userID: Int64, match: LibraryMatch)? in
            guard var job = try ImportJob.fetchOne(db, key: jobID), job.status.isRunning else { return nil }
            if job.status == .initialized {
                job.status = .processing
                job.startedAt = now
            }
            // Only the row number and the book are read, and only the outcome written back: the cells stay as
            // they are (decoding and re-encoding them per row was a sixth of an import's time).
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT row, book FROM import_row WHERE job_id = ? AND outcome = 'pending' ORDER BY row LIMIT ?"
                ),
                arguments: [jobID, size])
            var match = try cachedMatch(job.userId) ?? LibraryMatch(db, userID: job.userId)
            let applier = ImportApplier(
                jobID: jobID, userID: job.userId, existing: job.existing, shelfMapping: job.shelfMapping, now: now)
            let record = try db.cachedStatement(
                sql: "UPDATE import_row SET outcome = ?, message = ?, user_book_id = ? WHERE job_id = ? AND row = ?")
            for row in rows {
                let number: Int = row["row"]
                let book = (row["book"] as String?).flatMap {
                    try? Self.decoder.decode(ImportedBook.self, from: Data($0.utf8))
                }
                guard let book else {
                    try record.execute(arguments: ["failed", "The row could not be read.", nil, jobID, number])
                    job.failed += 1
                    job.processed += 1
                    continue
                }
                let applied = try applier.apply(book, match: &match, db)
                try record.execute(
                    arguments: [applied.outcome.rawValue, applied.message, applied.userBookID, jobID, number])
                job.processed += 1
                job.count(applied.outcome)
            }
            if rows.count < size {
                job.status = .completed
                job.finishedAt = now
                job.processed = job.total
            }
            try job.update(db)
            return (job.userId, match)
        }
    }

    private static let decoder = JSONDecoder()

    /// Ends a running job as failed with `reason` for its owner; the rows it applied stay.
    func fail(_ jobID: String, reason: String, at now: Date) async throws {
        try await db.write { db in
            guard var job = try ImportJob.fetchOne(db, key: jobID), job.status.isRunning else { return }
            job.status = .failed
            job.message = reason
            job.finishedAt = now
            try job.update(db)
        }
    }

    /// An upload cut off by a crash while its rows were read leaves a half-staged job: it is marked failed. Returns
    /// how many were.
    func failInterruptedStaging() async throws -> Int {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE import_job SET status = 'failed', message = 'The upload was interrupted. Upload the file again.'
                    WHERE status = 'staging'
                    """)
            return db.changesCount
        }
    }

    // MARK: Batch enrich

    /// Each person's oldest running batch-enrich job, people in the order of their oldest job.
    func oldestBarcodeJobOfEachPerson() async throws -> [ImportJob] {
        let jobs = try await db.read { db in
            try ImportJob.fetchAll(
                db,
                sql: """
                    SELECT * FROM import_job WHERE format = 'barcodes' AND status IN ('initialized', 'processing')
                    ORDER BY created_at, id
                    """)
        }
        var turns: [ImportJob] = []
        for job in jobs where !turns.contains(where: { $0.userId == job.userId }) { turns.append(job) }
        return turns
    }

    func nextPendingRow(of jobID: String) async throws -> ImportRow? {
        try await db.read { db in
            try ImportRow.fetchOne(
                db, sql: "SELECT * FROM import_row WHERE job_id = ? AND outcome = 'pending' ORDER BY row LIMIT 1",
                arguments: [jobID])
        }
    }

    /// Records what became of one barcode with the job's counts, unless the job was canceled meanwhile.
    func recordBarcode(
        row: Int, of job: ImportJob, outcome: ImportRow.Outcome, message: String?, bookID: Int64?, at now: Date
    ) async throws {
        try await db.write { db in
            guard var current = try ImportJob.fetchOne(db, key: job.id), current.status.isRunning else { return }
            let entryID = try bookID.flatMap {
                try Int64.fetchOne(
                    db, sql: "SELECT id FROM user_book WHERE user_id = ? AND book_id = ?", arguments: [job.userId, $0])
            }
            try db.execute(
                sql: "UPDATE import_row SET outcome = ?, message = ?, user_book_id = ? WHERE job_id = ? AND row = ?",
                arguments: [outcome.rawValue, message, entryID, job.id, row])
            if current.status == .initialized {
                current.status = .processing
                current.startedAt = now
            }
            current.processed += 1
            switch outcome {
            case .created: current.created += 1
            case .skipped: current.skipped += 1
            default: current.failed += 1
            }
            try current.update(db)
        }
    }

    /// Ends a job whose rows have all been looked up.
    func complete(_ jobID: String, at now: Date) async throws {
        try await db.write { db in
            guard var job = try ImportJob.fetchOne(db, key: jobID), job.status.isRunning else { return }
            job.status = .completed
            job.startedAt = job.startedAt ?? now
            job.finishedAt = now
            job.processed = job.total
            try job.update(db)
        }
    }
}

extension ImportJob {
    /// Counts one applied row in the job's figures.
    mutating func count(_ outcome: ImportRow.Outcome) {
        switch outcome {
        case .created: created += 1
        case .updated: updated += 1
        case .skipped: skipped += 1
        case .failed: failed += 1
        case .pending: break
        }
    }
}
