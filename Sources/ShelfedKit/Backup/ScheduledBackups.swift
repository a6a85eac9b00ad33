import Foundation
import GRDB
import Logging
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The server backs itself up on a schedule (issue 26): a full backup through `Backup.create`, read back and verified,
/// then older ones pruned to the keep rule. Each run is recorded, so the admin's settings page can say how the last
/// one went; a failed backup is logged and recorded, and the server goes on. The admin's "Back up now" takes one at
/// once, on the same loop (so two never run together), whether or not a schedule is set.
struct ScheduledBackups: Service {
    let schedule: BackupSchedule
    let folder: URL
    let dataDirectory: URL
    let database: AppDatabase
    let clock: AppClock
    let logger: Logger
    /// Where the zip is written and read back: blocking file work, off the event loops.
    let threadPool: NIOThreadPool
    let requests = Requests()

    static let filePrefix = "shelfed-"

    /// "Back up now", asked for while the loop sleeps or works; kept (once) until the loop takes it.
    final class Requests: Sendable {
        let signal = WakeSignal()
        private let asked = Mutex(false)
        private let running = Mutex(false)

        func ask() {
            asked.withLock { $0 = true }
            signal.ring()
        }

        func take() -> Bool {
            asked.withLock { asked in
                defer { asked = false }
                return asked
            }
        }
        /// A backup is being written now, or has been asked for and not yet started.
        var isBusy: Bool { running.withLock { $0 } || asked.withLock { $0 } }
        func setRunning(_ value: Bool) { running.withLock { $0 = value } }
    }

    /// Takes a backup as soon as the loop is free.
    func backUpNow() {
        requests.ask()
    }

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = clock.timeZone
                while !Task.isCancelled {
                    let next = schedule.nextRun(after: clock.now(), calendar: calendar)
                    // Off: no schedule, so only the admin's "Back up now" wakes the loop (a day is just a long nap).
                    let wait = next.map { max(0, $0.timeIntervalSince(clock.now())) } ?? 86_400
                    await requests.signal.wait(atMost: .milliseconds(Int64(wait * 1000)))
                    try Task.checkCancellation()
                    guard requests.take() || next != nil else { continue }
                    requests.setRunning(true)
                    await runOnce()
                    requests.setRunning(false)
                }
            }
        } catch is CancellationError {
            return
        }
    }

    /// Takes, verifies and prunes one backup, and records how it went. Never throws: a failure is the record.
    @discardableResult
    func runOnce() async -> BackupRuns.Run {
        let started = clock.now()
        let target = folder.appendingPathComponent(Self.filePrefix + BackupSchedule.fileStamp(started) + ".zip")
        var run = BackupRuns.Run(startedAt: started, finishedAt: started, file: nil, bytes: nil, error: nil)
        do {
            let (folder, dataDirectory, pool) = (folder, dataDirectory, database.writer)
            let bytes = try await threadPool.runIfActive {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Backup.create(dataDirectory: dataDirectory, to: target, database: pool, now: started)
                _ = try Backup.verify(archiveAt: target, scratchFolder: dataDirectory)
                let size = try FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int ?? 0
                return size
            }
            run.file = target.lastPathComponent
            run.bytes = bytes
            pruned()
            logger.info("Backup \(target.lastPathComponent) written and verified (\(bytes / 1_048_576) MB).")
        } catch is CancellationError {
            // The server is stopping: not a fault of the folder; the next start's schedule takes another.
            try? FileManager.default.removeItem(at: target)
            run.error = "Interrupted: the server stopped while this backup was being written."
            logger.info("The scheduled backup was interrupted by the server stopping.")
        } catch {
            try? FileManager.default.removeItem(at: target)
            run.error = Self.explain(error, folder: folder, needs: Self.dataSize(of: dataDirectory))
            logger.error("The scheduled backup failed: \(run.error ?? "")")
        }
        run.finishedAt = clock.now()
        do {
            try await BackupRuns(db: database).record(run)
        } catch {
            logger.error("The backup's result could not be recorded: \(error)")
        }
        return run
    }

    /// Removes the backups the keep rule no longer needs (only this server's own, by their names).
    private func pruned() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasPrefix(Self.filePrefix) && $0.hasSuffix(".zip")
        }
        let dated = names.compactMap { name in Self.date(of: name).map { (name: name, date: $0) } }
        let kept = schedule.kept(dated, calendar: calendar)
        for backup in dated where !kept.contains(backup.name) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(backup.name))
        }
    }

    /// The bytes a backup of `dataDirectory` holds before compression: the database and every photo and cover.
    static func dataSize(of dataDirectory: URL) -> Int64 {
        let database = dataDirectory.appendingPathComponent(Backup.databaseName).path
        func size(_ path: String) -> Int64 {
            ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        var total = size(database)
        for folder in ["media", "covers"] {
            let files = (try? Backup.regularFiles(under: dataDirectory.appendingPathComponent(folder), prefix: folder))
            for (file, _) in files ?? [] {
                total += size(file.path)
            }
        }
        return total
    }

    /// The time in a backup's name (`shelfed-20261125-033000.zip`, UTC).
    static func date(of name: String) -> Date? {
        let stamp = name.dropFirst(filePrefix.count).dropLast(".zip".count)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.date(from: String(stamp))
    }

    /// What the admin reads: the cause and what to do, not a stack of errors. A disk with less room than the data
    /// (`needs` bytes, before compression) is named as full whatever the error said: the zip writer's own error for
    /// it is a bare "unwritableFile".
    static func explain(_ error: any Error, folder: URL, needs: Int64? = nil) -> String {
        if let needs, let space = BackupStatus.freeSpace(of: folder), space.available < needs {
            return "There is not enough space for a backup in \(folder.path): "
                + "\(BackupStatus.megabytes(space.available)) free, and the library takes "
                + "\(BackupStatus.megabytes(needs)). Free some space or choose another disk with SHELFED_BACKUP_DIR."
        }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain,
            [NSFileWriteOutOfSpaceError, NSFileWriteNoPermissionError, NSFileWriteVolumeReadOnlyError]
                .contains(nsError.code)
        {
            return "Shelfed could not write to \(folder.path) (full, read-only or not the server's to write). "
                + "Free some space or choose another folder with SHELFED_BACKUP_DIR."
        }
        if let failure = error as? Backup.Failure { return failure.description }
        return "\(error)".prefix(300) + " — check that \(folder.path) exists, has room and is the server's to write."
    }
}

/// The record of scheduled backups, for the admin's settings page and `shelfed doctor`.
struct BackupRuns: Sendable {
    let db: AppDatabase
    static let kept = 50

    struct Run: Sendable, Equatable {
        var startedAt: Date
        var finishedAt: Date
        var file: String?
        var bytes: Int?
        var error: String?
    }

    func record(_ run: Run) async throws {
        try await db.write { db in
            try db.execute(
                sql: "INSERT INTO backup_run (started_at, finished_at, file, bytes, error) VALUES (?, ?, ?, ?, ?)",
                arguments: [run.startedAt, run.finishedAt, run.file, run.bytes, run.error])
            try db.execute(
                sql: "DELETE FROM backup_run WHERE id <= (SELECT id FROM backup_run ORDER BY id DESC LIMIT 1 OFFSET ?)",
                arguments: [Self.kept])
        }
    }

    /// The latest run, and the latest that succeeded.
    func latest() async throws -> (last: Run?, lastGood: Run?) {
        try await db.read { db in
            func run(_ sql: String) throws -> Run? {
                try Row.fetchOne(db, sql: sql).map { row in
                    Run(
                        startedAt: row["started_at"], finishedAt: row["finished_at"], file: row["file"],
                        bytes: row["bytes"], error: row["error"])
                }
            }
            return (
                try run("SELECT * FROM backup_run ORDER BY id DESC LIMIT 1"),
                try run("SELECT * FROM backup_run WHERE error IS NULL ORDER BY id DESC LIMIT 1")
            )
        }
    }
}
