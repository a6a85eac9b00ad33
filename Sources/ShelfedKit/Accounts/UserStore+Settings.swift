import Foundation
import GRDB

extension UserStore {
    /// Changes display name and email; a taken email (any letter case) throws `Conflict.email`.
    public func updateProfile(id: Int64, displayName: String, email: String) async throws {
        try await db.write { db in
            if try User.filter(sql: "email = ? AND id != ?", arguments: [email, id]).fetchCount(db) > 0 {
                throw Conflict.email
            }
            try db.execute(
                sql: "UPDATE user SET display_name = ?, email = ? WHERE id = ?", arguments: [displayName, email, id])
        }
    }

    /// Stores a new password hash, ends every session of the user except `keepingSession` and revokes their API keys.
    public func updatePassword(id: Int64, hash: String, keepingSession sessionKey: String?) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE user SET password_hash = ? WHERE id = ?", arguments: [hash, id])
            try db.execute(
                sql: """
                    DELETE FROM session WHERE json_extract(CAST(value AS TEXT), '$.userID') = ? AND key IS NOT ?
                    """, arguments: [id, sessionKey])
            // Every device key goes with the old password: a lost phone's key stops working with the change.
            try db.execute(sql: "DELETE FROM api_token WHERE user_id = ?", arguments: [id])
        }
    }

    /// The person's language; nil follows their browser.
    public func setLanguage(id: Int64, language: Language?) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE user SET language = ? WHERE id = ?", arguments: [language?.rawValue, id])
        }
    }

    /// The yearly reading goal in books; nil clears it.
    public func setReadingGoal(id: Int64, goal: Int?) async throws {
        try await db.write { db in
            try db.execute(sql: "UPDATE user SET reading_goal = ? WHERE id = ?", arguments: [goal, id])
        }
    }

    /// Thrown by `delete(id:)` for the admin of a household with other members: a house is never left without one.
    public struct AdminMustHandOver: Error, Equatable {}

    /// Deletes the account with its shelves, photo rows and sessions (the caller removes the photo files).
    /// Catalog books stay: other people may have them. The admin of a household with other members is refused
    /// (`AdminMustHandOver`), checked in the same write as the delete so a role handed to this account at the same
    /// moment cannot leave the house with no admin (issue 35).
    public func delete(id: Int64) async throws {
        try await db.write { db in
            let isAdmin =
                try Bool.fetchOne(db, sql: "SELECT role = 'admin' FROM user WHERE id = ?", arguments: [id]) ?? false
            let others = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE id != ?", arguments: [id]) ?? 0
            if isAdmin && others > 0 { throw AdminMustHandOver() }
            try db.execute(
                sql: "DELETE FROM session WHERE json_extract(CAST(value AS TEXT), '$.userID') = ?", arguments: [id])
            try db.execute(sql: "UPDATE user SET avatar_photo_id = NULL WHERE id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM photo WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM user_book WHERE user_id = ?", arguments: [id])
            // The books they typed or imported were theirs alone.
            try db.execute(
                sql: "DELETE FROM book_author WHERE book_id IN (SELECT id FROM book WHERE owner_user_id = ?)",
                arguments: [id])
            try db.execute(sql: "DELETE FROM book WHERE owner_user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM user WHERE id = ?", arguments: [id])
        }
    }
}
