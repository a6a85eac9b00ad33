import AsyncHTTPClient
import Foundation
import GRDB
import NIOCore

/// `shelfed doctor` and the admin's `/health?detail=1` (issue 26): checks what a household server depends on and,
/// for each problem, says how to fix it. It reads only: the database is opened read-only and never migrated.
public struct Doctor: Sendable {
    public struct Check: Sendable, Encodable, Equatable {
        public enum Status: String, Sendable, Encodable {
            case ok, warning, problem
        }

        public let name: String
        public let status: Status
        public let detail: String
        public let fix: String?

        static func ok(_ name: String, _ detail: String) -> Check {
            Check(name: name, status: .ok, detail: detail, fix: nil)
        }
    }

    let config: AppConfig
    let http: HTTPClient
    /// The server's own memory, when asked from inside it; the command line asks systemd.
    var ownMemory = false
    /// How long a provider has to answer. Five seconds for a person at a terminal; the tests, which run beside
    /// hundreds of others on two cores, give the fake providers longer.
    var providerWait: TimeAmount = .seconds(5)

    public init(config: AppConfig, http: HTTPClient? = nil) {
        self.config = config
        self.http = http ?? OutboundHTTP.client
    }

    /// `/health?detail=1`'s answer.
    struct Report: Encodable {
        let checks: [Check]
    }

    /// Above this the write-ahead log is worth a look: it is folded back into the database at every checkpoint.
    static let largeWAL: Int64 = 64 << 20
    static let minimumFreeBytes: Int64 = 1 << 30

    public func run() async -> [Check] {
        var checks = [dataFolder(), database(), model(), imaging(), textReading()]
        checks.append(await googleBooks())
        checks.append(await openLibrary())
        checks.append(await gemini())
        checks.append(await filmsAndShows())
        if let jellyfin = await jellyfinServer() { checks.append(jellyfin) }
        checks.append(memory())
        checks.append(lastBackup())
        return checks
    }

    /// Non-zero when a check found a problem (warnings are advice).
    public static func exitCode(_ checks: [Check]) -> Int32 {
        checks.contains { $0.status == .problem } ? 1 : 0
    }

    /// One line a check, for the terminal.
    public static func report(_ checks: [Check]) -> String {
        checks.map { check in
            let mark = ["ok": "ok     ", "warning": "WARNING", "problem": "PROBLEM"][check.status.rawValue] ?? ""
            return "\(mark) \(check.name): \(check.detail)" + (check.fix.map { "\n        → \($0)" } ?? "")
        }.joined(separator: "\n")
    }

    // MARK: - The checks

    func dataFolder() -> Check {
        let name = "Data folder"
        let path = config.dataDirectory.path
        let files = FileManager.default
        guard files.fileExists(atPath: path) else {
            return Check(
                name: name, status: .problem, detail: "\(path) does not exist.",
                fix: "Set SHELFED_DATA_DIR to the folder with shelfed.sqlite, or start Shelfed once to create it.")
        }
        guard files.isWritableFile(atPath: path) else {
            return Check(
                name: name, status: .problem, detail: "\(path) is not writable by this user (uid \(getuid())).",
                fix: "Give it to the user Shelfed runs as: sudo chown -R shelfed:shelfed \(path)")
        }
        if let free = BackupStatus.freeSpace(of: config.dataDirectory),
            free.available < Self.minimumFreeBytes || free.available * 20 < free.total
        {
            return Check(
                name: name, status: .warning,
                detail: "\(path): only \(BackupStatus.megabytes(free.available)) free on its disk.",
                fix: "Free some space: photos and backups need room (SHELFED_BACKUP_KEEP keeps fewer backups).")
        }
        let free = BackupStatus.freeSpace(of: config.dataDirectory).map { BackupStatus.megabytes($0.available) }
        return .ok(name, "\(path), writable, \(free ?? "unknown") free")
    }

    func database() -> Check {
        let name = "Database"
        let path = config.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            return Check(
                name: name, status: .warning, detail: "There is no database at \(path) yet.",
                fix: "Start Shelfed once: it creates the database. Or set SHELFED_DATA_DIR to the right folder.")
        }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let (tables, check, pending, superseded) = try queue.read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") ?? 0,
                    try String.fetchAll(db, sql: "PRAGMA quick_check"),
                    try !AppDatabase.migrator.hasCompletedMigrations(db),
                    try AppDatabase.migrator.hasBeenSuperseded(db)
                )
            }
            // An empty file passes SQLite's check: it is a database with nothing in it. Here it means a copy or a
            // restore was cut off, and a start would make a new, empty library over it (issue 35).
            guard tables > 0 else {
                return Check(
                    name: name, status: .problem,
                    detail: "\(path) is empty: it holds no tables, so it has none of the household's books.",
                    fix: "Restore the latest good backup into an empty folder (shelfed restore <file.zip>); only on a "
                        + "new server with nothing to lose, delete the empty file and start Shelfed.")
            }
            guard check == ["ok"] else {
                return Check(
                    name: name, status: .problem,
                    detail: "SQLite's check finds damage: \(check.prefix(2).joined(separator: "; ")).",
                    fix: "Stop Shelfed and restore the latest good backup (shelfed restore <file.zip> into an empty "
                        + "folder); README \"Backups\".")
            }
            if superseded {
                return Check(
                    name: name, status: .problem, detail: "The database is from a newer Shelfed than this one.",
                    fix: "Run the newer Shelfed, or go back as README \"Upgrading and going back\" says.")
            }
            let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int64) ?? 0
            if wal > Self.largeWAL {
                return Check(
                    name: name, status: .warning,
                    detail: "The write-ahead log is \(BackupStatus.megabytes(wal)): something holds a long read open.",
                    fix: "Restart Shelfed (sudo systemctl restart shelfed); it is folded back at the next checkpoint.")
            }
            return .ok(
                name,
                "intact (quick_check), write-ahead log \(BackupStatus.megabytes(wal))"
                    + (pending ? "; the next start applies this version's changes" : ""))
        } catch {
            return Check(
                name: name, status: .problem, detail: "\(path) cannot be read as a database: \(error)",
                fix: "Restore the latest good backup (shelfed restore <file.zip>); README \"Backups\".")
        }
    }

    func model() -> Check {
        let name = "Meaning model"
        guard let folder = config.modelDirectory else {
            return .ok(name, "not configured: search uses keywords")
        }
        let weights = folder.appendingPathComponent("model.safetensors")
        let needed = ["model.safetensors", "tokenizer.json", "config.json"]
        let missing = needed.filter { !FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path) }
        guard missing.isEmpty else {
            return Check(
                name: name, status: .warning,
                detail: "\(folder.path) lacks \(missing.joined(separator: ", ")): search uses keywords only.",
                fix: "Fetch it: bash scripts/fetch-model.sh (make model), or set SHELFED_MODEL_DIR.")
        }
        do {
            try TextEmbedder.verify(weights.path)
            return .ok(name, "\(folder.path), checksum matches")
        } catch {
            return Check(
                name: name, status: .problem, detail: "model.safetensors does not match its recorded checksum.",
                fix: "Fetch it again: rm -r \(folder.path) && bash scripts/fetch-model.sh")
        }
    }

    func imaging() -> Check {
        guard BarcodeReader.isAvailable else {
            return Check(
                name: "Images and barcodes", status: .warning, detail: "zbar is not installed: barcodes are not read.",
                fix: "sudo apt install libzbar0")
        }
        return .ok("Images and barcodes", "libvips and zbar present")
    }

    func textReading() -> Check {
        let name = "Reading photos (OCR)"
        guard let tesseract = TextRecognizer.locate() else {
            return Check(
                name: name, status: .warning, detail: "tesseract is not installed: the words on photos are not read.",
                fix: "sudo apt install tesseract-ocr tesseract-ocr-eng")
        }
        let wanted = config.ocrLanguages.split(separator: "+").map(String.init)
        let installed = Set(Self.output(of: tesseract, ["--list-langs"]).split(separator: "\n").map(String.init))
        let missing = wanted.filter { !installed.contains($0) }
        guard missing.isEmpty else {
            return Check(
                name: name, status: .problem,
                detail: "tesseract lacks the language\(missing.count == 1 ? "" : "s") "
                    + "\(missing.joined(separator: ", ")) that SHELFED_OCR_LANGS asks for.",
                fix: "sudo apt install "
                    + missing.map { "tesseract-ocr-\($0.replacingOccurrences(of: "_", with: "-"))" }
                    .joined(separator: " "))
        }
        return .ok(name, "tesseract with \(wanted.joined(separator: ", "))")
    }

    func memory() -> Check {
        let name = "Memory"
        if ownMemory, let kib = Self.residentKiB() {
            return .ok(name, "\(kib / 1024) MB resident")
        }
        let shown = Self.output(
            of: URL(fileURLWithPath: "/usr/bin/systemctl"), ["show", "shelfed", "--property=MemoryCurrent,ActiveState"])
        let fields = Dictionary(
            shown.split(separator: "\n").compactMap { line -> (String, String)? in
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }, uniquingKeysWith: { first, _ in first })
        guard fields["ActiveState"] == "active", let bytes = fields["MemoryCurrent"].flatMap(Int64.init) else {
            return .ok(name, "no shelfed service running here to measure")
        }
        return .ok(name, "the service uses \(BackupStatus.megabytes(bytes))")
    }

    func lastBackup() -> Check {
        let name = "Backups"
        guard FileManager.default.fileExists(atPath: config.databasePath) else { return .ok(name, "no database yet") }
        var configuration = Configuration()
        configuration.readonly = true
        let lastGood = try? DatabaseQueue(path: config.databasePath, configuration: configuration).read { db in
            try db.tableExists("backup_run")
                ? try Date.fetchOne(
                    db, sql: "SELECT finished_at FROM backup_run WHERE error IS NULL ORDER BY id DESC LIMIT 1")
                : nil
        }
        if config.backups.every == .off {
            return Check(
                name: name, status: .warning, detail: "Scheduled backups are off.",
                fix: "Remove SHELFED_BACKUP_EVERY=off, or run shelfed backup <file.zip> from a timer of your own.")
        }
        guard let lastGood = lastGood ?? nil else {
            return Check(
                name: name, status: .warning, detail: "No scheduled backup has finished yet.",
                fix: "The first runs at the time SHELFED_BACKUP_EVERY sets (03:30 by default); keep Shelfed running.")
        }
        let age = config.clock.now().timeIntervalSince(lastGood)
        guard age <= BackupStatus.staleAfter else {
            return Check(
                name: name, status: .warning,
                detail: "The last good backup is \(Int(age / 86_400)) days old.",
                fix: "Profile → Edit profile shows the last failure; check the backup folder has room.")
        }
        return .ok(name, "the last good one finished \(Int(age / 3_600)) hours ago")
    }

    // MARK: -

    static func output(of program: URL, _ arguments: [String]) -> String {
        guard FileManager.default.isExecutableFile(atPath: program.path) else { return "" }
        let environment = ProcessInfo.processInfo.environment
        return (try? ChildProcess.output(of: program.path, arguments, environment: environment).printed) ?? ""
    }

    static func residentKiB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
}
