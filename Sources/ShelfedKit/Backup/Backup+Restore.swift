import Crypto
import Foundation
import GRDB
import ZIPFoundation

/// What a restore checks while it writes: sizes against the manifest, checksums, the database.
extension Backup {
    /// The most a manifest may hold (a 100,000-photo backup's is about 20 MB).
    static let maxManifestBytes: Int64 = 64 << 20

    /// Reads an entry through `consumer`, refusing it as soon as it gives more than `limit` bytes — whatever size the
    /// zip's directory claims, so a tiny zip cannot write gigabytes.
    static func extract(
        _ entry: Entry, from archive: Archive, limit: Int64, consumer: (Data) throws -> Void
    ) throws -> Int64 {
        var written: Int64 = 0
        guard entry.uncompressedSize <= limit else { throw tooLarge(entry) }
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                written += Int64(chunk.count)
                guard written <= limit else { throw Failure.mismatch("") }
                try consumer(chunk)
            }
        } catch Failure.mismatch("") {
            throw tooLarge(entry)
        }
        return written
    }

    static func tooLarge(_ entry: Entry) -> Failure {
        .mismatch("\(entry.path.prefix(200)) in the backup is larger than its manifest says: the file is damaged.")
    }

    /// Writes an entry to `target`, no more bytes than the manifest lists, and describes what was written.
    static func write(_ entry: Entry, from archive: Archive, to target: URL, listed: BackupManifest.File)
        throws -> BackupManifest.File
    {
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: target.path, contents: nil) else {
            throw Failure.unreadable("\(target.path) cannot be written.")
        }
        let handle = try FileHandle(forWritingTo: target)
        defer { try? handle.close() }
        var hasher = SHA256()
        let bytes = try extract(entry, from: archive, limit: listed.bytes) { chunk in
            hasher.update(data: chunk)
            try handle.write(contentsOf: chunk)
        }
        return BackupManifest.File(path: entry.path, bytes: bytes, sha256: hex(hasher.finalize()))
    }

    /// SQLite's integrity check and the manifest's counts, on the database at hand.
    static func verify(_ database: some DatabaseWriter, against manifest: BackupManifest) throws {
        let (integrity, counts) = try database.read { db in
            (try String.fetchAll(db, sql: "PRAGMA integrity_check"), try tableCounts(db))
        }
        try database.close()
        guard integrity == ["ok"] else {
            throw Failure.mismatch("The database in the backup fails SQLite's integrity check: \(integrity.prefix(3)).")
        }
        guard counts == manifest.counts else {
            throw Failure.mismatch("The database's rows do not match the manifest's counts.")
        }
    }
}
