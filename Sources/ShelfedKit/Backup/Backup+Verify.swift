import Crypto
import Foundation
import GRDB
import ZIPFoundation

extension Backup {
    /// Reads a written backup back as a restore would — every file against the manifest's size and checksum, the
    /// database through SQLite's integrity check and the manifest's counts — without writing the photos anywhere.
    /// Only the database is unpacked, into a scratch file in `scratchFolder`.
    public static func verify(archiveAt source: URL, scratchFolder: URL) throws -> BackupManifest {
        let archive: Archive
        do {
            archive = try Archive(url: source, accessMode: .read)
        } catch {
            throw Failure.unreadable("\(source.lastPathComponent) cannot be read as a zip.")
        }
        guard let manifestEntry = archive[manifestName] else {
            throw Failure.unreadable("\(source.lastPathComponent) has no manifest.")
        }
        var manifestData = Data()
        _ = try extract(manifestEntry, from: archive, limit: maxManifestBytes) { manifestData.append($0) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(BackupManifest.self, from: manifestData) else {
            throw Failure.unreadable("The manifest of \(source.lastPathComponent) cannot be read.")
        }
        var expected = Dictionary(uniqueKeysWithValues: manifest.files.map { ($0.path, $0) })
        let scratch = scratchFolder.appendingPathComponent(".verify-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for entry in archive where entry.path != manifestName {
            guard let listed = expected.removeValue(forKey: entry.path) else {
                throw Failure.mismatch("\(entry.path.prefix(200)) is in the backup but not in its manifest.")
            }
            let found: BackupManifest.File
            if entry.path == databaseName {
                found = try write(
                    entry, from: archive, to: scratch.appendingPathComponent(databaseName), listed: listed)
            } else {
                var hasher = SHA256()
                let bytes = try extract(entry, from: archive, limit: listed.bytes) { hasher.update(data: $0) }
                found = BackupManifest.File(path: entry.path, bytes: bytes, sha256: hex(hasher.finalize()))
            }
            guard found == listed else {
                throw Failure.mismatch("\(entry.path.prefix(200)) does not match its checksum.")
            }
        }
        if let missing = expected.keys.sorted().first {
            throw Failure.mismatch("The backup is missing \(missing), which its manifest lists.")
        }
        try verify(DatabaseQueue(path: scratch.appendingPathComponent(databaseName).path), against: manifest)
        return manifest
    }
}
