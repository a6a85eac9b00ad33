import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// The book page's first screen (issue 36, part 1): the stars save on one tap with an Undo, each shelf offers the one
/// step it needs and no form that does not fit it, and what readers elsewhere think is shown with its source. Today
/// is 2026-03-15.
@Suite struct BookPageFirstScreenTests {
    @Test func aStarSavesOnOneTapAndTheNoticeOffersToPutBackTheRatingBefore() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Dune", "shelf": "read"])
            let page = try await alice.get("/books/\(book)").text
            #expect(page.contains(#"<form method="post" action="/books/\#(book)/rating" class="quick-rating">"#))
            #expect(page.contains(#"aria-label="Rate it 4 stars""#))

            let rated = try await alice.post("/books/\(book)/rating", ["rating": "4"])
            #expect(rated.status == .seeOther, "\(rated.text.prefix(3000))")
            let back = try #require(rated.headers[.location])
            #expect(back == "/books/\(book)?done=rated&book=\(book)&was_rating=none")
            let after = try await alice.get(back).text
            #expect(after.contains("Rated <em>Dune</em> 4 stars."))
            #expect(
                after.contains(
                    #"<input type="hidden" name="rating" value=""><input type="hidden" name="undo" value="1">"#))
            #expect(after.components(separatedBy: "quick-star is-on").count - 1 == 4)
            #expect(after.contains(#"aria-label="Take off your rating of 4 stars" aria-pressed="true""#))

            // Undo puts back no rating, and says so without offering to undo the undo.
            let undone = try await alice.post("/books/\(book)/rating", ["rating": "", "undo": "1"])
            let undonePage = try await alice.get(try #require(undone.headers[.location])).text
            #expect(undonePage.contains("Took your rating off <em>Dune</em>."))
            #expect(!undonePage.contains(#"name="undo" value="1""#))
            let stored = try app.database().writer.read { db in
                try Row.fetchOne(db, sql: "SELECT rating FROM user_book WHERE book_id = ?", arguments: [book])
            }
            #expect(stored?["rating"] as Double? == nil && stored != nil)

            // A quarter rating from the review form shows as such; a new tap remembers it for Undo.
            _ = try await alice.post("/books/\(book)/review", ["rating": "3.75", "review": ""])
            let again = try await alice.post("/books/\(book)/rating", ["rating": "5"])
            #expect(again.headers[.location]?.hasSuffix("was_rating=3.75") == true)
            let quarter = try await alice.get(again.headers[.location]!).text
            #expect(quarter.contains(#"<input type="hidden" name="rating" value="3.75">"#))

            // Nonsense is refused with a page that says what to do, and a forged "was" offers no Undo.
            let refused = try await alice.post("/books/\(book)/rating", ["rating": "11"])
            #expect(refused.status == .badRequest && refused.text.contains("Choose a rating from ½ to 5 stars"))
            let forged = try await alice.get("/books/\(book)?done=rated&book=\(book)&was_rating=%22%3E").text
            #expect(forged.contains("Rated <em>Dune</em> 5 stars.") && !forged.contains(#"name="undo""#))
        }
    }

    @Test func anotherPersonsBookCannotBeRated() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Dune", "shelf": "read"])
            let bob = WebSession(client)
            try await bob.register("bob")
            #expect(try await bob.post("/books/\(book)/rating", ["rating": "1"]).status == .notFound)
        }
    }

    @Test func eachShelfOffersTheOneStepItNeedsAndNoFormThatDoesNotFitIt() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            func page(_ shelf: String) async throws -> String {
                let book = try await alice.addBook(["title": "A book on \(shelf)", "page_count": "300", "shelf": shelf])
                return try await alice.get("/books/\(book)").text
            }
            let wanted = try await page("want_to_read")
            #expect(wanted.contains(#"value="reading" class="button primary shelf-next">Start reading</button>"#))
            let wantedID = try #require(wanted.firstMatch(of: /action="\/books\/(\d+)\/favourite"/)?.1)
            #expect(wanted.contains(#"<form method="post" action="/books/\#(wantedID)/shelf" class="inline">"#))
            #expect(!wanted.contains("quick-rating") && !wanted.contains(#"id="page""#))
            #expect(!wanted.contains(#"id="started_at""#) && !wanted.contains(#"id="lent_on""#))
            // The review and private notes stay for any book.
            #expect(wanted.contains(#"id="private_notes""#))

            let reading = try await page("reading")
            #expect(reading.contains(#"<span class="shelf-line">since today</span>"#))
            #expect(reading.contains(#"id="page""#) && reading.contains(">Finished</button>"))
            #expect(reading.contains(#"id="started_at""#) && reading.contains("quick-rating"))

            let read = try await page("read")
            #expect(read.contains(#"<span class="shelf-line">date unknown</span>"#))
            #expect(read.contains(">Read it again</button>") && !read.contains(#"id="page""#))

            let stopped = try await page("did_not_finish")
            #expect(stopped.contains(">Pick it up again</button>") && !stopped.contains(#"id="page""#))

            // Lending appears once the person owns a copy.
            #expect(!reading.contains(#"id="lent_on""#))
            let owned = try await alice.addBook(["title": "Owned", "shelf": "read"])
            _ = try await alice.post("/books/\(owned)/copy", ["owned": "1"])
            let saved = try await alice.get("/books/\(owned)?saved=copy").text
            #expect(saved.contains(#"id="lent_on""#))
            #expect(saved.contains(#"<details class="book-copy" open>"#), "the section just saved is open")
        }
    }

    @Test func aRefusedFormOpensItsDisclosureWithTheTextKept() async throws {
        try await TestApp().run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let book = try await alice.addBook(["title": "Dune", "shelf": "read"])
            let refused = try await alice.post(
                "/books/\(book)/dates", ["started_at": "2026-03-10", "finished_at": "2026-03-01"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains(#"<details class="book-dates" open>"#))
            #expect(refused.text.contains("The finish date is before the start date."))
            #expect(refused.text.contains(#"value="2026-03-01""#))
            // The full page, not a cut-down one: More like this and the rest are there.
            #expect(refused.text.contains(#"class="book-extras""#) && refused.text.contains("Remove from library"))
            // A book not started has no dates form, until dates typed for it are refused: then it comes back with them.
            let wanted = try await alice.addBook(["title": "Not yet", "shelf": "want_to_read"])
            #expect(try await !alice.get("/books/\(wanted)").text.contains(#"id="started_at""#))
            let typed = try await alice.post("/books/\(wanted)/dates", ["started_at": "+1", "finished_at": ""])
            #expect(typed.status == .unprocessableContent)
            #expect(typed.text.contains(#"<details class="book-dates" open>"#) && typed.text.contains(#"value="+1""#))
        }
    }

    @Test func aBookAddedFromGoogleShowsWhatItsReadersThink() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                try await alice.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "reading"])
                let book = try #require(try await app.database().writer.read { db in try Book.fetchOne(db) })
                let page = try await alice.get("/books/\(book.id!)").text
                // The recording: averageRating 4, ratingsCount 3.
                #expect(page.contains("4 from 3 ratings on Google Books"))
            }
        }
    }

    @Test func readersElsewhereAreShownWithTheirSource() throws {
        #expect(CommunityRating(goodreadsCell: "4.03")?.text == "4.03 on Goodreads")
        #expect(CommunityRating(goodreadsCell: "=\"3.5\"")?.text == "3.5 on Goodreads")
        #expect(CommunityRating(goodreadsCell: "0.00") == nil, "Goodreads writes 0.00 for a book nobody rated")
        #expect(CommunityRating(goodreadsCell: "nan") == nil)
        #expect(CommunityRating(goodreadsCell: "7") == nil)
        #expect(
            CommunityRating(average: 4.1, count: 1234, source: "Google Books")?.text
                == "4.1 from 1,234 ratings on Google Books")
        #expect(
            CommunityRating(average: 4, count: 1, source: "Google Books")?.text == "4 from 1 rating on Google Books")
        #expect(CommunityRating(average: 4, count: -5, source: "Google Books")?.count == nil)
    }
}
