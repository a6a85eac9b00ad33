import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Accounts")
struct AccountTests {
    @Test("registering signs in with a bcrypt-hashed password and a protected session cookie")
    func register() async throws {
        let app = TestApp()
        try await app.run { client in
            // act
            let web = WebSession(client)
            let response = try await web.register("alice")
            // validate
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/")
            let cookie = try #require(response.headers[values: .setCookie].first { $0.hasPrefix("shelfed_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))
            #expect(!cookie.contains("Secure"))
            let home = try await web.get("/")
            #expect(home.status == .ok)
            #expect(home.text.contains("Welcome to Shelfed, Alice"))
            let user = try await app.database().writer.read { db in try User.fetchOne(db) }
            #expect(user?.username == "alice")
            #expect(user?.passwordHash.hasPrefix("$2") == true)
            #expect(user?.passwordHash.contains("correct horse") == false)
        }
    }

    @Test("cookies are marked Secure when SHELFED_SECURE_COOKIES is on")
    func secureCookies() async throws {
        try await TestApp(secureCookies: true).run { client in
            let response = try await WebSession(client).register("alice")
            let cookies = response.headers[values: .setCookie]
            #expect(cookies.contains { $0.hasPrefix("shelfed_session=") && $0.contains("Secure") })
        }
    }

    @Test("a taken username, in any letter case, re-renders the form with the typed values")
    func duplicateUsername() async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")
            let other = WebSession(client)
            let response = try await other.post(
                "/register",
                [
                    "username": "ALICE", "display_name": "Second Alice", "email": "second@example.com",
                    "password": "another password",
                ])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("That username is taken"))
            #expect(response.text.contains("value=\"Second Alice\""))
            #expect(response.text.contains("value=\"second@example.com\""))
            #expect(!response.text.contains("another password"))
            #expect(other.cookies["shelfed_session"] == nil)
        }
    }

    @Test("invalid fields each get a message and keep what was typed")
    func invalidRegistration() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            let response = try await web.post(
                "/register", ["username": "a b", "display_name": "", "email": "not-an-email", "password": "short"])
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("Use 3 to 32 characters"))
            #expect(response.text.contains("Enter the name others in the house will see."))
            #expect(response.text.contains("Enter an email address"))
            #expect(response.text.contains("Use at least 8 characters."))
            #expect(response.text.contains("value=\"not-an-email\""))
            let tooLong = try await web.post(
                "/register",
                [
                    "username": "bob", "display_name": "Bob", "email": "bob@example.com",
                    "password": String(repeating: "é", count: 40),
                ])
            #expect(tooLong.text.contains("Use at most 72 bytes"))
            #expect(try await app.database().writer.read { db in try User.fetchCount(db) } == 0)
        }
    }

    @Test("sign in by username or by email; a wrong password and an unknown user get the same message")
    func login() async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")

            let byName = WebSession(client)
            #expect(try await byName.login("Alice").headers[.location] == "/")
            #expect(try await byName.get("/shelves").status == .ok)

            let byEmail = WebSession(client)
            #expect(try await byEmail.login("ALICE@example.com").status == .seeOther)
            #expect(try await byEmail.get("/profile").text.contains("@alice"))

            let wrong = try await WebSession(client).login("alice", password: "wrong password")
            let unknown = try await WebSession(client).login("nobody", password: "wrong password")
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.text.contains("That username or password is not right."))
            #expect(unknown.text.contains("That username or password is not right."))
            #expect(wrong.text.contains("value=\"alice\""))
        }
    }

    @Test("each sign-in gets a new session id")
    func newSessionAtLogin() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let first = try #require(web.cookies["shelfed_session"])
            _ = try await web.login("alice")
            let second = try #require(web.cookies["shelfed_session"])
            #expect(first != second)
        }
    }

    @Test("logging out ends the session, and the old cookie no longer signs anyone in")
    func logout() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let stolen = try #require(web.cookies["shelfed_session"])
            let response = try await web.post("/logout")
            #expect(response.status == .seeOther)
            #expect(web.cookies["shelfed_session"] == nil)
            #expect(try await web.get("/").headers[.location] == "/login")

            let headers: HTTPFields = [.cookie: "shelfed_session=\(stolen)"]
            let again = try await client.execute(uri: "/shelves", method: .get, headers: headers, body: nil)
            #expect(again.status == .seeOther)
        }
    }

    @Test("closed registration allows the first account only")
    func closedRegistration() async throws {
        try await TestApp(registration: .closed).run { client in
            #expect(try await WebSession(client).register("first").status == .seeOther)
            let second = try await WebSession(client).register("second")
            #expect(second.status == .forbidden)
            #expect(second.text.contains("joining is by invitation"))
        }
    }

    @Test("shelfed user add applies the register rules and creates a usable account")
    func commandLineAccount() async throws {
        let app = TestApp()
        await #expect(throws: AccountCommands.Failure.self) { () async throws -> Void in
            _ = try await AccountCommands.createAccount(
                config: app.config, username: "x", email: "x@example.com", displayName: "X", password: "long enough")
        }
        let user = try await AccountCommands.createAccount(
            config: app.config, username: "Carol", email: "carol@example.com", displayName: "Carol",
            password: "long enough")
        #expect(user.username == "carol")
        try await app.run { client in
            let response = try await WebSession(client).login("carol", password: "long enough")
            #expect(response.status == .seeOther)
        }
    }

    @Test("'Forgot your password?' on the sign-in page says what to do; shelfed user reset-password does it")
    func forgotPassword() async throws {
        let app = TestApp()
        _ = try await AccountCommands.createAccount(
            config: app.config, username: "dana", email: "dana@example.com", displayName: "Dana",
            password: "the first password")
        try await app.run { client in
            let web = WebSession(client)
            let login = try await web.get("/login")
            #expect(login.text.contains(#"<a href="/login/forgot">Forgot your password?</a>"#))
            let help = try await web.get("/login/forgot")
            #expect(help.status == .ok)
            #expect(help.text.contains("shelfed user reset-password USERNAME"))
            let before = try await web.login("dana", password: "the first password")
            #expect(before.status == .seeOther)

            do {
                _ = try await AccountCommands.resetPassword(config: app.config, login: "dana", password: "short")
                Issue.record("a short password was accepted")
            } catch is AccountCommands.Failure {}
            do {
                _ = try await AccountCommands.resetPassword(
                    config: app.config, login: "nobody", password: "long enough")
                Issue.record("an unknown account was accepted")
            } catch is AccountCommands.Failure {}
            let user = try await AccountCommands.resetPassword(
                config: app.config, login: "dana@example.com", password: "a brand new password")
            #expect(user.username == "dana")
            // Signed out everywhere: the session from before the reset is gone.
            let home = try await web.get("/")
            #expect(home.status == .seeOther)
            let old = try await WebSession(client).login("dana", password: "the first password")
            #expect(old.status != .seeOther)
            let new = try await WebSession(client).login("dana", password: "a brand new password")
            #expect(new.status == .seeOther)
        }
    }
}
