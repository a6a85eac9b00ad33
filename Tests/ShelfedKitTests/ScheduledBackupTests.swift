import Foundation
import Logging
import NIOPosix
import Testing

@testable import ShelfedKit

/// Backups without remembering (issue 26): the server backs itself up on a schedule, verifies each backup by reading
/// it back, prunes to the keep rule, and reports a failure without stopping.
@Suite struct ScheduledBackupTests {
    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    @Test func theSettingsReadAsTheREADMESays() throws {
        #expect(BackupSchedule.parseEvery("daily") == .daily(hour: 3, minute: 30))
        #expect(BackupSchedule.parseEvery("DAILY@23:05") == .daily(hour: 23, minute: 5))
        #expect(BackupSchedule.parseEvery("6h") == .interval(seconds: 21_600))
        #expect(BackupSchedule.parseEvery("90s") == .interval(seconds: 90))
        #expect(BackupSchedule.parseEvery("off") == .off)
        for bad in ["daily@25:00", "weekly", "0m", "h", "-5m", "daily@3"] {
            #expect(BackupSchedule.parseEvery(bad) == nil, "\(bad)")
        }
        #expect(BackupSchedule.parseKeep("7+4") == .dailyAndWeekly(days: 7, weeks: 4))
        #expect(BackupSchedule.parseKeep("3") == .newest(3))
        for bad in ["0", "0+0", "x+1", "7+4+1", ""] { #expect(BackupSchedule.parseKeep(bad) == nil, "\(bad)") }
        #expect(throws: AppConfig.InvalidSetting.self) {
            try AppConfig.fromEnvironment(["SHELFED_BACKUP_EVERY": "sometimes"])
        }
        let config = try AppConfig.fromEnvironment([
            "SHELFED_DATA_DIR": "/srv/shelfed", "SHELFED_BACKUP_KEEP": "2+1", "SHELFED_BACKUP_EVERY": "daily@01:00",
        ])
        #expect(
            config.backupFolder.path == "/srv/shelfed/backups"
                && config.backups.keep == .dailyAndWeekly(days: 2, weeks: 1))
        var schedule = BackupSchedule()
        schedule.every = .daily(hour: 3, minute: 30)
        #expect(
            schedule.nextRun(after: Self.date("2026-11-25T10:00:00Z"), calendar: Self.utc)
                == Self.date("2026-11-26T03:30:00Z"))
        #expect(
            schedule.nextRun(after: Self.date("2026-11-25T01:00:00Z"), calendar: Self.utc)
                == Self.date("2026-11-25T03:30:00Z"))
    }

    @Test func sevenDailyAndFourWeeklyAreKept() {
        // A backup every day for sixty days, and two on the last day.
        let start = Self.date("2026-01-01T03:30:00Z")
        var backups = (0..<60).map { day in
            (name: "day\(day)", date: start.addingTimeInterval(Double(day) * 86_400))
        }
        backups.append((name: "day59-evening", date: start.addingTimeInterval(59 * 86_400 + 12 * 3_600)))
        let kept = BackupSchedule().kept(backups, calendar: Self.utc)
        // The newest of each of the last seven days (the evening one on the last day), and of each of the last four
        // weeks (Sunday to Saturday here): day 59 is a Sunday, alone in its week; the week before ends on day 58,
        // both already kept as days; the two before that end on days 51 and 44.
        let expected = Set((53...58).map { "day\($0)" } + ["day59-evening", "day51", "day44"])
        #expect(kept == expected)
        #expect(!kept.contains("day0") && !kept.contains("day40"))
    }

    /// A data folder with a person and a photo in it.
    private func dataFolder() async throws -> (URL, AppDatabase) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scheduled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("media/1"), withIntermediateDirectories: true)
        try Data("jpeg bytes".utf8).write(to: root.appendingPathComponent("media/1/page.jpg"))
        let database = try AppDatabase(path: root.appendingPathComponent("shelfed.sqlite").path)
        _ = try await UserStore(db: database).create(
            username: "ada", email: "ada@example.com", displayName: "Ada", passwordHash: "x", at: Date())
        return (root, database)
    }

    @Test func backupsAreWrittenVerifiedAndPrunedAndAFailureIsReportedNotThrown() async throws {
        let (root, database) = try await dataFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let clock = TestClock("2026-11-25T03:30:00Z")
        var schedule = BackupSchedule()
        schedule.keep = .newest(2)
        let folder = root.appendingPathComponent("backups")
        let backups = ScheduledBackups(
            schedule: schedule, folder: folder, dataDirectory: root, database: database, clock: clock.appClock,
            logger: Logger(label: "test"), threadPool: .singleton)
        for _ in 0..<3 {
            let run = await backups.runOnce()
            #expect(run.error == nil && run.file != nil && (run.bytes ?? 0) > 0)
            clock.advance(by: 86_400)
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names == ["shelfed-20261126-033000.zip", "shelfed-20261127-033000.zip"])
        let manifest = try Backup.verify(
            archiveAt: folder.appendingPathComponent(names[1]), scratchFolder: root)
        #expect(manifest.counts["user"] == 1 && manifest.files.contains { $0.path == "media/1/page.jpg" })

        // The folder cannot be made (a file is in its place): the run says why, and nothing is thrown.
        let blocked = root.appendingPathComponent("not-a-folder")
        try Data().write(to: blocked)
        let failing = ScheduledBackups(
            schedule: schedule, folder: blocked, dataDirectory: root, database: database, clock: clock.appClock,
            logger: Logger(label: "test"), threadPool: .singleton)
        let failed = await failing.runOnce()
        #expect(failed.file == nil && failed.error?.contains(blocked.path) == true)
        let (last, lastGood) = try await BackupRuns(db: database).latest()
        #expect(last?.error != nil && lastGood?.file == "shelfed-20261127-033000.zip")
    }

    /// A full disk, for real: a 64 KB tmpfs as the backup folder (mounting needs root, as the tests run in CI).
    @Test(.enabled(if: getuid() == 0, "mounting a 64 KB tmpfs as the full disk needs root"))
    func aFullDiskIsReportedLeavesNoPartialFileAndKeepsTheLastGoodBackup() async throws {
        let (root, database) = try await dataFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let clock = TestClock("2026-11-25T03:30:00Z")
        let good = root.appendingPathComponent("good")
        let tiny = root.appendingPathComponent("tiny")
        try FileManager.default.createDirectory(at: tiny, withIntermediateDirectories: true)
        try #require(try Self.mount(["-t", "tmpfs", "-o", "size=64k", "tmpfs", tiny.path]), "mount refused")
        defer { _ = try? Self.mount([tiny.path], command: "/bin/umount") }
        // Bigger than the disk: the database alone is a few pages, the photo 256 KB.
        try Data(repeating: 0xA5, count: 256 * 1024).write(to: root.appendingPathComponent("media/1/large.jpg"))

        let logger = Logger(label: "test")
        let first = await ScheduledBackups(
            schedule: BackupSchedule(), folder: good, dataDirectory: root, database: database, clock: clock.appClock,
            logger: logger, threadPool: .singleton
        ).runOnce()
        #expect(first.error == nil)
        clock.advance(by: 86_400)
        let full = await ScheduledBackups(
            schedule: BackupSchedule(), folder: tiny, dataDirectory: root, database: database, clock: clock.appClock,
            logger: logger, threadPool: .singleton
        ).runOnce()
        #expect(full.file == nil)
        #expect(
            full.error?.contains(tiny.path) == true && full.error?.contains("not enough space") == true,
            "\(full.error ?? "")")
        // Nothing half-written is left on the full disk, and the data folder is as it was.
        #expect(try FileManager.default.contentsOfDirectory(atPath: tiny.path).isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).allSatisfy {
                !$0.hasPrefix(Backup.scratchPrefix)
            })
        let (last, lastGood) = try await BackupRuns(db: database).latest()
        #expect(last?.error != nil && lastGood?.file == first.file)
    }

    private static func mount(_ arguments: [String], command: String = "/bin/mount") throws -> Bool {
        Spawn.run(command, arguments) == 0
    }

    @Test func theServerBacksItselfUpAndTellsTheAdmin() async throws {
        var app = TestApp()
        app.config.backups.every = .interval(seconds: 1)
        let folder = app.config.backupFolder
        try await app.run(live: true) { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            let member = WebSession(client)
            try await member.register("bob")
            // Bounded: the first backup is due a second after start; allow a loaded machine thirty.
            var page = ""
            for _ in 0..<60 {
                page = try await admin.get("/profile/edit").text
                if page.contains("verified") { break }
                try await Task.sleep(for: .milliseconds(500))
            }
            #expect(page.contains("Backups without remembering") && page.contains("verified"))
            #expect(
                (try FileManager.default.contentsOfDirectory(atPath: folder.path)).contains {
                    $0.hasPrefix("shelfed-") && $0.hasSuffix(".zip")
                })
            #expect(!(try await member.get("/profile/edit").text.contains("Backups without remembering")))
        }
    }
}
