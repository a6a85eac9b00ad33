import Foundation
import HTTPTypes
import Testing

@testable import ShelfedKit

/// The house library, lending, recommending and the challenge through `/api/v1/household/...` (issue 25): the
/// same rules as the pages, and nothing of a member who does not share.
@Suite struct HouseholdAPITests {
    @Test func lendingRecommendingAndTheChallengeWorkThroughTheAPI() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let bob = WebSession(client)
            try await bob.register("bob")
            let carol = WebSession(client)
            try await carol.register("carol")
            for member in [alice, bob] { _ = try await member.post("/profile/sharing", ["shares": "1"]) }
            let book = try await alice.addBook(["title": "Lendable Lighthouse", "isbn": "9780140449136"])
            _ = try await alice.post("/books/\(book)/copy", ["owned": "1", "location": "hall shelf"])
            let carols = try await carol.addBook(["title": "Carol's Hidden Copy"])
            _ = try await carol.post("/books/\(carols)/copy", ["owned": "1"])
            let bobsBook = try await bob.addBook(["title": "Bob's Pick", "isbn": "9780306406157"])

            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")

            // The house library: Alice's copy, never Carol's.
            let library = try await bobAPI.get("/api/v1/household/library")
            let copies = library.json?["copies"] as? [[String: Any]]
            #expect(copies?.map { $0["title"] as? String } == ["Lendable Lighthouse"])
            #expect(
                copies?.first?["location"] as? String == "hall shelf" && copies?.first?["owner"] as? String == "Alice")
            #expect(copies?.first?["book_id"] is NSNull)  // not Bob's own copy

            // Lending: refused bodies, a loan, a second loan of the same copy, its return.
            let refusals: [([String: Any], HTTPResponse.Status)] = [
                (["member_id": 2], .unprocessableContent),
                (["book_id": book], .unprocessableContent),
                (["book_id": book, "name": "Sam", "due_on": "2026-01-01"], .unprocessableContent),
                (["book_id": book, "name": "Sam", "lent_on": "2099-01-01"], .unprocessableContent),
                (["book_id": book, "member_id": 3], .unprocessableContent),  // Carol does not share
                (["book_id": 999, "name": "Sam"], .notFound),
                (["book_id": "x"], .badRequest),
            ]
            for (body, status) in refusals {
                #expect(try await api.send(.post, "/api/v1/household/loans", json: body).status == status, "\(body)")
            }
            let lent = try await api.send(
                .post, "/api/v1/household/loans", json: ["book_id": book, "member_id": 2, "due_on": "2026-03-20"])
            #expect(lent.status == .created && lent.json?["borrower"] as? String == "Bob")
            #expect(lent.json?["overdue"] as? Bool == false)
            let again = try await api.send(.post, "/api/v1/household/loans", json: ["book_id": book, "name": "Sam"])
            #expect(again.status == .conflict)
            let loanID = try #require(lent.json?["id"] as? Int)
            let borrowed = try await bobAPI.get("/api/v1/household/loans").json?["borrowed"] as? [[String: Any]]
            #expect(
                borrowed?.first?["lender"] as? String == "Alice"
                    && borrowed?.first?["due_on"] as? String == "2026-03-20")
            #expect((try await api.get("/api/v1/household/loans").json?["lent"] as? [Any])?.count == 1)
            #expect(try await bobAPI.send(.post, "/api/v1/household/loans/\(loanID)/returned").status == .notFound)
            #expect(try await api.send(.post, "/api/v1/household/loans/\(loanID)/returned").status == .noContent)
            #expect(try await api.send(.post, "/api/v1/household/loans/\(loanID)/returned").status == .notFound)
            #expect((try await api.get("/api/v1/household/loans").json?["lent"] as? [Any])?.isEmpty == true)

            // Recommending: to anyone else in the house, Carol who does not share too (issue 35), never to oneself
            // or to no one; dismissed once. The members answer lists whom, by name only: Carol is not in `members`.
            let members = try await bobAPI.get("/api/v1/household/members").json
            #expect(
                (members?["members"] as? [[String: Any]])?.compactMap { $0["display_name"] as? String }.sorted() == [
                    "Alice", "Bob",
                ])
            let recipients = members?["can_recommend_to"] as? [[String: Any]]
            #expect(recipients?.compactMap { $0["display_name"] as? String } == ["Alice", "Carol"])
            #expect(recipients?.last?["id"] as? Int == 3 && recipients?.last?.keys.sorted() == ["display_name", "id"])
            #expect(
                try await bobAPI.send(
                    .post, "/api/v1/household/recommendations", json: ["book_id": bobsBook, "member_id": 3]
                ).status == .created)
            for nobody in [2, 99] {
                #expect(
                    try await bobAPI.send(
                        .post, "/api/v1/household/recommendations", json: ["book_id": bobsBook, "member_id": nobody]
                    ).status == .notFound)
            }
            #expect(
                try await bobAPI.send(
                    .post, "/api/v1/household/recommendations",
                    json: ["book_id": bobsBook, "member_id": 1, "note": String(repeating: "x", count: 501)]
                ).status == .unprocessableContent)
            let sent = try await bobAPI.send(
                .post, "/api/v1/household/recommendations",
                json: ["book_id": bobsBook, "member_id": 1, "note": "You'll like it"])
            #expect(sent.status == .created)
            let received =
                try await api.get("/api/v1/household/recommendations").json?["recommendations"]
                as? [[String: Any]]
            #expect(
                received?.first?["from"] as? String == "Bob" && received?.first?["note"] as? String == "You'll like it")
            let recommendationID = try #require(received?.first?["id"] as? Int)
            #expect(
                try await bobAPI.send(.delete, "/api/v1/household/recommendations/\(recommendationID)").status
                    == .notFound)
            #expect(
                try await api.send(.delete, "/api/v1/household/recommendations/\(recommendationID)").status
                    == .noContent)
            #expect(
                (try await api.get("/api/v1/household/recommendations").json?["recommendations"] as? [Any])?.isEmpty
                    == true)

            // The challenge: null until the admin sets one.
            #expect(try await bobAPI.get("/api/v1/household/challenge").json?["challenge"] is NSNull)
            _ = try await alice.post("/household/challenge", ["measure": "books", "goal": "12"])
            let challenge = try await bobAPI.get("/api/v1/household/challenge").json?["challenge"] as? [String: Any]
            #expect(challenge?["goal"] as? Int == 12 && challenge?["measure"] as? String == "books")
            let names = (challenge?["members"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names?.sorted() == ["Alice", "Bob"])
        }
    }
}
