import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Sign-in and registration throttling")
struct ThrottleTests {
    @Test(
        "after 10 attempts for one account from one address, even the right password gets 429 until the window passes")
    func perAccountAndAddress() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            let web = WebSession(client)
            for _ in 0..<10 {
                #expect(try await web.login("alice", password: "wrong password").status == .unauthorized)
            }
            let blocked = try await web.login("alice")
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] == "900")
            #expect(blocked.text.contains("Try again in 15 minutes"))
            // The same account reached by email is the same account.
            #expect(try await web.login("alice@example.com").status == .tooManyRequests)

            app.clock.advance(by: 15 * 60 + 1)
            #expect(try await web.login("alice").status == .seeOther)
        }
    }

    @Test("60 guesses sent at once: only 10 reach the password check (the attempt is counted before bcrypt)")
    func parallelGuesses() async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")
            let web = WebSession(client)
            try await web.refreshToken()
            let token = try #require(web.csrfToken)
            let cookie = web.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<60 {
                    group.addTask {
                        let body = "_csrf=\(token)&login=alice&password=guess-number-\(attempt)"
                        return try await client.execute(
                            uri: "/login", method: .post,
                            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: cookie],
                            body: ByteBuffer(string: body)
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 10)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 50)
        }
    }

    @Test("a stranger's failures lock only their own address out; the owner elsewhere still signs in")
    func strangerCannotLockOwnerOut() async throws {
        let app = TestApp()
        try await app.run { _ in
            let throttle = LoginThrottle(db: try app.database())
            let now = app.clock.now
            for _ in 0..<10 {
                _ = try await throttle.admit(
                    .signIn, account: "user-1", address: "10.0.0.66", limits: .signIn, now: now)
            }
            #expect(
                try await throttle.admit(.signIn, account: "user-1", address: "10.0.0.66", limits: .signIn, now: now)
                    != nil)
            #expect(
                try await throttle.admit(.signIn, account: "user-1", address: "10.0.0.7", limits: .signIn, now: now)
                    == nil)
            // The stranger's address may still try other accounts until its own, looser limit.
            #expect(
                try await throttle.admit(.signIn, account: "user-2", address: "10.0.0.66", limits: .signIn, now: now)
                    == nil)
        }
    }

    @Test("one address is held back across accounts after its own limit")
    func perAddress() async throws {
        let app = TestApp()
        try await app.run { _ in
            let throttle = LoginThrottle(db: try app.database())
            let limits = LoginThrottle.Limits(perAccountAndAddress: 10, perAddress: 5, window: 60)
            for attempt in 0..<5 {
                _ = try await throttle.admit(
                    .signIn, account: "guess\(attempt)", address: "x", limits: limits, now: app.clock.now)
            }
            #expect(
                try await throttle.admit(.signIn, account: "alice", address: "x", limits: limits, now: app.clock.now)
                    != nil)
        }
    }

    @Test("attempts live in the database: a new throttle (a restarted server) still refuses, and the window ends it")
    func survivesRestart() async throws {
        let app = TestApp()
        try await app.run { _ in
            let limits = LoginThrottle.Limits(perAccountAndAddress: 2, perAddress: 50, window: 60)
            let start = app.clock.now
            let first = LoginThrottle(db: try app.database())
            _ = try await first.admit(.signIn, account: "a", address: "x", limits: limits, now: start)
            _ = try await first.admit(
                .signIn, account: "a", address: "x", limits: limits, now: start.addingTimeInterval(30))
            let restarted = LoginThrottle(db: try app.database())
            let blocked = try await restarted.admit(
                .signIn, account: "A", address: "x", limits: limits, now: start.addingTimeInterval(31))
            #expect(blocked == start.addingTimeInterval(60))
            #expect(
                try await restarted.admit(
                    .signIn, account: "a", address: "x", limits: limits, now: start.addingTimeInterval(61)) == nil)
        }
    }

    @Test("a password of NUL bytes cannot register, and an empty password never signs anyone in")
    func nulPasswords() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            let response = try await web.register("alice", password: String(repeating: "\u{0}", count: 8))
            #expect(response.status == .unprocessableContent)
            #expect(response.text.contains("no control characters"))
            #expect(try await app.database().writer.read { db in try User.fetchCount(db) } == 0)

            try await web.register("bob", password: "correct horse")
            let other = WebSession(client)
            #expect(try await other.login("bob", password: "correct horse\u{0}junk").status == .unauthorized)
            #expect(try await other.login("bob", password: "").status == .unauthorized)
        }
    }

    @Test("registrations from one address are limited")
    func registrationLimit() async throws {
        try await TestApp().run { client in
            for index in 0..<10 {
                #expect(try await WebSession(client).register("user\(index)").status == .seeOther)
            }
            let refused = try await WebSession(client).register("user10")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.text.contains("Too many new accounts"))
        }
    }
}
