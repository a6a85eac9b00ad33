import Foundation
import GRDB

/// Limits sign-in and registration attempts (DESIGN §13), kept in SQLite so a restart does not reset them.
///
/// An attempt is admitted — and recorded — in one write transaction *before* the password is checked, so
/// sixty guesses sent at once are counted one by one and only the first few reach bcrypt. Limits apply per
/// (account, address) and, more loosely, per address: a stranger who guesses at an account from their own
/// device locks only themselves out of it, never its owner on another device.
public struct LoginThrottle: Sendable {
    public struct Limits: Sendable {
        public var perAccountAndAddress: Int
        public var perAddress: Int
        public var window: TimeInterval

        public init(perAccountAndAddress: Int, perAddress: Int, window: TimeInterval) {
            self.perAccountAndAddress = perAccountAndAddress
            self.perAddress = perAddress
            self.window = window
        }

        public static let signIn = Limits(perAccountAndAddress: 10, perAddress: 50, window: 15 * 60)
        /// Each registration costs a bcrypt hash and makes an account; a household makes a handful.
        public static let registration = Limits(perAccountAndAddress: 10, perAddress: 10, window: 60 * 60)
    }

    public enum Kind: String, Sendable {
        case signIn = "sign_in"
        case registration
        /// Opening or using an invitation or password link: counted like sign-in, apart from it, so that someone
        /// guessing links cannot lock the household out of signing in.
        case oneTimeLink = "one_time_link"
    }

    let db: AppDatabase

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Records an attempt and answers nil when it may go ahead, or when attempts may resume. A refused
    /// attempt is not recorded, so waiting out the window always works.
    public func admit(_ kind: Kind, account: String, address: String, limits: Limits, now: Date) async throws -> Date? {
        let account = account.lowercased()
        return try await db.write { db in
            let cutoff = now.addingTimeInterval(-limits.window)
            try db.execute(sql: "DELETE FROM login_attempt WHERE at <= ?", arguments: [cutoff])
            let pair = try Date.fetchAll(
                db,
                sql: "SELECT at FROM login_attempt WHERE kind = ? AND account = ? AND address = ? ORDER BY at LIMIT ?",
                arguments: [kind.rawValue, account, address, limits.perAccountAndAddress])
            let fromAddress = try Date.fetchAll(
                db, sql: "SELECT at FROM login_attempt WHERE kind = ? AND address = ? ORDER BY at LIMIT ?",
                arguments: [kind.rawValue, address, limits.perAddress])
            var blockedUntil: Date?
            if pair.count >= limits.perAccountAndAddress, let oldest = pair.first {
                blockedUntil = oldest.addingTimeInterval(limits.window)
            }
            if fromAddress.count >= limits.perAddress, let oldest = fromAddress.first {
                blockedUntil = max(blockedUntil ?? oldest, oldest.addingTimeInterval(limits.window))
            }
            if let blockedUntil { return blockedUntil }
            try db.execute(
                sql: "INSERT INTO login_attempt (kind, account, address, at) VALUES (?, ?, ?, ?)",
                arguments: [kind.rawValue, account, address, now])
            return nil
        }
    }

    /// A successful sign-in clears that account's attempts from that address (the address keeps its own count).
    public func recordSuccess(_ kind: Kind, account: String, address: String) async throws {
        let account = account.lowercased()
        try await db.write { db in
            try db.execute(
                sql: "DELETE FROM login_attempt WHERE kind = ? AND account = ? AND address = ?",
                arguments: [kind.rawValue, account, address])
        }
    }
}
