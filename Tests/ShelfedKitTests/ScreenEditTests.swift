import Foundation
import GRDB
import HummingbirdTesting
import Testing

@testable import ShelfedKit

/// Editing a film or show (issue 37): the form speaks of its kind — a director, a year, a film's running time, no
/// ISBN, pages or publisher — checks it as that kind whatever is sent, and keeps what it does not show (a show's
/// episode running time from its provider).
@Suite struct ScreenEditTests {
    @Test func aFilmsFormHasItsOwnFieldsAndItsRunningTimeIsEdited() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let film = try await web.addBook(ScreenTitleTests.film)
            let form = try await web.get("/books/\(film)/edit").text
            #expect(form.contains("<h1>Edit the film</h1>"))
            #expect(form.contains(#"<label for="authors">Directed by</label>"#))
            #expect(form.contains(#"<label for="published_date">Year</label>"#))
            #expect(form.contains(#"id="runtime" name="runtime" value="155""#))
            #expect(!form.contains(#"name="isbn""#) && !form.contains(#"name="page_count""#))
            #expect(!form.contains(#"name="publisher""#))

            var fields = [
                "title": "Dune", "authors": "Denis Villeneuve", "published_date": "2021", "runtime": "156",
                "description": "Part one.",
            ]
            let saved = try await web.post("/books/\(film)/edit", fields)
            #expect(saved.status == .seeOther)
            let page = try await web.get("/books/\(film)").text
            #expect(page.contains("Film · 2021 · 2 h 36 min"))

            // Sent anyway, an ISBN or a running time in words is refused with what was typed kept.
            fields["isbn"] = "9780441172719"
            fields["runtime"] = "two hours"
            let refused = try await web.post("/books/\(film)/edit", fields)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.text.contains("A film has no ISBN. Leave it empty."))
            #expect(refused.text.contains("Enter the running time in minutes"))
            #expect(refused.text.contains(#"value="two hours""#))
        }
    }

    @Test func aShowKeepsItsEpisodesRunningTimeWhenEdited() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let show = try await ShowEpisodeTests.add(web, "tvmaze", "44778")
                let form = try await web.get("/books/\(show)/edit").text
                #expect(form.contains("<h1>Edit the TV show</h1>") && form.contains("Created by"))
                #expect(!form.contains(#"name="runtime""#))
                #expect(form.contains("came from a film and TV service"))
                let saved = try await web.post(
                    "/books/\(show)/edit", ["title": "Severance", "authors": "Dan Erickson", "published_date": "2022"])
                #expect(saved.status == .seeOther)
                let own = try #require(ScreenAddTests.bookID(from: saved))
                let runtime = try await app.database().writer.read { db in
                    try Int.fetchOne(db, sql: "SELECT runtime_minutes FROM book WHERE id = ?", arguments: [own])
                }
                #expect(runtime == 52)
                #expect(try await web.get("/books/\(own)").text.contains("52 min episodes"))
            }
        }
    }

    @Test func aQuarterStarGivenOnTheWebIsAHalfStepThroughTheTitlesAPI() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let film = try await web.addBook(ScreenTitleTests.film)
            var api = APIClient(client)
            try await api.signIn("alice@example.com")
            for (given, answered) in [("4.25", 4.5), ("3.75", 4.0), ("0.25", 0.5), ("5", 5.0)] {
                _ = try await web.post("/books/\(film)/rating", ["rating": given])
                let title = try await api.get("/api/v1/titles/\(film)").json
                #expect((title?["rating"] as? NSNumber)?.doubleValue == answered, "\(given)")
            }
        }
    }
}
