import Foundation
import GRDB
import Logging
import Synchronization

/// Runs confirmed imports in the background (a `BackgroundWorker`: one piece of work is one batch of one job).
///
/// Rows are written a small batch per transaction, each row's outcome recorded in the same transaction as its
/// book, so a restart (even `kill -9`) resumes at the first pending row with no duplicate. Jobs of different
/// users take turns batch by batch, so two imports run at once and neither waits for the other to finish.
final class ImportRunner: BackgroundWorker {
    let db: AppDatabase
    let logger: Logger
    let now: @Sendable () -> Date
    /// Rows per transaction: short enough that a page's write waits a few milliseconds at most.
    let batchSize: Int
    let name = "Imports"
    let doorbell = Doorbell()
    /// Jobs another process confirmed are found within this.
    let idleWait: Duration = .seconds(5)
    /// Each importing user's library index, built when their first job starts and shared by all their running jobs,
    /// so two jobs of one file (a phone retrying an upload) find each other's books instead of adding them twice.
    private let matches = Mutex<[Int64: LibraryMatch]>([:])
    /// The job the last batch was of, so the next batch is the following job's.
    private let lastServed = Mutex<RunningJob?>(nil)

    private struct RunningJob: Sendable {
        let id: String
        let createdAt: Date
    }

    init(db: AppDatabase, logger: Logger, now: @escaping @Sendable () -> Date, batchSize: Int = 100) {
        self.db = db
        self.logger = logger
        self.now = now
        self.batchSize = batchSize
    }

    /// Tells the runner a job is waiting.
    func jobConfirmed() {
        doorbell.ring()
    }

    func recover() async throws {
        try await recoverInterruptedStaging()
    }

    /// Runs every job until none is left; for tests and the command line.
    func runUntilIdle() async throws {
        while try await runOneRound() {}
    }

    /// One batch of each running job; false when there was nothing to do.
    @discardableResult
    func runOneRound() async throws -> Bool {
        let jobs = try await runningJobs()
        for job in jobs { try await run(job.id) }
        return !jobs.isEmpty
    }

    /// The running job whose turn it is: jobs take turns batch by batch, oldest first, so two people's imports run
    /// at once and neither waits for the other to finish. Nil when none is running.
    func next() async throws -> String? {
        let jobs = try await runningJobs()
        guard !jobs.isEmpty else { return nil }
        return lastServed.withLock { last in
            // The first job after the last one served, in the jobs' order (found even when that one has finished).
            let turn =
                last.flatMap { last in jobs.first { ($0.createdAt, $0.id) > (last.createdAt, last.id) } }
                ?? jobs[0]
            last = turn
            return turn.id
        }
    }

    /// One batch of `jobID`.
    func run(_ jobID: String) async throws {
        try Task.checkCancellation()
        try await runBatch(of: jobID)
    }

    /// A job whose batches kept failing stops, saying why; the rows it applied stay, the others wait as they were.
    func giveUp(_ jobID: String, reason: String) async throws {
        let now = now()
        try await db.write { db in
            guard var job = try ImportJob.fetchOne(db, key: jobID), job.status.isRunning else { return }
            job.status = .failed
            job.message = reason
            job.finishedAt = now
            try job.update(db)
        }
    }

    /// The running jobs, oldest first.
    private func runningJobs() async throws -> [RunningJob] {
        let waiting = try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, user_id, created_at FROM import_job
                    WHERE status IN ('initialized', 'processing') AND format != 'barcodes'
                    ORDER BY created_at, id
                    """
            ).map { (job: RunningJob(id: $0[0], createdAt: $0[2]), userID: $0[1] as Int64) }
        }
        // A user with no running job left gives up their index: the next import starts from the library as it is.
        let importing = Set(waiting.map(\.userID))
        matches.withLock { $0 = $0.filter { importing.contains($0.key) } }
        return waiting.map(\.job)
    }

    /// Applies the next pending rows of one job in one transaction, with the job's counts.
    func runBatch(of jobID: String) async throws {
        let batchSize = batchSize
        let now = now()
        // Batches run one at a time, so the index read here is the one the last batch of any of this user's jobs left.
        let (userID, match) = try await db.write { db -> (Int64?, LibraryMatch?) in
            guard var job = try ImportJob.fetchOne(db, key: jobID), job.status.isRunning else { return (nil, nil) }
            let cached = self.matches.withLock { $0[job.userId] }
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
                arguments: [jobID, batchSize])
            var match = try cached ?? LibraryMatch(db, userID: job.userId)
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
                switch applied.outcome {
                case .created: job.created += 1
                case .updated: job.updated += 1
                case .skipped: job.skipped += 1
                case .failed: job.failed += 1
                case .pending: break
                }
            }
            if rows.count < batchSize {
                job.status = .completed
                job.finishedAt = now
                job.processed = job.total
            }
            try job.update(db)
            return (job.userId, match)
        }
        if let userID, let match { matches.withLock { $0[userID] = match } }
    }

    private static let decoder = JSONDecoder()

    /// An upload cut off by a crash while its rows were read leaves a half-staged job: it is marked failed.
    private func recoverInterruptedStaging() async throws {
        let count = try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE import_job SET status = 'failed', message = 'The upload was interrupted. Upload the file again.'
                    WHERE status = 'staging'
                    """)
            return db.changesCount
        }
        if count > 0 { logger.notice("Marked \(count) interrupted import uploads as failed") }
    }
}
