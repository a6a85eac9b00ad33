import Foundation
import GRDB

extension AppDatabase {
    /// The database was last migrated by a newer Shelfed: this one does not know some of its changes, and running
    /// would risk writing rows the newer schema does not expect (issue 26).
    public struct NewerDatabase: Error, CustomStringConvertible {
        public let path: String
        /// The changes this binary does not know, newest last.
        public let unknown: [String]
        public let newestKnown: String

        public var description: String {
            let newest = unknown.last ?? ""
            return "The database \(path) was last opened by a newer Shelfed: it has "
                + (unknown.count == 1 ? "a change" : "changes")
                + " this version does not know (\(unknown.joined(separator: ", "))); this one knows up to "
                + "\"\(newestKnown)\". Run the newer Shelfed again (the one with the change \"\(newest)\": "
                + "`git log -S '\(newest)'` in its source finds it), or, to go back to this version, restore the copy "
                + "taken before the upgrade (README: \"Upgrading and going back\")."
        }
    }

    /// Pre-migration copies kept; older ones are removed after a new one is written.
    static let preMigrationCopiesKept = 5

    /// The copy taken before an upgrade could not be written: nothing was migrated, and the message says where and
    /// what to do. SQLite's own words for a full disk during its online backup were "SQLite error 13: not an error".
    public struct CopyBeforeUpgradeFailed: Error, CustomStringConvertible {
        public let folder: String
        public let reason: String

        public var description: String {
            "Shelfed keeps a copy of the database before upgrading it, and could not write one to \(folder): "
                + "\(reason). Nothing was changed, and the previous Shelfed still runs on this database. Free some "
                + "space there (older backups can go), or set SHELFED_BACKUP_DIR to a folder with room, then start "
                + "Shelfed again."
        }
    }

    /// Refuses a database from a newer Shelfed, and copies the database aside before migrating one from an older
    /// version (issue 26). Only the database is copied: migrations never touch photos or covers, and a copy of the
    /// database alone takes seconds where a full backup of a photo library could take minutes at every upgrade.
    static func prepareForMigration(_ pool: DatabasePool, path: String, backupFolder: URL?, now: Date) throws {
        let (superseded, applied, complete) = try pool.read { db in
            (
                try migrator.hasBeenSuperseded(db), try migrator.appliedIdentifiers(db),
                try migrator.hasCompletedMigrations(db)
            )
        }
        let known = migrator.migrations
        if superseded {
            let unknown = try pool.read { db in
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
            }.filter { !known.contains($0) }
            throw NewerDatabase(path: path, unknown: unknown, newestKnown: known.last ?? "")
        }
        // A new database has nothing to lose; an up-to-date one is not migrated.
        guard !complete, !applied.isEmpty, let backupFolder else { return }
        let lastApplied = known.last(where: applied.contains) ?? "unknown"
        do {
            try copyBeforeMigrating(pool, from: lastApplied, to: backupFolder, now: now)
        } catch {
            throw CopyBeforeUpgradeFailed(folder: backupFolder.path, reason: Self.reason(error, in: backupFolder))
        }
    }

    /// A full disk named as such, whichever layer noticed it first.
    static func reason(_ error: any Error, in folder: URL) -> String {
        let sqliteFull = (error as? DatabaseError)?.resultCode == .SQLITE_FULL
        let posixFull = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ENOSPC)
        let cocoaFull =
            (error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == NSFileWriteOutOfSpaceError
        if sqliteFull || posixFull || cocoaFull {
            let free =
                BackupStatus.freeSpace(of: folder).map { " (\(BackupStatus.megabytes($0.available)) free)" } ?? ""
            return "the disk is full\(free)"
        }
        if let failure = error as? Backup.Failure { return failure.description }
        return String("\(error)".prefix(300))
    }

    /// `pre-migration-<last applied change>-<time>.sqlite` in `folder`: SQLite's online backup into a file under a
    /// temporary name, checked with `quick_check`, then renamed, so a name in the folder is always a whole copy.
    static func copyBeforeMigrating(_ pool: DatabasePool, from lastApplied: String, to folder: URL, now: Date) throws {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = BackupSchedule.fileStamp(now)
        let safeName = String(lastApplied.map { $0.isLetter || $0.isNumber ? $0 : "-" })
        let target = folder.appendingPathComponent("pre-migration-\(safeName)-\(stamp).sqlite")
        let partial = folder.appendingPathComponent(".\(target.lastPathComponent).partial")
        try? fileManager.removeItem(at: partial)
        defer { try? fileManager.removeItem(at: partial) }
        let copy = try DatabaseQueue(path: partial.path)
        try pool.backup(to: copy)
        let check = try copy.read { db in try String.fetchOne(db, sql: "PRAGMA quick_check") }
        try copy.close()
        guard check == "ok" else {
            throw Backup.Failure.unreadable(
                "The copy taken before migrating failed its check (\(check ?? "no answer")).")
        }
        try fileManager.moveItem(at: partial, to: target)
        let copies = try fileManager.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("pre-migration-") && $0.hasSuffix(".sqlite") }.sorted()
        for old in copies.dropLast(preMigrationCopiesKept) {
            try? fileManager.removeItem(at: folder.appendingPathComponent(old))
        }
    }
}
