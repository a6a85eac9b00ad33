import Foundation

/// How the server's own backups stand, for the admin's settings page (issue 26): the last good one, the last
/// failure if it came after, when the next is due, and a warning when the last good one is more than two days old
/// or the backup folder's disk is nearly full.
struct BackupStatus: Sendable {
    let schedule: BackupSchedule
    let folder: URL
    let runs: BackupRuns
    let clock: AppClock
    /// The library's own folder: backups on the same disk are lost with it.
    var dataDirectory: URL? = nil

    /// Older than this, the last good backup earns a warning.
    static let staleAfter: TimeInterval = 2 * 24 * 3_600

    struct Section: Sendable {
        let isOff: Bool
        let folder: String
        let lastGood: String?
        let lastError: String?
        let next: String?
        let warnings: [String]
        let hasWarnings: Bool
    }

    func section() async throws -> Section {
        let (last, lastGood) = try await runs.latest()
        let now = clock.now()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        let isOff = schedule.every == .off
        var warnings: [String] = []
        if isOff {
            warnings.append(
                localized(
                    "Scheduled backups are off (SHELFED_BACKUP_EVERY=off). Download a backup below now and then."))
        } else if let lastGood, now.timeIntervalSince(lastGood.finishedAt) > Self.staleAfter {
            let stale = localized(
                "The last good backup is from {{day}}: more than two days ago.",
                ["day": describe(lastGood.finishedAt)])
            warnings.append(stale + " " + localized("See the last failure below, or the server's log."))
        }
        if let free = Self.freeSpace(of: folder) {
            let needed = Int64(lastGood?.bytes ?? 0) * 2
            if free.available < needed || free.available * 20 < free.total {
                let space =
                    needed > 0
                    ? localized(
                        "The disk that holds the backups has {{free}} free, and a backup takes about {{needed}}.",
                        ["free": Self.megabytes(free.available), "needed": Self.megabytes(needed / 2)])
                    : localized(
                        "The disk that holds the backups has {{free}} free.", ["free": Self.megabytes(free.available)])
                warnings.append(
                    space + " " + localized("Free some space, or keep fewer backups with SHELFED_BACKUP_KEEP."))
            }
        }
        if let dataDirectory, Self.onSameDisk(folder, dataDirectory) {
            let sameDisk = localized(
                "The backups are on the same disk as the library ({{folder}}): a failing disk or SD card takes both.",
                ["folder": dataDirectory.path])
            let advice = localized(
                "Set SHELFED_BACKUP_DIR to a folder on another disk, such as a USB stick, and restart Shelfed.")
            warnings.append(sameDisk + " " + advice)
        }
        let lastError = last.flatMap { $0.error == nil ? nil : "\(describe($0.finishedAt)): \($0.error ?? "")" }
        return Section(
            isOff: isOff, folder: folder.path,
            lastGood: lastGood.map { run in
                let size = Self.megabytes(Int64(run.bytes ?? 0))
                return localized(
                    "{{day}} — {{file}}, {{size}}, verified",
                    ["day": describe(run.finishedAt), "file": run.file ?? "", "size": size])
            },
            lastError: lastError,
            next: schedule.nextRun(after: now, calendar: calendar).map(describe),
            warnings: warnings, hasWarnings: !warnings.isEmpty)
    }

    private func describe(_ date: Date) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened)
        style.timeZone = clock.timeZone
        // English keeps the server's own way of writing dates; the other languages write them their way.
        if Language.current != .en { style.locale = Language.current.locale }
        return date.formatted(style)
    }

    static func megabytes(_ bytes: Int64) -> String {
        bytes < 1_048_576 ? "\(max(1, bytes / 1_024)) KB" : "\((bytes / 1_048_576).formatted()) MB"
    }

    /// Whether two folders (or their nearest existing parents) are on one file system.
    static func onSameDisk(_ first: URL, _ second: URL) -> Bool {
        func device(_ folder: URL) -> UInt64? {
            var probe = folder
            while !FileManager.default.fileExists(atPath: probe.path), probe.path != "/" {
                probe.deleteLastPathComponent()
            }
            return ((try? FileManager.default.attributesOfItem(atPath: probe.path))?[.systemNumber] as? NSNumber)?
                .uint64Value
        }
        guard let a = device(first), let b = device(second) else { return false }
        return a == b
    }

    /// Bytes free and in all on the disk that holds `folder` (or its nearest existing parent).
    static func freeSpace(of folder: URL) -> (available: Int64, total: Int64)? {
        var probe = folder
        while !FileManager.default.fileExists(atPath: probe.path), probe.path != "/" {
            probe.deleteLastPathComponent()
        }
        guard let attributes = try? FileManager.default.attributesOfFileSystem(forPath: probe.path),
            let free = (attributes[.systemFreeSize] as? NSNumber)?.int64Value,
            let total = (attributes[.systemSize] as? NSNumber)?.int64Value
        else { return nil }
        return (free, total)
    }
}
