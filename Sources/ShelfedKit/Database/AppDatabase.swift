import Foundation
import GRDB

/// Opens the SQLite file (WAL, foreign keys, busy timeout) and brings its schema up to date.
public struct AppDatabase: Sendable {
    public let writer: any DatabaseWriter

    /// Opens or creates the database at `path` and runs every pending migration: after copying the database into
    /// `backupFolder` when it comes from an older version, and never for one from a newer version
    /// (`NewerDatabase`).
    public init(path: String, backupFolder: URL? = nil, now: Date = Date()) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // Household servers see few writers at once; wait for a lock instead of failing the request.
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        try Self.prepareForMigration(pool, path: path, backupFolder: backupFolder, now: now)
        try Self.migrator.migrate(pool)
        self.writer = pool
    }

    /// Closes the read connections and empties the writer's page cache (each holds up to 2 MB of pages), for an idle
    /// server (`IdleMemoryService`): each as soon as the work it is doing ends, so nothing waits for a long write or a
    /// backup. Connections open again on the next read.
    public func releaseMemoryEventually() {
        (writer as? DatabasePool)?.releaseMemoryEventually()
    }

    /// The names of the migrations applied so far, for diagnostics and tests.
    public func appliedMigrations() throws -> [String] {
        try writer.read { db in try Self.migrator.appliedMigrations(db) }
    }
}
