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
        let database = try AppDatabase(path: config.databasePath)
        let hash = try await PasswordHasher(cost: config.bcryptCost).hash(password)
        do {
            return try await UserStore(db: database).create(
                username: form.username, email: form.email, displayName: form.displayName, passwordHash: hash,
                at: config.clock.now())
        } catch UserStore.Conflict.username {
            throw Failure(message: "The username '\(form.username)' is taken.")
        } catch UserStore.Conflict.email {
            throw Failure(message: "An account with the email '\(form.email)' already exists.")
        }
    }
}
