import Foundation
import GRDB

// MARK: - Files kept for column choices

extension ImportStore {
    /// The kept files of the user's jobs, read before their account goes (the jobs go with it).
    func files(of userID: Int64) async throws -> [URL] {
        try await db.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM import_job WHERE user_id = ?", arguments: [userID])
        }.map(cleanFile)
    }

    /// Removes files listed by `files(of:)` once the account they belonged to is gone.
    func remove(_ files: [URL]) {
        for file in files { try? FileManager.default.removeItem(at: file) }
    }

    /// At start, before any upload: deletes every kept file but those of jobs still waiting for column choices —
    /// files of jobs cancelled, failed, deleted with an account, or cut off while their rows were read. Returns
    /// the names removed.
    func removeFilesOfEndedJobs() throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        guard !names.isEmpty else { return [] }
        let waiting = Set(
            try db.writer.read { db in
                try String.fetchAll(db, sql: "SELECT id FROM import_job WHERE status = 'mapping'")
            }.map { cleanFile($0).lastPathComponent })
        var removed: [String] = []
        for name in names where !waiting.contains(name) {
            if (try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))) != nil {
                removed.append(name)
            }
        }
        return removed
    }
}
