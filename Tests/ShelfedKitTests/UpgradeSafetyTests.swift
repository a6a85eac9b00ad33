import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Upgrades without fear (issue 26): the database is copied aside before a migration, and a database from a newer
/// Shelfed is refused with a message saying what to run.
@Suite struct UpgradeSafetyTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("upgrade-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func copies(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasPrefix("pre-migration-")
        }.sorted()
    }

    @Test func aDatabaseFromAnOlderVersionIsCopiedBeforeItIsMigrated() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("shelfed.sqlite").path
        let backups = root.appendingPathComponent("backups")
        // A database as the version before the house challenge left it, with a person in it.
        let old = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "v26 shared by choice")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (username, email, display_name, password_hash, created_at)
                    VALUES ('ada', 'ada@example.com', 'Ada', 'x', '2026-01-01')
                    """)
        }
        try old.close()

        let now = ISO8601DateFormatter().date(from: "2026-11-25T03:30:00Z")!
        let database = try AppDatabase(path: path, backupFolder: backups, now: now)
        #expect(try database.appliedMigrations().last == AppDatabase.migrator.migrations.last)
        #expect(copies(in: backups) == ["pre-migration-v26-shared-by-choice-20261125-033000.sqlite"])
        let copy = try DatabaseQueue(path: backups.appendingPathComponent(copies(in: backups)[0]).path)
        let (lastInCopy, people) = try copy.read { db in
            (
                try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user")
            )
        }
        #expect(lastInCopy == "v26 shared by choice" && people == 1)
        try copy.close()

        // Opened again, up to date: nothing more is copied. A new database has nothing to copy either.
        _ = try AppDatabase(path: path, backupFolder: backups, now: now.addingTimeInterval(60))
        #expect(copies(in: backups).count == 1)
        let fresh = root.appendingPathComponent("fresh.sqlite").path
        _ = try AppDatabase(path: fresh, backupFolder: root.appendingPathComponent("fresh-backups"), now: now)
        #expect(copies(in: root.appendingPathComponent("fresh-backups")).isEmpty)
    }

    @Test func onlyTheNewestPreMigrationCopiesAreKept() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let pool = try DatabasePool(path: root.appendingPathComponent("shelfed.sqlite").path)
        try AppDatabase.migrator.migrate(pool)
        let backups = root.appendingPathComponent("backups")
        let start = ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z")!
        for day in 0..<7 {
            try AppDatabase.copyBeforeMigrating(
                pool, from: "v\(day)", to: backups, now: start.addingTimeInterval(Double(day) * 86_400))
        }
        #expect(copies(in: backups).count == AppDatabase.preMigrationCopiesKept)
        #expect(copies(in: backups).first?.contains("20260103") == true)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedWithWhatToRun() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let path = root.appendingPathComponent("shelfed.sqlite").path
        _ = try AppDatabase(path: path)
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99 from the future')")
        }
        try pool.close()
        #expect {
            try AppDatabase(path: path, backupFolder: root.appendingPathComponent("backups"))
        } throws: { error in
            let text = String(describing: error)
            return error is AppDatabase.NewerDatabase && text.contains("v99 from the future")
                && text.contains(AppDatabase.migrator.migrations.last!) && text.contains("Upgrading and going back")
        }
        // Nothing was copied or changed for a database this version cannot read.
        #expect(copies(in: root.appendingPathComponent("backups")).isEmpty)
    }
}
