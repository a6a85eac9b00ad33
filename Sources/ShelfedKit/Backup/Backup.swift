import Crypto
import Foundation
import GRDB
import ZIPFoundation

/// What a backup holds, written into it as `manifest.json`: counts of the main tables and every file's size and
/// SHA-256, so a restore can prove it put back exactly what was saved.
public struct BackupManifest: Codable, Sendable, Equatable {
    public struct File: Codable, Sendable, Equatable {
        public let path: String
        public let bytes: Int64
        public let sha256: String
    }

    public var format = 1
    public var createdAt: Date
    public var lastMigration: String
    public var counts: [String: Int]
    public var files: [File]
}

/// Full backups: a consistent SQLite snapshot taken while the server keeps serving, the media and covers, and a
/// manifest, in one zip (ZIPFoundation); and a restore into an empty data folder that checks everything first.
public enum Backup {
    public static let databaseName = "shelfed.sqlite"
    static let manifestName = "manifest.json"
    /// Scratch files (snapshots, zips being downloaded) live in the data folder under this prefix: on the same disk
    /// as the data, never in `/tmp`, which is memory on many systems and too small for gigabytes of photos.
    static let scratchPrefix = ".backup-"
    /// The tables a manifest counts; a restore compares each.
    static let countedTables = [
        "user", "book", "user_book", "photo", "read_through", "list", "list_item", "api_token", "import_job",
    ]

    public enum Failure: Error, CustomStringConvertible, Equatable {
        case notEmpty(String)
        case unreadable(String)
        case mismatch(String)

        public var description: String {
            switch self {
            case .notEmpty(let text), .unreadable(let text), .mismatch(let text): text
            }
        }
    }

    /// Writes a backup of `dataDirectory` to `destination`. The zip is written beside it under a temporary name and
    /// renamed at the end, so a failed backup never leaves a half-written file under the name asked for.
    /// `database` is the server's own connection pool when the backup is taken from a page; the command line opens
    /// the file itself.
    @discardableResult
    public static func create(
        dataDirectory: URL, to destination: URL, database: (any DatabaseReader)? = nil, now: Date = Date()
    ) throws -> BackupManifest {
        let fileManager = FileManager.default
        let scratch = scratchURL(in: dataDirectory)
        try fileManager.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: scratch) }

        // SQLite's online backup reads one consistent state, whatever the server writes meanwhile.
        let snapshot = scratch.appendingPathComponent(databaseName)
        let copy = try DatabaseQueue(path: snapshot.path)
        if let database {
            try database.backup(to: copy)
        } else {
            let live = try DatabasePool(path: dataDirectory.appendingPathComponent(databaseName).path)
            try live.backup(to: copy)
            try live.close()
        }
        let (counts, lastMigration) = try copy.read { db in
            (
                try tableCounts(db),
                try String.fetchOne(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid DESC LIMIT 1") ?? ""
            )
        }
        try copy.close()

        let partial = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).partial-\(UUID().uuidString)")
        defer { try? fileManager.removeItem(at: partial) }
        let archive = try Archive(url: partial, accessMode: .create)
        var files: [BackupManifest.File] = []
        func add(_ file: URL, as path: String) throws {
            files.append(try describe(file, as: path))
            try archive.addEntry(
                with: path, fileURL: file, compressionMethod: path.hasSuffix(".sqlite") ? .deflate : .none)
        }
        try add(snapshot, as: databaseName)
        for folder in ["media", "covers"] {
            for (file, path) in try regularFiles(under: dataDirectory.appendingPathComponent(folder), prefix: folder) {
                // A photo deleted while the backup runs is skipped rather than failing the whole backup.
                guard fileManager.fileExists(atPath: file.path) else { continue }
                try add(file, as: path)
            }
        }
        let manifest = BackupManifest(createdAt: now, lastMigration: lastMigration, counts: counts, files: files)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let manifestData = try encoder.encode(manifest)
        try archive.addEntry(
            with: manifestName, type: .file, uncompressedSize: Int64(manifestData.count),
            provider: { position, size in manifestData.subdata(in: Int(position)..<Int(position) + size) })
        if fileManager.fileExists(atPath: destination.path) { try fileManager.removeItem(at: destination) }
        try fileManager.moveItem(at: partial, to: destination)
        return manifest
    }

    /// Restores a backup into `dataDirectory`, which must hold no database yet. Every file is checked against the
    /// manifest and the database's integrity and counts are verified before anything is moved into place; on any
    /// failure the data folder is left as it was.
    @discardableResult
    public static func restore(from source: URL, into dataDirectory: URL) throws -> BackupManifest {
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        // A `-wal` or `-shm` left by an earlier database would be read into the restored one when it is opened.
        for name in [databaseName, databaseName + "-wal", databaseName + "-shm", "media", "covers"]
        where fileManager.fileExists(atPath: dataDirectory.appendingPathComponent(name).path) {
            throw Failure.notEmpty(
                "\(dataDirectory.path) already holds \(name). Restore into an empty data folder (or move that aside).")
        }
        let archive: Archive
        do {
            archive = try Archive(url: source, accessMode: .read)
        } catch {
            throw Failure.unreadable("\(source.path) is not a Shelfed backup (it cannot be read as a zip).")
        }
        guard let manifestEntry = archive[manifestName] else {
            throw Failure.unreadable("\(source.path) has no manifest.json: it is not a Shelfed backup.")
        }
        var manifestData = Data()
        _ = try extract(manifestEntry, from: archive, limit: maxManifestBytes) { manifestData.append($0) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(BackupManifest.self, from: manifestData), manifest.format == 1 else {
            throw Failure.unreadable("The backup's manifest cannot be read.")
        }

        let staging = dataDirectory.appendingPathComponent(".restore-\(UUID().uuidString)")
        try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: staging) }
        var expected = Dictionary(uniqueKeysWithValues: manifest.files.map { ($0.path, $0) })
        for entry in archive where entry.path != manifestName {
            guard entry.type == .file, let listed = expected.removeValue(forKey: entry.path),
                let target = safeURL(for: entry.path, under: staging)
            else {
                throw Failure.mismatch("The backup holds \(entry.path.prefix(200)), which its manifest does not list.")
            }
            let found = try write(entry, from: archive, to: target, listed: listed)
            guard found == listed else {
                throw Failure.mismatch("\(entry.path) in the backup does not match its checksum: the file is damaged.")
            }
        }
        if let missing = expected.keys.sorted().first {
            throw Failure.mismatch("The backup is missing \(missing), which its manifest lists.")
        }
        try verify(DatabaseQueue(path: staging.appendingPathComponent(databaseName).path), against: manifest)
        var placed: [String] = []
        do {
            for name in [databaseName, "media", "covers"] {
                let staged = staging.appendingPathComponent(name)
                if fileManager.fileExists(atPath: staged.path) {
                    try fileManager.moveItem(at: staged, to: dataDirectory.appendingPathComponent(name))
                    placed.append(name)
                }
            }
            // Checked again where the server will open it: whatever sits beside it there is read with it.
            try verify(DatabaseQueue(path: dataDirectory.appendingPathComponent(databaseName).path), against: manifest)
        } catch {
            for name in placed { try? fileManager.removeItem(at: dataDirectory.appendingPathComponent(name)) }
            for suffix in ["-wal", "-shm"] {
                try? fileManager.removeItem(at: dataDirectory.appendingPathComponent(databaseName + suffix))
            }
            throw error
        }
        return manifest
    }

    // MARK: -

    /// A new scratch path in the data folder.
    static func scratchURL(in dataDirectory: URL, suffix: String = "") -> URL {
        dataDirectory.appendingPathComponent(scratchPrefix + UUID().uuidString + suffix)
    }

    /// Deletes scratch files a backup or download left when the server stopped in the middle of it.
    public static func removeLeftovers(in dataDirectory: URL) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        for name in names where name.hasPrefix(scratchPrefix) {
            try? FileManager.default.removeItem(at: dataDirectory.appendingPathComponent(name))
        }
    }

    static func tableCounts(_ db: Database) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for table in countedTables where try db.tableExists(table) {
            counts[table] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \"\(table)\"") ?? 0
        }
        return counts
    }

    /// Size and SHA-256 of a file, read in chunks (photos are up to 25 MB).
    static func describe(_ file: URL, as path: String) throws -> BackupManifest.File {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        var bytes: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            bytes += Int64(chunk.count)
        }
        return BackupManifest.File(path: path, bytes: bytes, sha256: hex(hasher.finalize()))
    }

    static func hex(_ digest: SHA256.Digest) -> String {
        digest.map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Every regular file under `folder` (uploads in progress excluded), with its path in the zip.
    static func regularFiles(under folder: URL, prefix: String) throws -> [(URL, String)] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [(URL, String)] = []
        let base = folder.standardizedFileURL.path
        for case let file as URL in walker {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = file.standardizedFileURL.path.dropFirst(base.count).drop { $0 == "/" }
            files.append((file, prefix + "/" + relative))
        }
        return files.sorted { $0.1 < $1.1 }
    }

    /// Where an entry goes, or nil for a path that would leave the folder (`..`, absolute, empty segments).
    static func safeURL(for path: String, under folder: URL) -> URL? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !segments.isEmpty,
            segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\\") }),
            path == databaseName || segments.first == "media" || segments.first == "covers"
        else { return nil }
        return segments.reduce(folder) { $0.appendingPathComponent(String($1)) }
    }
}
