import Foundation
import GRDB

// MARK: - Files kept for column choices

extension ImportStore {
    /// Deletes the kept files of the user's jobs, before their account goes (the jobs go with it).
    func removeFiles(of userID: Int64) async throws {
        let ids = try await db.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM import_job WHERE user_id = ?", arguments: [userID])
        }
        for id in ids { try? FileManager.default.removeItem(at: cleanFile(id)) }
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
