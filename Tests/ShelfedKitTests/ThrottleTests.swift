import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import ShelfedKit

@Suite("Login throttling")
struct ThrottleTests {
    @Test("after 10 failures for one account, even the right password gets 429 until the window passes")
    func perAccount() async throws {
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

    @Test("after 10 failures from one address across accounts, that address is held back")
    func perAddress() async throws {
        try await TestApp().run { client in
            try await WebSession(client).register("alice")
            let web = WebSession(client)
            for attempt in 0..<10 {
                _ = try await web.login("guess\(attempt)", password: "wrong password")
            }
            #expect(try await web.login("alice").status == .tooManyRequests)
        }
    }

    @Test("the throttle forgets failures older than the window")
    func window() async {
        let throttle = LoginThrottle(limit: 2, window: 60)
        let start = Date(timeIntervalSince1970: 0)
        await throttle.recordFailure(account: "a", address: "x", now: start)
        await throttle.recordFailure(account: "a", address: "y", now: start.addingTimeInterval(30))
        let blocked = await throttle.blockedUntil(account: "a", address: "z", now: start.addingTimeInterval(31))
        #expect(blocked == start.addingTimeInterval(60))
        #expect(await throttle.blockedUntil(account: "a", address: "z", now: start.addingTimeInterval(61)) == nil)
    }
}
