import Foundation
import GRDB

/// The household's members and the admin's tools (issue 25): one-time invitations that open registration, one-time
/// links to set a new password, handing the admin role on. Tokens are shown once and kept only as SHA-256 digests.
struct HouseholdStore: Sendable {
    let db: AppDatabase

    /// How long an invitation or a password link lasts, as the admin chooses; computed, for its labels are in the
    /// request's language.
    static var invitationLifetimes: [(days: Int, label: String)] {
        [1, 7, 30].map { (days: $0, label: localized(one: "{{count}} day", other: "{{count}} days", count: $0)) }
    }
    static let passwordLinkLifetime: TimeInterval = 24 * 60 * 60
    static let maxNoteLength = 100
    /// Open invitations at once: more than a house needs, few enough that a runaway script cannot fill the table.
    static let maxOpenInvitations = 50

    /// A member as the admin page lists them.
    struct Member: Sendable, Equatable {
        let id: Int64
        let username: String
        let displayName: String
        let isAdmin: Bool
        let joined: Date
        let bookCount: Int
        /// How they came in: `first`, `invitation`, `sign_up`, `command`, or nil for accounts older than issue 35.
        var joinedVia: String? = nil
        /// Who invited them, while that account exists.
        var invitedBy: String? = nil
    }

    /// An invitation not used, not revoked and not expired.
    struct OpenInvitation: Sendable, Equatable {
        let id: Int64
        let note: String?
        let createdAt: Date
        let expiresAt: Date
    }

    enum Refusal: Error, Equatable {
        /// The token is unknown, used, revoked or expired: all answer the same, so nothing can be learnt by guessing.
        case notValid
        case tooManyOpen
        /// The admin cannot remove themself or take the role from themself without handing it on.
        case lastAdmin
    }

    // MARK: - Members

    func members() async throws -> [Member] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT user.id, user.username, user.display_name, user.role, user.created_at, user.joined_via,
                        (SELECT display_name FROM user AS inviter WHERE inviter.id = user.invited_by) AS invited_by,
                        (SELECT COUNT(*) FROM user_book WHERE user_book.user_id = user.id) AS book_count
                    FROM user ORDER BY user.role = 'admin' DESC, user.display_name COLLATE NOCASE, user.id
                    """
            ).map { row in
                Member(
                    id: row["id"], username: row["username"], displayName: row["display_name"],
                    isAdmin: row["role"] == "admin", joined: row["created_at"], bookCount: row["book_count"],
                    joinedVia: row["joined_via"], invitedBy: row["invited_by"])
            }
        }
    }

    func member(_ id: Int64) async throws -> Member? {
        try await members().first { $0.id == id }
    }

    /// Hands the admin role from `adminID` to member `memberID` in one write; false when either is not what it
    /// should be (the first no longer admin, the second gone).
    func handAdmin(from adminID: Int64, to memberID: Int64) async throws -> Bool {
        try await db.write { db in
            guard adminID != memberID,
                try Bool.fetchOne(db, sql: "SELECT role = 'admin' FROM user WHERE id = ?", arguments: [adminID])
                    == true,
                try Bool.fetchOne(db, sql: "SELECT 1 FROM user WHERE id = ?", arguments: [memberID]) == true
            else { return false }
            try db.execute(sql: "UPDATE user SET role = 'member' WHERE id = ?", arguments: [adminID])
            try db.execute(sql: "UPDATE user SET role = 'admin' WHERE id = ?", arguments: [memberID])
            return true
        }
    }

    /// Whether the account may be deleted: not while it is the admin of a household with other members.
    func mayLeave(_ userID: Int64) async throws -> Bool {
        try await db.read { db in
            let isAdmin =
                try Bool.fetchOne(db, sql: "SELECT role = 'admin' FROM user WHERE id = ?", arguments: [userID]) ?? false
            let others = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user WHERE id != ?", arguments: [userID]) ?? 0
            return !isAdmin || others == 0
        }
    }

    // MARK: - Who may join

    /// Whether the admin has opened the sign-up page to anyone who reaches the server. Closed until they do: after the
    /// first account, joining is by invitation (issue 35, DESIGN §15).
    func signUpIsOpen() async throws -> Bool {
        try await db.read { db in
            try String.fetchOne(db, sql: "SELECT value FROM household_setting WHERE key = 'open_sign_up'") == "1"
        }
    }

    func setSignUp(open: Bool, now: Date) async throws {
        try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO household_setting (key, value, changed_at) VALUES ('open_sign_up', ?, ?)
                    ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at
                    """, arguments: [open ? "1" : "0", now])
        }
    }

    // MARK: - Invitations

    /// A new invitation from `adminID`; the token to put in the link, shown once.
    func invite(by adminID: Int64, note: String?, days: Int, now: Date) async throws -> String {
        let token = Self.newToken()
        try await db.write { db in
            let open =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM invitation
                        WHERE used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
                        """, arguments: [now]) ?? 0
            guard open < Self.maxOpenInvitations else { throw Refusal.tooManyOpen }
            try db.execute(
                sql: """
                    INSERT INTO invitation (token_sha256, created_by, note, created_at, expires_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    APIKeyStore.digest(of: token), adminID, note, now, now.addingTimeInterval(Double(days) * 86_400),
                ])
        }
        return token
    }

    func openInvitations(now: Date) async throws -> [OpenInvitation] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, note, created_at, expires_at FROM invitation
                    WHERE used_at IS NULL AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at DESC, id DESC
                    """, arguments: [now]
            ).map {
                OpenInvitation(id: $0["id"], note: $0["note"], createdAt: $0["created_at"], expiresAt: $0["expires_at"])
            }
        }
    }

    /// Revokes an open invitation; false when there is none of that id.
    func revokeInvitation(_ id: Int64, now: Date) async throws -> Bool {
        try await db.write { db in
            try db.execute(
                sql: "UPDATE invitation SET revoked_at = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL",
                arguments: [now, id])
            return db.changesCount > 0
        }
    }

    /// Whether `token` opens registration now (unknown, used, revoked and expired all say no).
    func invitationIsOpen(_ token: String, now: Date) async throws -> Bool {
        try await openInvitation(token, now: now) != nil
    }

    /// Who sent the invitation `token`, while it opens registration (the join page says so); nil when it does not.
    func openInvitation(_ token: String, now: Date) async throws -> String? {
        guard Self.isWellFormed(token) else { return nil }
        return try await db.read { db in
            try String.fetchOne(
                db,
                sql: """
                    SELECT COALESCE(user.display_name, 'the household') FROM invitation
                    LEFT JOIN user ON user.id = invitation.created_by
                    WHERE token_sha256 = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?
                    """, arguments: [APIKeyStore.digest(of: token), now])
        }
    }

    /// Makes the account an invitation admits and spends the invitation, in one write: two people racing with one
    /// link make one account. Always a member: an invitation never makes an admin.
    func join(
        with token: String, username: String, email: String, displayName: String, passwordHash: String, now: Date
    ) async throws -> User {
        guard Self.isWellFormed(token) else { throw Refusal.notValid }
        return try await db.write { db in
            try db.execute(
                sql: """
                    UPDATE invitation SET used_at = ? WHERE token_sha256 = ? AND used_at IS NULL
                        AND revoked_at IS NULL AND expires_at > ?
                    """, arguments: [now, APIKeyStore.digest(of: token), now])
            guard db.changesCount == 1 else { throw Refusal.notValid }
            let inviter = try Int64.fetchOne(
                db, sql: "SELECT created_by FROM invitation WHERE token_sha256 = ?",
                arguments: [APIKeyStore.digest(of: token)])
            let user = try UserStore.insert(
                username: username, email: email, displayName: displayName, passwordHash: passwordHash, at: now,
                joining: inviter.map { .invitation(from: $0) } ?? .signUp, db)
            try db.execute(
                sql: "UPDATE invitation SET used_by = ? WHERE token_sha256 = ?",
                arguments: [user.id, APIKeyStore.digest(of: token)])
            return user
        }
    }

    // MARK: - Password links

    /// A one-time link for member `userID` to set a new password; the token, shown once. Earlier unused links of the
    /// member stop working.
    func passwordLink(for userID: Int64, now: Date) async throws -> String {
        let token = Self.newToken()
        try await db.write { db in
            try db.execute(sql: "DELETE FROM password_link WHERE user_id = ? AND used_at IS NULL", arguments: [userID])
            try db.execute(
                sql: "INSERT INTO password_link (token_sha256, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    APIKeyStore.digest(of: token), userID, now, now.addingTimeInterval(Self.passwordLinkLifetime),
                ])
        }
        return token
    }

    /// The member a password link is for, while it can still be used.
    func passwordLinkUser(_ token: String, now: Date) async throws -> User? {
        guard Self.isWellFormed(token) else { return nil }
        return try await db.read { db in
            try User.fetchOne(
                db,
                sql: """
                    SELECT user.* FROM password_link JOIN user ON user.id = password_link.user_id
                    WHERE password_link.token_sha256 = ? AND password_link.used_at IS NULL
                        AND password_link.expires_at > ?
                    """, arguments: [APIKeyStore.digest(of: token), now])
        }
    }

    /// Spends the link; the member's id, or nil when it can no longer be used (the caller then stores nothing).
    func spendPasswordLink(_ token: String, now: Date) async throws -> Int64? {
        guard Self.isWellFormed(token) else { return nil }
        return try await db.write { db in
            try Int64.fetchOne(
                db,
                sql: """
                    UPDATE password_link SET used_at = ? WHERE token_sha256 = ? AND used_at IS NULL AND expires_at > ?
                    RETURNING user_id
                    """, arguments: [now, APIKeyStore.digest(of: token), now])
        }
    }

    // MARK: - Tokens

    /// 32 random bytes as 64 lowercase hex digits: too many to guess, safe in a path.
    static func newToken() -> String {
        RandomHex.secret(byteCount: 32)
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
