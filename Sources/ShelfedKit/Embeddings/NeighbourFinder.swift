import Logging
import Synchronization

/// Works through `book_neighbours_pending` in the background, so a book page reads "More like this" from one stored
/// row. A commit to `book_embedding` rings the doorbell (the triggers fill the queue); the finder then waits for the
/// pages to be quiet and rests after each pass, so the embedding worker's batches during an import cost a few passes,
/// not one per book.
final class NeighbourFinder: BackgroundWorker {
    let neighbours: BookNeighbours
    let logger: Logger
    let name = "Finding books alike"
    let doorbell = Doorbell()
    let watchedTables = ["book_embedding"]
    /// Nothing falls due later: every change rings.
    let idleWait: Duration = .seconds(600)
    let pause: Duration
    let activity: ServerActivity?
    /// Set when passes fail every try: the queue is left until a restart, and book pages find their books live.
    private let givenUp = Mutex(false)

    init(db: AppDatabase, logger: Logger, activity: ServerActivity? = nil, pause: Duration = .seconds(3)) {
        neighbours = BookNeighbours(db: db)
        self.logger = logger
        self.activity = activity
        self.pause = pause
    }

    /// A pass cut off by a restart wrote nothing: its books are still in the queue.
    func recover() async throws {}

    /// One pass takes the whole queue, so the work is just "a pass is due".
    func next() async throws -> Bool? {
        guard !givenUp.withLock({ $0 }) else { return nil }
        return try await neighbours.hasWork() ? true : nil
    }

    func run(_ work: Bool) async throws {
        await activity?.waitForQuiet(EmbeddingWorker.quiet, atMost: EmbeddingWorker.longestWait)
        try await neighbours.update()
    }

    func giveUp(_ work: Bool, reason: String) async throws {
        givenUp.withLock { $0 = true }
        logger.warning("Books alike could not be found ahead; book pages find them as they open: \(reason)")
    }
}
