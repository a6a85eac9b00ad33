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
    let queue: ImportQueueStore
    let logger: Logger
    let now: @Sendable () -> Date
    /// Rows per transaction: short enough that a page's write waits a few milliseconds at most.
    let batchSize: Int
    let name = "Imports"
    let doorbell = Doorbell()
    /// A confirmed job rings (`jobConfirmed`), as does any commit to the jobs.
    let watchedTables = ["import_job"]
    let idleWait: Duration = .seconds(300)
    /// Each importing user's library index, built when their first job starts and shared by all their running jobs,
    /// so two jobs of one file (a phone retrying an upload) find each other's books instead of adding them twice.
    private let matches = Mutex<[Int64: LibraryMatch]>([:])
    /// The job the last batch was of, so the next batch is the following job's.
    private let lastServed = Mutex<ImportQueueStore.RunningJob?>(nil)

    init(db: AppDatabase, logger: Logger, now: @escaping @Sendable () -> Date, batchSize: Int = 100) {
        self.queue = ImportQueueStore(db: db)
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
        let advice = "Upload the file again to import the rest: the books already added are found, not added twice."
        try await queue.fail(jobID, reason: "This import stopped before the end. \(reason) \(advice)", at: now())
    }

    /// The running jobs, oldest first.
    private func runningJobs() async throws -> [ImportQueueStore.RunningJob] {
        let jobs = try await queue.runningFileJobs()
        // A user with no running job left gives up their index: the next import starts from the library as it is.
        let importing = Set(jobs.map(\.userID))
        matches.withLock { $0 = $0.filter { importing.contains($0.key) } }
        return jobs
    }

    /// Applies the next pending rows of one job in one transaction, with the job's counts.
    func runBatch(of jobID: String) async throws {
        // Batches run one at a time, so the index used here is the one the last batch of any of this user's jobs
        // left.
        let applied = try await queue.applyNextBatch(of: jobID, size: batchSize, now: now()) { userID in
            self.matches.withLock { $0[userID] }
        }
        if let applied { matches.withLock { $0[applied.userID] = applied.match } }
    }

    /// An upload cut off by a crash while its rows were read leaves a half-staged job: it is marked failed.
    private func recoverInterruptedStaging() async throws {
        let count = try await queue.failInterruptedStaging()
        if count > 0 { logger.notice("Marked \(count) interrupted import uploads as failed") }
    }
}
