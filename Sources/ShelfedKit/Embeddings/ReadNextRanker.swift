import GRDB
import Logging
import Synchronization

/// Makes each stale "Read next" ranking again in the background (issue 35, finding 9), so the home page reads a
/// stored one. The queue is `read_next_state` itself: a person whose change count differs from their ranked count is
/// waiting. A commit to the tables the ranking reads rings the doorbell (`watchedTables`); the ranker then waits for
/// the pages to be quiet and rests between rankings, so a burst of changes (an import, the embedding worker's
/// batches, a person rating ten books) costs a few rankings, not one per change.
final class ReadNextRanker: BackgroundWorker {
    let readNext: ReadNext
    let logger: Logger
    let name = "Ranking Read next"
    let doorbell = Doorbell()
    /// The ranking reads these; the queue rings the doorbell on every commit to them, and on another process's.
    let watchedTables = ["user_book", "book_embedding"]
    /// Nothing falls due later: every change rings.
    let idleWait: Duration = .seconds(600)
    /// A rest after each ranking: changes that come in meanwhile are ranked together.
    let pause: Duration
    let activity: ServerActivity?
    /// People whose ranking failed every try: not taken again until a restart (their home page ranks when opened).
    private let givenUp = Mutex<Set<Int64>>([])

    init(db: AppDatabase, logger: Logger, activity: ServerActivity? = nil, pause: Duration = .seconds(3)) {
        readNext = ReadNext(db: db)
        self.logger = logger
        self.activity = activity
        self.pause = pause
    }

    /// Nothing runs across a restart: a ranking cut off left its person stale, and they are ranked again.
    func recover() async throws {}

    func next() async throws -> Int64? {
        let skipped = givenUp.withLock { $0 }
        return try await readNext.staleUsers(limit: skipped.count + 1).first { !skipped.contains($0) }
    }

    func run(_ userID: Int64) async throws {
        await activity?.waitForQuiet(EmbeddingWorker.quiet, atMost: EmbeddingWorker.longestWait)
        try await readNext.rank(userID)
    }

    /// A ranking that keeps failing is left stale: the home page ranks it when it is opened, and says what fails.
    func giveUp(_ userID: Int64, reason: String) async throws {
        givenUp.withLock { _ = $0.insert(userID) }
        logger.warning("Read next could not be ranked ahead for user \(userID): \(reason)")
    }
}
