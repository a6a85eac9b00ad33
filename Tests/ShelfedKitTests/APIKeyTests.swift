import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import ShelfedKit

/// DESIGN §6 "Keys": one key per device from email and password, kept hashed, listed and revocable.
@Suite struct APIKeyTests {
    @Test func signingInMakesANewHashedKeyPerDevice() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            var phone = APIClient(client)
            let response = try await phone.signIn("alice@example.com", deviceName: "Alice's iPhone")
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.setCookie] == nil)
            let key = try #require(phone.key)
            #expect(key.count == 40 && key.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(phone.userID != nil)

            var tablet = APIClient(client)
            try await tablet.signIn("alice", deviceName: nil)  // a username works in `email` too
            #expect(tablet.key != nil && tablet.key != key)

            let digests = try await app.database().read { db in
                try String.fetchAll(db, sql: "SELECT token_sha256 FROM api_token ORDER BY id")
            }
            let labels = try await app.database().read { db in
                try String.fetchAll(db, sql: "SELECT label FROM api_token ORDER BY id")
            }
            #expect(digests.count == 2)
            #expect(digests.allSatisfy { $0 != key && $0.count == 64 && !$0.contains(key) })
            #expect(labels == ["Alice's iPhone", "Unnamed device"])
        }
    }

    @Test func theLabelFallsBackToTheUserAgentAndLosesControlCharacters() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            var phone = APIClient(client)
            _ = try await phone.send(
                .post, "/api/v1/sessions", json: ["email": "alice@example.com", "password": "correct horse"],
                headers: [.userAgent: "Reader/2.1 (iPhone)"])
            try await phone.signIn("alice@example.com", deviceName: "Bob\u{0}'s \u{202E}phone\n")
            try await phone.signIn("alice@example.com", deviceName: String(repeating: "x", count: 500))
            let labels = try await app.database().read { db in
                try String.fetchAll(db, sql: "SELECT label FROM api_token ORDER BY id")
            }
            #expect(labels == ["Reader/2.1 (iPhone)", "Bob's phone", String(repeating: "x", count: 100)])
        }
    }

    @Test func wrongCredentialsAndBadBodiesGetJSONErrors() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            var phone = APIClient(client)
            let wrong = try await phone.signIn("alice@example.com", password: "wrong password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.json?["error"] as? String == "Invalid credentials")
            #expect(phone.key == nil)

            let unknown = try await phone.signIn("nobody@example.com")
            #expect(unknown.status == .unauthorized)

            let notJSON = try await client.execute(
                uri: "/api/v1/sessions", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"email\": "))
            #expect(notJSON.status == .badRequest)
            #expect(notJSON.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(notJSON.json?["error"] is String)

            let missing = try await phone.send(.post, "/api/v1/sessions", json: ["email": "alice@example.com"])
            #expect(missing.status == .badRequest)
            #expect(missing.json?["error"] as? String == "The field \"password\" is required.")

            let wrongType = try await client.execute(
                uri: "/api/v1/sessions", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: "email=alice"))
            #expect(wrongType.status == .unsupportedMediaType)
        }
    }

    @Test func theWebSignInThrottleCoversKeys() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            var phone = APIClient(client)
            for _ in 0..<LoginThrottle.Limits.signIn.perAccountAndAddress {
                #expect(try await phone.signIn("alice@example.com", password: "guess guess").status == .unauthorized)
            }
            let held = try await phone.signIn("alice@example.com")
            #expect(held.status == .tooManyRequests)
            #expect(held.headers[.retryAfter] != nil)
            #expect((held.json?["error"] as? String)?.contains("Too many") == true)
            #expect(phone.key == nil)
        }
    }

    @Test func keysWorkAsBearerOrInTheQueryWithTheirOwnersID() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            try await WebSession(client).register("bob")
            var alice = APIClient(client)
            try await alice.signIn("alice@example.com")
            #expect(try await alice.get("/api/v1/shelves").status == .ok)
            alice.keyInQuery = true
            #expect(try await alice.get("/api/v1/shelves").status == .ok)

            var bobsID = APIClient(client)
            try await bobsID.signIn("bob@example.com")
            let key = try #require(alice.key)
            let mismatched = try await client.execute(
                uri: "/api/v1/shelves?api_key=\(key)&user_id=\(bobsID.userID!)", method: .get)
            #expect(mismatched.status == .unauthorized)
            #expect(mismatched.json?["error"] is String)

            let noKey = try await client.execute(uri: "/api/v1/shelves", method: .get)
            #expect(noKey.status == .unauthorized)
            #expect(noKey.headers[.wwwAuthenticate] == "Bearer")
            #expect(noKey.headers[.contentType]?.hasPrefix("application/json") == true)

            for bad in [String(repeating: "0", count: 40), "not a key", key.uppercased(), key + "0"] {
                let response = try await client.execute(
                    uri: "/api/v1/shelves", method: .get, headers: [.authorization: "Bearer \(bad)"])
                #expect(response.status == .unauthorized, "\(bad)")
            }
        }
    }

    @Test func revokingAKeyOnTheDevicesPageStopsItAtOnce() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            var phone = APIClient(client)
            try await phone.signIn("alice@example.com", deviceName: "Kitchen iPad <b>")
            #expect(try await phone.get("/api/v1/books").status == .ok)

            let page = try await web.get("/profile/devices")
            #expect(page.status == .ok)
            #expect(page.text.contains("Kitchen iPad &lt;b&gt;"))
            #expect(!page.text.contains(try #require(phone.key)))
            let id = try await app.database().read { db in try Int64.fetchOne(db, sql: "SELECT id FROM api_token") }!

            let revoked = try await web.post("/profile/devices/\(id)/revoke")
            #expect(revoked.status == .seeOther)
            #expect(try await phone.get("/api/v1/books").status == .unauthorized)
            #expect(try await web.get("/profile/devices").text.contains("No device has a key yet"))
            #expect(try await web.post("/profile/devices/\(id)/revoke").status == .notFound)
        }
    }

    @Test func anotherUsersDeviceCannotBeRevoked() async throws {
        let app = TestApp()
        try await app.run { client in
            try await WebSession(client).register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            var phone = APIClient(client)
            try await phone.signIn("alice@example.com")
            let id = try await app.database().read { db in try Int64.fetchOne(db, sql: "SELECT id FROM api_token") }!
            #expect(try await bob.post("/profile/devices/\(id)/revoke").status == .notFound)
            #expect(try await phone.get("/api/v1/books").status == .ok)
        }
    }

    @Test func aPasswordChangeRevokesEveryKey() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            var phone = APIClient(client)
            try await phone.signIn("alice@example.com")
            var tablet = APIClient(client)
            try await tablet.signIn("alice@example.com")
            try await web.get("/profile/edit")
            let changed = try await web.post(
                "/profile/password", ["current_password": "correct horse", "new_password": "battery staple"])
            #expect(changed.status == .seeOther)
            #expect(try await phone.get("/api/v1/books").status == .unauthorized)
            #expect(try await tablet.get("/api/v1/books").status == .unauthorized)
            #expect(try await phone.signIn("alice@example.com", password: "battery staple").status == .ok)
        }
    }

    @Test func theRequestLogLeavesOutQueryStrings() async throws {
        let request = Request(
            head: .init(method: .get, scheme: "http", authority: "pi", path: "/api/v1/books?api_key=abc&user_id=1"),
            body: .init(buffer: ByteBuffer()))
        let line = "\(RequestLogMiddleware<AppRequestContext>.describe(request))"
        #expect(line == "GET /api/v1/books")
    }
}
