import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// A housemate's page (issue 36): from the feed, what a member who shares is reading now, has read this year and
/// wants to read, their shared lists and their part of the challenge; a book the viewer has not got is one tap from
/// Want to read. A member who does not share has no such page: 404, like any unknown id.
@Suite struct HousematePageTests {
    @Test func aMemberWhoSharesHasAPageFromTheFeedAndOneWhoDoesNotHasNone() async throws {
        let app = TestApp()  // 2026-03-15
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            _ = try await alice.addBook(["title": "Reading Right Now", "shelf": "reading"])
            let finished = try await alice.addBook(["title": "Done This Year", "shelf": "reading"])
            _ = try await alice.post("/books/\(finished)/shelf", ["shelf": "read"])
            let someday = try await alice.addBook(["title": "Someday <Maybe>", "isbn": "9780140449136"])
            // As search would have added it: a provider's row, which anyone may add.
            try await app.database().write { db in
                try db.execute(
                    sql: "UPDATE book SET owner_user_id = NULL, source = 'google' WHERE id = ?", arguments: [someday])
            }
            let list = try await alice.post("/lists", ["name": "Alice's shared list"])
            let listPath = try #require(list.headers[.location]?.components(separatedBy: "?").first)
            _ = try await alice.post(listPath + "/share", ["shared": "1"])
            _ = try await alice.post("/lists", ["name": "Alice's private list"])

            let bob = WebSession(client)
            try await bob.register("bob")
            let carol = WebSession(client)
            try await carol.register("carol")
            let carolsBook = try await carol.addBook(["title": "Carol's Provider Book", "isbn": "9780306406157"])
            try await app.database().write { db in
                try db.execute(
                    sql: "UPDATE book SET owner_user_id = NULL, source = 'google' WHERE id = ?", arguments: [carolsBook]
                )
            }

            // From Bob's feed, Alice's name leads to her page.
            #expect(try await bob.get("/").text.contains(#"<strong><a href="/house/members/1">Alice</a></strong>"#))
            let page = try await bob.get("/house/members/1")
            #expect(page.status == .ok)
            let text = page.text
            for (heading, title) in [
                ("Reading now", "Reading Right Now"), ("Read in 2026", "Done This Year"),
                ("Wants to read", "Someday &lt;Maybe&gt;"),
            ] {
                let section = try #require(text.components(separatedBy: heading).dropFirst().first)
                #expect(section.components(separatedBy: "</section>")[0].contains(title), "\(heading)")
            }
            #expect(text.contains("Alice&#39;s shared list") || text.contains("Alice's shared list"))
            #expect(!text.contains("private list"))
            // One tap to Bob's Want to read for each book he has not got; back to this page after. Each title opens
            // the book in Shelfed.
            #expect(text.contains(#"action="/house/books/\#(someday)/add""#))
            #expect(text.contains(#"<input type="hidden" name="return_to" value="/house/members/1">"#))
            #expect(text.components(separatedBy: "+ Want to read").count - 1 == 3)
            #expect(text.contains(#"<a href="/house/books/\#(someday)">Someday &lt;Maybe&gt;</a>"#))
            let added = try await bob.post("/house/books/\(someday)/add", ["return_to": "/house/members/1"])
            #expect(added.status == .seeOther && added.headers[.location]?.hasPrefix("/house/members/1") == true)
            let after = try await bob.get("/house/members/1").text
            #expect(after.contains(#"<a href="/books/\#(someday)">Someday &lt;Maybe&gt;</a>"#))
            #expect(try await bob.get("/shelves/want-to-read").text.contains("Someday &lt;Maybe&gt;"))
            // Carol does not share: her book is not Bob's to open or add.
            #expect(try await bob.post("/house/books/\(carolsBook)/add", [:]).status == .notFound)
            #expect(try await bob.get("/house/books/\(carolsBook)").status == .notFound)
            // A typed book of Alice's: Bob gets a copy of his own, and Alice's row stays hers.
            let copied = try await bob.post("/house/books/\(finished)/add", [:])
            #expect(copied.status == .seeOther)
            let owners = try await app.database().writer.read { db in
                try Row.fetchAll(db, sql: "SELECT owner_user_id FROM book WHERE title = 'Done This Year' ORDER BY id")
                    .map { $0[0] as Int64? }
            }
            #expect(owners == [1, 2])

            // Carol does not share; Bob himself is not a housemate to himself; nor is anyone unknown.
            for path in ["/house/members/3", "/house/members/2", "/house/members/99", "/house/members/x"] {
                #expect(try await bob.get(path).status == .notFound, "\(path)")
            }
            // Alice stops sharing: her page is gone at once.
            _ = try await alice.post("/profile/sharing", [:])
            #expect(try await bob.get("/house/members/1").status == .notFound)
        }
    }

    /// A book opened from the house (issue 36, part 4): what it is, who has it with "Ask to borrow" where a copy is
    /// free, who recommended it, and Want to read in one tap; the viewer's own copy opens their own page.
    @Test func aBookFromTheHouseOpensInShelfedAndIsAddedInOneTap() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.post("/profile/sharing", ["shares": "1"])
            let book = try await alice.addBook([
                "title": "The Dispossessed", "authors": "Ursula K. Le Guin", "shelf": "read",
                "description": "An ambiguous utopia.",
            ])
            _ = try await alice.post("/books/\(book)/copy", ["owned": "1"])
            let bob = WebSession(client)
            try await bob.register("bob")
            _ = try await alice.post("/books/\(book)/recommend", ["member": "2", "note": "You'll love Shevek"])

            // From Bob's home page, the recommendation opens the book in Shelfed, not a book search.
            let home = try await bob.get("/").text
            #expect(home.contains(#"<a href="/house/books/\#(book)">The Dispossessed</a>"#))
            let page = try await bob.get("/house/books/\(book)")
            #expect(page.status == .ok)
            #expect(page.text.contains("An ambiguous utopia."))
            #expect(page.text.contains("recommends it: “You&#39;ll love Shevek”"))
            #expect(page.text.contains(#"<a href="/house/members/1">Alice</a>"#))
            #expect(page.text.contains(">Ask to borrow</button>"))
            #expect(page.text.contains(#"<input type="hidden" name="return_to" value="/house/books/\#(book)">"#))
            #expect(page.text.contains(#"action="/house/books/\#(book)/add""#))

            let added = try await bob.post("/house/books/\(book)/add", [:])
            #expect(added.status == .seeOther)
            let bobsBook = try #require(added.headers[.location]?.firstMatch(of: /\/books\/(\d+)/)?.1)
            #expect(try await bob.get("/shelves/want-to-read").text.contains("The Dispossessed"))
            // Now his own: the house page opens his book page.
            let again = try await bob.get("/house/books/\(book)")
            #expect(again.status == .seeOther && again.headers[.location] == "/books/\(bobsBook)")

            // Unknown, malformed, and a book of someone who does not share: 404.
            let carol = WebSession(client)
            try await carol.register("carol")
            let hidden = try await carol.addBook(["title": "Carol's Secret"])
            for path in ["/house/books/\(hidden)", "/house/books/999", "/house/books/x"] {
                #expect(try await bob.get(path).status == .notFound, "\(path)")
            }
        }
    }
}
