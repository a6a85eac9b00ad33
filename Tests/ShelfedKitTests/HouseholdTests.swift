import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// The household's admin and invitations (issue 25): one-time links that open registration even when it is closed,
/// refused when expired, used, revoked or guessed, kept only as digests; password links; only the admin reaches the
/// admin pages; the admin role handed on, never left without an admin.
@Suite struct HouseholdTests {
    /// The link's token from the admin page's "Copy this link now" field.
    private func link(in page: String, _ kind: String) throws -> String {
        let marker = "/\(kind)/"
        let start = try #require(page.range(of: marker)).upperBound
        return String(page[start...].prefix(64))
    }

    @Test func anInvitationOpensClosedRegistrationOnceAndIsKeptOnlyAsADigest() async throws {
        let clock = TestClock()
        let app = TestApp(registration: .closed, clock: clock)
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")  // the first account may always register, and is the admin
            #expect(try await admin.get("/profile/edit").text.contains(#"href="/household""#))
            let household = try await admin.get("/household")
            #expect(household.status == .ok && household.text.contains("Alice") && household.text.contains("Admin"))

            let made = try await admin.post("/household/invitations", ["note": "Sam", "days": "7"])
            #expect(made.status == .created && made.text.contains("Copy this link now"))
            let token = try link(in: made.text, "join")
            // Stored as a digest only: the token itself is nowhere in the database.
            let stored = try await app.database().read { db in
                try String.fetchAll(db, sql: "SELECT token_sha256 FROM invitation")
            }
            #expect(stored == [APIKeyStore.digest(of: token)])
            #expect(!(try await admin.get("/household").text.contains(token)))
            #expect(try await admin.get("/household").text.contains("Sam"))

            // Registration is closed to strangers, open through the link.
            let stranger = WebSession(client)
            #expect(try await stranger.post("/register", registration("mallory")).status == .forbidden)
            let joinPage = try await stranger.get("/join/\(token)")
            #expect(joinPage.status == .ok && joinPage.text.contains(#"action="/join/\#(token)""#))
            let joined = try await stranger.post("/join/\(token)", registration("sam"))
            #expect(joined.status == .seeOther && joined.headers[.location] == "/")
            #expect(try await stranger.get("/").status == .ok)
            let role = try await app.database().read { db in
                try String.fetchOne(db, sql: "SELECT role FROM user WHERE username = 'sam'")
            }
            #expect(role == "member")  // an invitation never makes an admin

            // Used: refused, for anyone.
            let again = WebSession(client)
            #expect(try await again.get("/join/\(token)").status == .notFound)
            #expect(try await again.post("/join/\(token)", registration("eve")).status == .notFound)

            // Revoked, expired and guessed tokens: refused the same way.
            let revokedToken = try link(
                in: try await admin.post("/household/invitations", ["note": "Revoked", "days": "1"]).text, "join")
            let invitationID = try await app.database().read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM invitation WHERE note = 'Revoked'")
            }
            let revoked = try await admin.post("/household/invitations/\(try #require(invitationID))/revoke")
            #expect(revoked.headers[.location] == "/household?saved=invitation-revoked")
            #expect(try await again.get("/join/\(revokedToken)").status == .notFound)
            let expiring = try link(
                in: try await admin.post("/household/invitations", ["days": "1"]).text, "join")
            clock.advance(by: 86_401)
            #expect(try await again.post("/join/\(expiring)", registration("late")).status == .notFound)
            #expect(try await again.get("/join/\(String(repeating: "a", count: 64))").status == .notFound)
            #expect(try await again.get("/join/short").status == .notFound)
            let count = try await app.database().read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user") }
            #expect(count == 2)

            // Bad lifetimes and notes are refused with the note kept.
            let badDays = try await admin.post("/household/invitations", ["note": "Kim", "days": "365"])
            #expect(badDays.status == .unprocessableContent && badDays.text.contains(#"value="Kim""#))
        }
    }

    @Test func guessingLinksIsThrottledLikeGuessingPasswords() async throws {
        let app = TestApp(registration: .closed)
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            let guesser = WebSession(client)
            var statuses: [Int] = []
            for attempt in 0..<12 {
                let guess = String(format: "%064x", attempt)
                statuses.append(Int(try await guesser.get("/join/\(guess)").status.code))
            }
            #expect(statuses.prefix(10).allSatisfy { $0 == 404 })
            #expect(statuses.suffix(2).allSatisfy { $0 == 429 })
        }
    }

    @Test func onlyTheAdminReachesTheAdminPagesAndTheRoleIsHandedOnNotLost() async throws {
        let app = TestApp()
        try await app.run { client in
            let admin = WebSession(client)
            try await admin.register("alice")
            var bob = WebSession(client)
            try await bob.register("bob")
            let bobID = try #require(
                try await app.database().read { db in
                    try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE username = 'bob'")
                })
            let aliceID: Int64 = 1

            // A member sees no admin page, link or action.
            #expect(!(try await bob.get("/profile/edit").text.contains(#"href="/household""#)))
            for path in [
                "/household", "/household/members/\(aliceID)/remove", "/household/members/\(aliceID)/admin",
                "/profile/backup",
            ] {
                #expect(try await bob.get(path).status == .notFound, "GET \(path)")
            }
            for path in [
                "/household/invitations", "/household/members/\(aliceID)/password-link", "/household/sign-up",
                "/household/members/\(aliceID)/remove", "/household/members/\(aliceID)/admin",
            ] {
                #expect(
                    try await bob.post(path, ["days": "7", "confirm_username": "alice"]).status == .notFound,
                    "POST \(path)")
            }

            // The admin cannot remove themself, nor leave the household without an admin.
            #expect(try await admin.get("/household/members/\(aliceID)/remove").status == .conflict)
            let leave = try await admin.post("/profile/delete", ["confirm_username": "alice"])
            #expect(leave.status == .conflict)
            #expect(try await admin.get("/").status == .ok)

            // A password link for bob works once; his old sessions end.
            let linkPage = try await admin.post("/household/members/\(bobID)/password-link")
            let token = try link(in: linkPage.text, "password")
            let phone = WebSession(client)
            #expect(try await phone.get("/password/\(token)").text.contains("For Bob"))
            #expect(try await phone.post("/password/\(token)", ["password": "short"]).status == .unprocessableContent)
            let saved = try await phone.post("/password/\(token)", ["password": "a brand new password"])
            #expect(saved.headers[.location] == "/")
            #expect(try await phone.get("/").status == .ok)
            #expect(try await bob.get("/").status == .seeOther)  // his other session was signed out
            #expect(try await phone.get("/password/\(token)").status == .notFound)
            // From here on Bob uses the device the link signed in.
            bob = phone

            // The role handed on after asking; then alice is an ordinary member.
            #expect(try await admin.get("/household/members/\(bobID)/admin").text.contains("Make Bob the admin?"))
            let handed = try await admin.post("/household/members/\(bobID)/admin")
            #expect(handed.headers[.location] == "/profile/edit?saved=admin-handed")
            #expect(try await admin.get("/household").status == .notFound)
            #expect(try await bob.get("/household").status == .ok)
            #expect(try await bob.get("/profile/backup").status == .ok)

            // Removed after asking (their data is theirs to download, never the admin's: issue 35); everything of
            // theirs goes.
            _ = try await admin.addBook(["title": "Alice's own book"])
            let wrong = try await bob.post("/household/members/\(aliceID)/remove", ["confirm_username": "bob"])
            #expect(wrong.status == .unprocessableContent)
            let removed = try await bob.post("/household/members/\(aliceID)/remove", ["confirm_username": "alice"])
            #expect(removed.headers[.location] == "/household?saved=member-removed")
            let left = try await app.database().read { db in
                (
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user"),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book")
                )
            }
            #expect(left.0 == 1 && left.1 == 0)
            #expect(try await admin.get("/").status == .seeOther)
            // The last member, and admin, may leave.
            #expect(try await bob.post("/profile/delete", ["confirm_username": "bob"]).status == .seeOther)
        }
    }

    private func registration(_ username: String) -> [String: String] {
        [
            "username": username, "display_name": username.capitalized, "email": "\(username)@example.com",
            "password": "correct horse",
        ]
    }
}
