import Foundation
import Testing
import ZIPFoundation

@testable import ShelfedKit

/// A restore writes no more than the manifest promises, and never opens a database beside a stale WAL (issue 20).
extension BackupTests {
    /// A backup of a library made for the test, and its manifest.
    func backedUpLibrary() async throws -> (URL, BackupManifest) {
        let live = root.appendingPathComponent("live")
        _ = try await makeLibrary(in: live)
        let zip = root.appendingPathComponent("backup.zip")
        return (zip, try Backup.create(dataDirectory: live, to: zip))
    }

    /// Rewrites `zip` so that `path` holds `inflated` zero bytes, deflated, while the zip's directory and the
    /// manifest both say it holds 10: a small file that would write far more than it claims.
    func understated(_ zip: URL, into destination: URL, path: String, inflated: Int) throws {
        let original = try Archive(url: zip, accessMode: .read)
        let copy = try Archive(url: destination, accessMode: .create)
        for entry in original {
            var bytes = Data()
            _ = try original.extract(entry, consumer: { bytes.append($0) })
            if entry.path == Backup.manifestName {
                var manifest = try JSONSerialization.jsonObject(with: bytes) as! [String: Any]
                manifest["files"] = (manifest["files"] as! [[String: Any]]).map { file in
                    var file = file
                    if file["path"] as? String == path { file["bytes"] = 10 }
                    return file
                }
                bytes = try JSONSerialization.data(withJSONObject: manifest)
            }
            if entry.path == path { bytes = Data(count: inflated) }
            try copy.addEntry(
                with: entry.path, type: .file, uncompressedSize: Int64(bytes.count),
                compressionMethod: entry.path == path ? .deflate : .none,
                provider: { position, size in bytes.subdata(in: Int(position)..<Int(position) + size) })
        }
        // The sizes written for `path`: in its local header (22) and its central directory record (24).
        var data = try Data(contentsOf: destination)
        let name = Data(path.utf8)
        for (signature, sizeOffset, nameOffset) in [
            (Data([0x50, 0x4B, 0x03, 0x04]), 22, 30), (Data([0x50, 0x4B, 0x01, 0x02]), 24, 46),
        ] {
            var start = data.startIndex
            while let found = data.range(of: signature, in: start..<data.endIndex) {
                let record = found.lowerBound
                if data.count > record + nameOffset + name.count,
                    data[(record + nameOffset)..<(record + nameOffset + name.count)] == name
                {
                    data.replaceSubrange((record + sizeOffset)..<(record + sizeOffset + 4), with: [10, 0, 0, 0])
                }
                start = found.upperBound
            }
        }
        try data.write(to: destination)
    }

    @Test func anEntryLargerThanItsManifestSaysIsRefusedWhileItIsWritten() async throws {
        // setup
        let (zip, _) = try await backedUpLibrary()
        let bomb = root.appendingPathComponent("bomb.zip")
        try understated(zip, into: bomb, path: "media/1/original.jpg", inflated: 64 << 20)
        let size = try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as! Int
        #expect(size < 2 << 20)
        // act
        let target = root.appendingPathComponent("target/data")
        do {
            try Backup.restore(from: bomb, into: target)
            Issue.record("an understated entry was restored")
        } catch let failure as Backup.Failure {
            // validate
            #expect(failure.description.contains("larger than its manifest says"), "\(failure)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)
    }

    @Test(arguments: ["shelfed.sqlite-wal", "shelfed.sqlite-shm"])
    func aStaleWriteAheadLogIsRefusedBeforeAnythingIsRestored(name: String) async throws {
        let (zip, _) = try await backedUpLibrary()
        let target = root.appendingPathComponent("stale")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try Data(repeating: 1, count: 4_096).write(to: target.appendingPathComponent(name))
        #expect {
            try Backup.restore(from: zip, into: target)
        } throws: { error in
            (error as? Backup.Failure).map { $0.description.contains("already holds \(name)") } == true
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: target.path) == [name])
    }

    @Test func aRestoredDatabaseIsCheckedWhereTheServerOpensIt() async throws {
        let (zip, manifest) = try await backedUpLibrary()
        let target = root.appendingPathComponent("fresh")
        try Backup.restore(from: zip, into: target)
        let reopened = try AppDatabase(path: target.appendingPathComponent(Backup.databaseName).path)
        let counts = try await reopened.read { db in try Backup.tableCounts(db) }
        #expect(counts == manifest.counts)
        let names = try FileManager.default.contentsOfDirectory(atPath: target.path)
        #expect(!names.contains { $0.hasPrefix(".restore-") })
    }
}
