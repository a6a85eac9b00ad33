import ArgumentParser
import Foundation
import ShelfedKit

@main
struct ShelfedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shelfed",
        abstract: "Shelfed: a self-hosted reading tracker for the whole household.",
        discussion: "Settings come from environment variables (README.md has the details):\n"
            + AppConfig.settingsHelp,
        subcommands: [
            Serve.self, UserCommand.self, BackupCommand.self, RestoreCommand.self, ModelCommand.self,
            SettingsCommand.self, DoctorCommand.self,
        ],
        defaultSubcommand: Serve.self
    )
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Run the web server (the default). Stops gracefully on SIGTERM or SIGINT.")

    func run() async throws {
        IdleMemory.configureMalloc()
        TextEmbedder.configureProcess()
        let config = try AppConfig.fromEnvironment()
        let app = try await buildApplication(config: config)
        try await app.runService()
    }
}

struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the data folder, database, model, OCR, providers, memory and backups, and say how to fix "
            + "each problem. Exits non-zero when something needs action.")

    func run() async throws {
        let config = try AppConfig.fromEnvironment()
        let checks = await Doctor(config: config).run()
        print(Doctor.report(checks))
        let code = Doctor.exitCode(checks)
        if code != 0 { throw ExitCode(code) }
    }
}

struct SettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Print every setting as a commented environment file (what `make install` puts in /etc/shelfed).")

    func run() {
        print(AppConfig.environmentFile)
    }
}

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts from the shell.",
        subcommands: [AddUser.self, ResetPassword.self, MakeAdmin.self])
}

struct AddUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Create an account. Asks for the password (or reads one line from standard input when piped).")

    @Argument(help: "3–32 characters: letters, digits, dot, dash or underscore.")
    var username: String

    @Option(help: "The account's email address (also accepted at sign-in).")
    var email: String

    @Option(name: .customLong("display-name"), help: "The name others see. Defaults to the username.")
    var displayName: String?

    func run() async throws {
        let password = try readNewPassword()
        let config = try AppConfig.fromEnvironment()
        do {
            let user = try await AccountCommands.createAccount(
                config: config, username: username, email: email, displayName: displayName ?? username,
                password: password)
            print("Created account '\(user.username)' (\(user.email)).")
        } catch let error as AccountCommands.Failure {
            throw ValidationError(error.message)
        }
    }
}

/// `shelfed user reset-password NAME`: what the "Forgot your password?" page tells a household to do.
struct ResetPassword: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-password",
        abstract:
            "Set a new password for an account (signs out its sessions and device keys). Asks for the password (or "
            + "reads one line from standard input when piped).")

    @Argument(help: "The account's username or email.")
    var login: String

    func run() async throws {
        let password = try readNewPassword()
        let config = try AppConfig.fromEnvironment()
        do {
            let user = try await AccountCommands.resetPassword(config: config, login: login, password: password)
            print("Set a new password for '\(user.username)'. They can sign in with it now.")
        } catch let error as AccountCommands.Failure {
            throw ValidationError(error.message)
        }
    }
}

/// `shelfed user make-admin NAME`: for the person running the server when the household's admin has gone (moved
/// out, forgot everything) — the web hands the role on only from the admin.
struct MakeAdmin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-admin",
        abstract: "Make an account the household's admin (the one admin there is becomes a member).")

    @Argument(help: "The account's username or email.")
    var login: String

    func run() async throws {
        let config = try AppConfig.fromEnvironment()
        do {
            let user = try await AccountCommands.makeAdmin(config: config, login: login)
            print("'\(user.username)' is the household's admin now.")
        } catch let error as AccountCommands.Failure {
            throw ValidationError(error.message)
        }
    }
}

/// A password typed twice in a terminal, or one line piped on standard input.
func readNewPassword() throws -> String {
    if isatty(STDIN_FILENO) == 1 {
        guard let first = getpass("Password: ").map({ String(cString: $0) }),
            let second = getpass("Repeat password: ").map({ String(cString: $0) })
        else { throw ValidationError("Could not read the password.") }
        guard first == second else { throw ValidationError("The passwords do not match.") }
        return first
    }
    guard let line = readLine(strippingNewline: true) else {
        throw ValidationError("Pipe the password on standard input, or run this in a terminal.")
    }
    return line
}
