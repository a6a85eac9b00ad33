import ArgumentParser
import Foundation
import ShelfedKit

struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write a full backup (database, photos, covers, manifest) to a zip file. Safe while the server runs.")

    @Argument(help: "The zip file to write, e.g. shelfed-backup.zip.")
    var file: String

    func run() throws {
        let config = try AppConfig.fromEnvironment()
        let destination = URL(fileURLWithPath: file)
        guard FileManager.default.fileExists(atPath: config.databasePath) else {
            throw ValidationError("There is no Shelfed database at \(config.databasePath). Set SHELFED_DATA_DIR.")
        }
        if let problem = config.backupPlaceProblem(destination.deletingLastPathComponent()) {
            throw ValidationError("Write the backup to \(problem).")
        }
        let manifest = try Backup.create(dataDirectory: config.dataDirectory, to: destination)
        let bytes = manifest.files.reduce(Int64(0)) { $0 + $1.bytes }
        print(
            "Wrote \(destination.path): \(manifest.summary), \(count(manifest.files.count, "file")) "
                + "(\(bytes / 1_048_576) MB before compression).")
    }
}

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract:
            "Restore a backup zip into an empty data folder (SHELFED_DATA_DIR), verified before it is put in place.")

    @Argument(help: "The backup zip written by `shelfed backup` or downloaded from the profile settings.")
    var file: String

    func run() throws {
        let config = try AppConfig.fromEnvironment()
        do {
            let manifest = try Backup.restore(from: URL(fileURLWithPath: file), into: config.dataDirectory)
            print(
                "Restored into \(config.dataDirectory.path) and verified (integrity check, row counts, "
                    + "\(count(manifest.files.count, "file checksum"))): \(manifest.summary).")
        } catch let failure as Backup.Failure {
            throw ValidationError(failure.description)
        }
    }
}

/// "1 account", "2 accounts".
func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}

extension BackupManifest {
    var summary: String {
        [
            count(counts["user"] ?? 0, "account"), count(counts["user_book"] ?? 0, "book") + " on shelves",
            count(counts["photo"] ?? 0, "photo"),
        ].joined(separator: ", ")
    }
}
