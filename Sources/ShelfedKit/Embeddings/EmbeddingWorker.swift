import Foundation
import Logging

/// Gives every catalog book and every page photo with words its meaning vector, in the background, at low priority,
/// a batch at a time (DESIGN §14). The queue is the tables themselves — a row without a vector from the current
/// model is waiting — so an import of a thousand books, an edited description or a restart in the middle all just
/// leave rows waiting. Without a usable model it waits quietly: search goes on by keywords.
final class EmbeddingWorker: BackgroundWorker {
    struct Batch: Sendable {
        let kind: EmbeddingStore.Kind
        let items: [EmbeddingStore.Pending]
    }

    let store: EmbeddingStore
    let embedder: TextEmbedder
    let clock: AppClock
    let logger: Logger
    let name = "Reading books for meaning"
    let doorbell = Doorbell()
    /// A book added, held or edited, or a photo's words read: every way of changing one commits to these, so a book
    /// is searchable by meaning within seconds without each having to ring the doorbell.
    let watchedTables = ["book", "user_book", "photo"]
    /// Nothing falls due later.
    let idleWait: Duration = .seconds(300)
    /// Texts per encoder call: the matrices stay small enough for the cache (benchmarks/README.md, "Embeddings").
    let batchSize: Int
    /// Each batch waits until no page has been asked for in `quiet` (at most `longestWait`), so a busy server's
    /// pages are not slowed by the matrix products; nil: no waiting (tests, benchmarks of the encoder alone).
    let activity: ServerActivity?
    static let quiet: Duration = .milliseconds(300)
    static let longestWait: Duration = .seconds(20)

    init(
        db: AppDatabase, embedder: TextEmbedder, clock: AppClock, logger: Logger, batchSize: Int = 8,
        activity: ServerActivity? = nil
    ) {
        store = EmbeddingStore(db: db)
        self.embedder = embedder
        self.clock = clock
        self.logger = logger
        self.batchSize = max(1, batchSize)
        self.activity = activity
    }

    /// Tells the worker books or photo text changed (it also looks every few seconds).
    func textsChanged() {
        doorbell.ring()
    }

    /// Nothing runs across a restart: a batch cut off simply has no vectors yet.
    func recover() async throws {}

    func next() async throws -> Batch? {
        guard embedder.availability == .available else { return nil }
        let books = try await store.booksWaiting(model: TextEmbedder.modelID, limit: batchSize)
        if !books.isEmpty { return Batch(kind: .book, items: books) }
        let photos = try await store.photosWaiting(model: TextEmbedder.modelID, limit: batchSize)
        return photos.isEmpty ? nil : Batch(kind: .photo, items: photos)
    }

    func run(_ batch: Batch) async throws {
        await activity?.waitForQuiet(Self.quiet, atMost: Self.longestWait)
        guard let vectors = try await embedder.embed(batch.items.map(\.text), priority: .background) else { return }
        try await store.save(batch.kind, batch.items, vectors: vectors, model: TextEmbedder.modelID, now: clock.now())
    }

    /// Marks the batch's texts as not embeddable, so the worker moves on; a changed text is tried again.
    func giveUp(_ batch: Batch, reason: String) async throws {
        try await store.save(batch.kind, batch.items, vectors: nil, model: TextEmbedder.modelID, now: clock.now())
    }

    /// Embeds everything waiting; for tests and benchmarks.
    func runUntilIdle() async throws {
        while let batch = try await next() { try await run(batch) }
    }
}
