import Foundation
import GRDB

/// All SQL about accounts.
public struct UserStore: Sendable {
    let db: AppDatabase

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Which unique field an account creation collided with.
    public enum Conflict: Error, Equatable {
        case username
        case email
    }

    /// Inserts a new account; a taken username or email (any letter case) throws `Conflict`.
    public func create(username: String, email: String, displayName: String, passwordHash: String, at date: Date)
        async throws -> User
    {
        try await db.write { db in
            try Self.insert(
                username: username, email: email, displayName: displayName, passwordHash: passwordHash, at: date, db)
        }
    }

    /// Inserts an account inside a write; the household's first account is its admin, every later one a member.
    static func insert(
        username: String, email: String, displayName: String, passwordHash: String, at date: Date, _ db: Database
    ) throws -> User {
        if try User.filter(sql: "username = ?", arguments: [username]).fetchCount(db) > 0 {
            throw Conflict.username
        }
        if try User.filter(sql: "email = ?", arguments: [email]).fetchCount(db) > 0 {
            throw Conflict.email
        }
        var user = User(
            id: nil, username: username, email: email, displayName: displayName,
            passwordHash: passwordHash, avatarPhotoId: nil, readingGoal: nil, createdAt: date)
        user.role = try User.fetchCount(db) == 0 ? "admin" : "member"
        try user.insert(db)
        return user
    }

    /// Whether `id` is the household's admin (invitations, members, the server's backup).
    func isAdmin(_ id: Int64?) async throws -> Bool {
        guard let id else { return false }
        return try await db.read { db in
            try Bool.fetchOne(db, sql: "SELECT role = 'admin' FROM user WHERE id = ?", arguments: [id]) ?? false
        }
    }

    /// The account with this id, if it still exists.
    public func user(id: Int64) async throws -> User? {
        try await db.readStatement { db in
            try User.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [id])
        }
    }

    /// The account whose username or email is `login` (any letter case).
    public func user(login: String) async throws -> User? {
        try await db.read { db in
            try User.filter(sql: "username = ? OR email = ?", arguments: [login, login]).fetchOne(db)
        }
    }

    public func count() async throws -> Int {
        try await db.read { db in try User.fetchCount(db) }
    }
}
