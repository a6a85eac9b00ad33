import Foundation
import GRDB

extension HouseholdSharing {
    /// A member as another may see them: only themself and those who share.
    struct VisibleMember: Sendable, Equatable {
        let id: Int64
        let displayName: String
        let isAdmin: Bool
        let shares: Bool
    }

    func visibleMembers(for viewer: Int64) async throws -> [VisibleMember] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, display_name, role, shares_reading FROM user
                    WHERE id = ? OR shares_reading = 1 ORDER BY id != ?, display_name COLLATE NOCASE, id
                    """, arguments: [viewer, viewer]
            ).map { row in
                VisibleMember(
                    id: row["id"], displayName: row["display_name"], isAdmin: row["role"] == "admin",
                    shares: row["shares_reading"])
            }
        }
    }
}
