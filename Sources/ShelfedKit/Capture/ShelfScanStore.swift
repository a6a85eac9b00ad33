import Foundation
import GRDB

/// All SQL about shelf scans (`shelf_scan`): a scan is queued → running → done or failed, and is always read
/// scoped to its owner.
struct ShelfScanStore: Sendable {
    let db: AppDatabase

    func insertQueued(id: String, userID: Int64, at now: Date) async throws {
        try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO shelf_scan (id, user_id, status, progress, created_at)
                    VALUES (?, ?, 'queued', 'Waiting its turn…', ?)
                    """,
                arguments: [id, userID, now])
        }
    }

    /// The user's scan `id`; nil when it is unknown or someone else's.
    func scan(id: String, of userID: Int64) async throws -> ShelfScanService.Scan? {
        try await db.read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM shelf_scan WHERE id = ? AND user_id = ?", arguments: [id, userID])
            else { return nil }
            let matches = (row["matches"] as String?).flatMap {
                try? JSONDecoder().decode([ShelfScanService.Match].self, from: Data($0.utf8))
            }
            return ShelfScanService.Scan(
                id: row["id"], userID: row["user_id"], status: row["status"], progress: row["progress"],
                matches: matches ?? [], message: row["message"])
        }
    }

    /// Replaces the scan's matches (the review page's entries, once added).
    func recordMatches(_ matches: [ShelfScanService.Match], scanID: String, userID: Int64) async throws {
        let encoded = String(decoding: try JSONEncoder().encode(matches), as: UTF8.self)
        try await db.write { db in
            try db.execute(
                sql: "UPDATE shelf_scan SET matches = ? WHERE id = ? AND user_id = ?",
                arguments: [encoded, scanID, userID])
        }
    }

    /// Scans that were running when the server stopped go back to the queue; returns every queued scan's id.
    func requeueRunning() async throws -> Set<String> {
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE shelf_scan SET status = 'queued', progress = 'Shelfed restarted; reading the shelf again…'
                    WHERE status = 'running'
                    """)
            return try String.fetchSet(db, sql: "SELECT id FROM shelf_scan WHERE status = 'queued'")
        }
    }

    /// Claims the oldest queued scan in the write that finds it, so two loops never take the same one.
    func claimNext() async throws -> String? {
        try await db.write { db in
            try String.fetchOne(
                db,
                sql: """
                    UPDATE shelf_scan SET status = 'running', progress = 'Sending the photo to Gemini…'
                    WHERE id = (SELECT id FROM shelf_scan WHERE status = 'queued' ORDER BY created_at, id LIMIT 1)
                    RETURNING id
                    """)
        }
    }

    func setProgress(_ text: String, of id: String) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE shelf_scan SET progress = ? WHERE id = ?", arguments: [text, id])
        }
    }

    /// Records how a running scan ended: `done` with its matches, or `failed` with a message for its owner.
    func finish(
        _ id: String, status: String, matches: [ShelfScanService.Match]?, message: String?, at now: Date
    ) async throws {
        let encoded = try matches.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE shelf_scan SET status = ?, matches = ?, message = ?, progress = NULL, finished_at = ?
                    WHERE id = ? AND status = 'running'
                    """,
                arguments: [status, encoded, message, now, id])
        }
    }
}
