import GRDB
import NIOPosix

extension AppDatabase {
    /// Threads that run database work. GRDB's own async accessors wait for a reader on libdispatch
    /// worker threads; on a 2-core machine under load every worker ended up waiting for a reader whose
    /// queue needed a worker to finish — a deadlock seen at 16 concurrent requests. Running GRDB's
    /// synchronous API on these dedicated threads keeps each connection's work on the calling thread.
    static let threadPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: 4)
        pool.start()
        return pool
    }()

    /// Reads from a pooled reader connection, off the event loops and the cooperative pool, in the request's
    /// language (a page's lines are built inside its read).
    public func read<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let writer = self.writer
        return try await Self.threadPool.runInLanguage { try writer.read(block) }
    }

    /// Runs one statement on a pooled reader without a transaction around it: a single SQLite statement always
    /// reads one consistent state, and every request reads its session and user this way, so the BEGIN and
    /// COMMIT a transaction costs are spared. Nothing said in words is read this way, so the language stays behind.
    public func readStatement<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let writer = self.writer
        return try await Self.threadPool.runIfActive { try writer.unsafeRead(block) }
    }

    /// Writes in a transaction on the single writer connection, in the request's language.
    public func write<T: Sendable>(_ block: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let writer = self.writer
        return try await Self.threadPool.runInLanguage { try writer.write(block) }
    }
}
