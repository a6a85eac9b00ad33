import Foundation
import GRDB
import HTTPTypes
import Testing

@testable import ShelfedKit

/// Sharing with the household (issue 25): nothing of a person is visible to another until they share; then their
/// shelves, ratings and progress appear in the house feed and under "In the house" — never their review, notes or
/// photos — and turning sharing off hides it all again at once.
@Suite struct SharingTests {
    static let secretTitle = "Zanzibar Lighthouse Ledger"
    static let secretReview = "Quietly devastating marginalia"
    static let isbn = "9780140449136"

    /// Every page and API answer Bob can reach with ids that are Alice's (each route's sample id is 1, her first
    /// book, photo and list), as text.
    /// A page without its "Recommend it" choice of recipients (and the API's members answer without its list of them).
    static func withoutRecipients(_ text: String) -> String {
        // The API's members answer lists them too, by name only.
        if let start = text.range(of: #""can_recommend_to":["#),
            let end = text.range(of: "]", range: start.upperBound..<text.endIndex)
        {
            return String(text[..<start.lowerBound] + text[end.upperBound...])
        }
        guard let start = text.range(of: #"<select id="recommend-member""#),
            let end = text.range(of: "</select>", range: start.upperBound..<text.endIndex)
        else { return text }
        return String(text[..<start.lowerBound] + text[end.upperBound...])
    }

    private func everythingBobSees(_ bob: WebSession, _ bobAPI: APIClient) async throws -> [String: String] {
        var seen: [String: String] = [:]
        for route in Route.allCases where route != .logout {
            let link = route.link(filling: RouteTests.sample(route))
            seen[link] = try await bob.get(link).text
        }
        for path in [
            "/?page=1", "/house/feed", "/lists/1", "/series?name=x", "/library/search?q=zanzibar",
            "/quotes?q=marginalia", "/profile/year/2026",
        ] {
            seen[path] = try await bob.get(path).text
        }
        for route in APIRoute.allCases where route.methods.contains(.get) && route.isDescribed {
            let path = route.link(1, "display")
            seen["API " + path] = try await bobAPI.get(path).text
        }
        return seen
    }

    @Test func aMemberWhoDoesNotShareAppearsNowhereAndSharingCanBeUndone() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook([
                "title": Self.secretTitle, "isbn": Self.isbn, "page_count": "300", "shelf": "reading",
            ])
            _ = try await alice.post("/books/\(book)/progress", ["page": "120", "read_on": "2026-03-14"])
            _ = try await alice.post("/books/\(book)/shelf", ["shelf": "read"])
            _ = try await alice.post(
                "/books/\(book)/review", ["rating": "4", "review": Self.secretReview, "private_notes": "hidden note"])
            _ = try await alice.post("/books/\(book)/copy", ["owned": "1", "format": "Hardcover"])
            _ = try await alice.upload("/books/\(book)/photos", files: [.init(data: TestImages.png)])
            _ = try await alice.post("/lists", ["name": "Alice's secret list"])

            let bob = WebSession(client)
            try await bob.register("bob")
            let bobsBook = try await bob.addBook(["title": "Bob's copy", "isbn": Self.isbn])
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")

            // Alice does not share: her name, titles, review, notes and list appear in nothing Bob can open — but for
            // her name among those a book may be recommended to (issue 35: anyone in the house may receive one).
            let secrets = ["Alice", Self.secretTitle, Self.secretReview, "hidden note", "Alice's secret list"]
            for (path, text) in try await everythingBobSees(bob, bobAPI) {
                for secret in secrets {
                    #expect(!Self.withoutRecipients(text).contains(secret), "\(path) shows \(secret)")
                }
            }
            #expect(try await bob.get("/books/\(bobsBook)").text.contains("<option value=\"1\">Alice</option>"))
            #expect(try await bob.get("/").text.contains("Nothing from the house yet."))

            // She shares: her reading shows in Bob's feed and on his copy's page; her review and notes still never.
            let on = try await alice.post("/profile/sharing", ["shares": "1"])
            #expect(on.headers[.location] == "/profile/edit?saved=sharing-on#sharing-heading")
            let home = try await bob.get("/").text
            #expect(home.contains("Alice</a></strong> finished"))
            // Her update on the day she started is that day's one line, "started" (issue 36).
            #expect(home.contains("Alice</a></strong> started") && !home.contains("is on page 120 of"))
            #expect(home.contains(Self.secretTitle) && home.contains(#"href="/books/\#(bobsBook)""#))
            let page = try await bob.get("/books/\(bobsBook)").text
            #expect(
                page.contains("In the house")
                    && page.contains(
                        #"<strong><a href="/house/members/1">Alice</a></strong> on Read · rated 4 stars · owns a copy"#)
            )
            let feed = try await bob.get("/house/feed").text
            #expect(feed.contains(Self.secretTitle))
            for (path, text) in try await everythingBobSees(bob, bobAPI) {
                for secret in [Self.secretReview, "hidden note", "Alice's secret list"] {
                    #expect(!text.contains(secret), "\(path) shows \(secret) while Alice shares")
                }
            }
            // Her own pages never show her own reading as the house's.
            #expect(try await alice.get("/").text.contains("Nothing from the house yet."))

            // She stops: gone at once, everywhere.
            _ = try await alice.post("/profile/sharing", [:])
            #expect(!(try await bob.get("/").text.contains("Alice")))
            #expect(!(try await bob.get("/books/\(bobsBook)").text.contains("id=\"house-heading\"")))
            #expect(!(try await bob.get("/house/feed").text.contains(Self.secretTitle)))
        }
    }

    @Test func theFeedIsPagedAndBounded() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            let book = try await alice.addBook(["title": "Long Book", "page_count": "900", "shelf": "reading"])
            for day in 1...25 {
                let date = String(format: "2026-02-%02d", day)
                _ = try await alice.post("/books/\(book)/progress", ["page": "\(day * 10)", "read_on": date])
            }
            let bob = WebSession(client)
            try await bob.register("bob")
            // A line a day: ten pages each day; the first day (her start) says "started".
            let first = try await bob.get("/house/feed").text
            #expect(first.contains(#"datetime="2026-02-25""#) && first.contains("read 10 pages of"))
            #expect(!first.contains(#"datetime="2026-02-04""#))
            #expect(first.contains(#"href="/house/feed?page=2""#))
            let second = try await bob.get("/house/feed?page=2").text
            #expect(second.contains(#"datetime="2026-02-04""#) && second.contains(#"href="/house/feed""#))
            #expect(second.contains("Alice</a></strong> started"))
            for bad in ["0", "51", "-1", "99999999999999999999", "x"] {
                #expect(try await bob.get("/house/feed?page=\(bad)").status == .ok)
            }
        }
    }
}

/// Sharing by choice (issue 25): a review, a photo or a list reaches the household only when its owner marks it
/// shared *and* shares their reading; unmarking it, or turning reading off, hides it again at once.
@Suite struct SharedByChoiceTests {
    @Test func aPhotoAListAndAReviewAreSeenOnlyWhenMarkedAndWhileTheirOwnerShares() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook([
                "title": "Marginalia Atlas", "isbn": SharingTests.isbn, "page_count": "300", "shelf": "read",
            ])
            _ = try await alice.post(
                "/books/\(book)/review",
                ["rating": "5", "review": "A shared review", "private_notes": "never shown", "review_shared": "1"])
            for comment in ["the shared quote", "the private quote"] {
                _ = try await alice.upload(
                    "/books/\(book)/photos", fields: [("page_number", "12"), ("comment", comment)],
                    files: [.init(data: TestImages.png)])
            }
            _ = try await alice.post("/lists", ["name": "Shared shelf of wonders"])
            _ = try await alice.post("/lists", ["name": "Private pile"])

            // The owner's switch: marked, but nobody sees it until she shares her reading.
            #expect(try await alice.get("/photos/1").text.contains("Share this photo"))
            let marked = try await alice.post("/photos/1/share", ["shared": "1"])
            #expect(marked.headers[.location] == "/photos/1?saved=shared#share-heading")
            #expect(try await alice.get("/photos/1").text.contains("so nobody sees it yet"))
            _ = try await alice.post("/lists/1/share", ["shared": "1"])
            #expect(try await alice.get("/lists/1").text.contains("Stop sharing this list"))
            #expect(try await alice.get("/house/photos/1").status == .ok)  // her own, as the others would see it

            let bob = WebSession(client)
            try await bob.register("bob")
            let bobsBook = try await bob.addBook(["title": "Bob's copy", "isbn": SharingTests.isbn])
            // Someone else's photo or list cannot be shared by Bob.
            #expect(try await bob.post("/photos/2/share", ["shared": "1"]).status == .notFound)
            #expect(try await bob.post("/lists/2/share", ["shared": "1"]).status == .notFound)

            let hidden = [
                "/house/photos/1", "/house/photos/1/display", "/house/photos/2", "/house/lists/1", "/house/lists/2",
            ]
            for path in hidden { #expect(try await bob.get(path).status == .notFound, "\(path)") }
            #expect(!(try await bob.get("/books/\(bobsBook)").text.contains("A shared review")))

            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            let feed = try await bob.get("/house/feed").text
            #expect(feed.contains(#"shared a photo from <a href="/house/photos/1">Marginalia Atlas</a>, page 12"#))
            #expect(feed.contains(#"shared the list <a href="/house/lists/1">Shared shelf of wonders</a>"#))
            #expect(!feed.contains("/house/photos/2") && !feed.contains("Private pile"))
            let photo = try await bob.get("/house/photos/1")
            #expect(photo.status == .ok && photo.text.contains("the shared quote"))
            #expect(photo.text.contains(#"href="/books/\#(bobsBook)""#))
            let image = try await bob.get("/house/photos/1/display")
            #expect(image.status == .ok && image.headers[.contentType] == "image/jpeg")
            for path in ["/house/photos/1/original", "/house/photos/2", "/house/photos/2/thumb", "/house/lists/2"] {
                #expect(try await bob.get(path).status == .notFound, "\(path)")
            }
            #expect(try await bob.get("/photos/1").status == .notFound)
            let list = try await bob.get("/house/lists/1")
            #expect(list.status == .ok && list.text.contains("A list by Alice"))
            let bookPage = try await bob.get("/books/\(bobsBook)").text
            #expect(bookPage.contains("A shared review") && !bookPage.contains("never shown"))

            // Unmarked: gone at once; her reading stays shared.
            _ = try await alice.post("/photos/1/share", [:])
            #expect(try await bob.get("/house/photos/1").status == .notFound)
            #expect(!(try await bob.get("/house/feed").text.contains("/house/photos/1")))
            _ = try await alice.post("/books/\(book)/review", ["rating": "5", "review": "A shared review"])
            #expect(!(try await bob.get("/books/\(bobsBook)").text.contains("A shared review")))

            // Reading off: the list still marked shared is hidden too.
            _ = try await alice.post("/profile/sharing", [:])
            #expect(try await bob.get("/house/lists/1").status == .notFound)
            #expect(!(try await bob.get("/").text.contains("Shared shelf of wonders")))
        }
    }
}
