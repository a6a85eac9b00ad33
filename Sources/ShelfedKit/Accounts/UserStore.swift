import Foundation
import GRDB

/// All SQL about accounts.
public struct UserStore: Sendable {
    let db: AppDatabase
    /// Accounts already read, until one changes (`SignedInMemos`); nil reads every time.
    var memo: CommitMemo<Int64, User?>? = nil

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Which unique field an account creation collided with.
    public enum Conflict: Error, Equatable {
        case username
        case email
    }

    /// How an account came into the household, kept for the admin's list of members (issue 35).
    enum Joining: Sendable, Equatable {
        /// Through the sign-up page: the first account, or any while the admin keeps sign-up open.
        case signUp
        case invitation(from: Int64)
        /// `shelfed user add` on the server.
        case command
    }

    /// Inserts a new account; a taken username or email (any letter case) throws `Conflict`.
    public func create(username: String, email: String, displayName: String, passwordHash: String, at date: Date)
        async throws -> User
    {
        try await create(
            username: username, email: email, displayName: displayName, passwordHash: passwordHash, at: date,
            joining: .signUp)
    }

    func create(
        username: String, email: String, displayName: String, passwordHash: String, at date: Date, joining: Joining
    ) async throws -> User {
        try await db.write { db in
            try Self.insert(
                username: username, email: email, displayName: displayName, passwordHash: passwordHash, at: date,
                joining: joining, db)
        }
    }

    /// Inserts an account inside a write; the household's first account is its admin, every later one a member.
    static func insert(
        username: String, email: String, displayName: String, passwordHash: String, at date: Date,
        joining: Joining, _ db: Database
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
        let isFirst = try User.fetchCount(db) == 0
        user.role = isFirst ? "admin" : "member"
        try user.insert(db)
        let (via, inviter): (String, Int64?) =
            switch joining {
            case _ where isFirst: ("first", nil)
            case .signUp: ("sign_up", nil)
            case .invitation(let from): ("invitation", from)
            case .command: ("command", nil)
            }
        try db.execute(
            sql: "UPDATE user SET joined_via = ?, invited_by = ? WHERE id = ?", arguments: [via, inviter, user.id])
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
        let read = {
            try await db.readStatement { db in
                try User.fetchOne(db.cachedStatement(sql: "SELECT * FROM user WHERE id = ?"), arguments: [id])
            }
        }
        return if let memo { try await memo.answer(for: id, read) } else { try await read() }
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
