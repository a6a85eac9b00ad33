import Foundation

/// Account work done from the shell (`shelfed user add`), with the same rules as the register form.
public enum AccountCommands {
    public struct Failure: Error {
        public let message: String
    }

    /// Validates and creates an account directly in the database under `config.dataDirectory`.
    public static func createAccount(
        config: AppConfig, username: String, email: String, displayName: String, password: String
    ) async throws -> User {
        var form = RegistrationForm()
        form.username = username.lowercased()
        form.email = email
        form.displayName = displayName
        form.password = password
        let errors = form.validate()
        if let message = ["username", "email", "display_name", "password"].compactMap({ errors[$0] }).first {
            throw Failure(message: message)
        }
        try FileManager.default.createDirectory(at: config.dataDirectory, withIntermediateDirectories: true)
        let database = try AppDatabase(path: config.databasePath, backupFolder: config.backupFolder)
        let hash = try await PasswordHasher(cost: config.bcryptCost).hash(password)
        do {
            return try await UserStore(db: database).create(
                username: form.username, email: form.emailToStore, displayName: form.displayName, passwordHash: hash,
                at: config.clock.now(), joining: .command)
        } catch UserStore.Conflict.username {
            throw Failure(message: "The username '\(form.username)' is taken.")
        } catch UserStore.Conflict.email {
            throw Failure(message: "An account with the email '\(form.email)' already exists.")
        }
    }

    /// Sets a new password for the account with this username or email (someone in the house forgot theirs):
    /// every session and device key of the account is signed out, as when they change it themselves.
    public static func resetPassword(config: AppConfig, login: String, password: String) async throws -> User {
        if let problem = RegistrationForm.passwordProblem(password) { throw Failure(message: problem) }
        let users = UserStore(db: try AppDatabase(path: config.databasePath, backupFolder: config.backupFolder))
        guard let user = try await users.user(login: login), let id = user.id else {
            throw Failure(message: "There is no account '\(login)'.")
        }
        let hash = try await PasswordHasher(cost: config.bcryptCost).hash(password)
        try await users.updatePassword(id: id, hash: hash, keepingSession: nil)
        return user
    }

    /// Makes the account with this username or email the household's admin; whoever was admin becomes a member.
    public static func makeAdmin(config: AppConfig, login: String) async throws -> User {
        let database = try AppDatabase(path: config.databasePath, backupFolder: config.backupFolder)
        guard let user = try await UserStore(db: database).user(login: login), let id = user.id else {
            throw Failure(message: "There is no account '\(login)'.")
        }
        try await database.write { db in
            try db.execute(
                sql: "UPDATE user SET role = CASE WHEN id = ? THEN 'admin' ELSE 'member' END", arguments: [id])
        }
        return user
    }
}
