import Foundation
import Testing

@testable import ShelfedKit

/// Search from anywhere (issue 36): the header of every signed-in page has the search field; one question answers
/// from the person's library (a title typed exactly first), their quotes and Google Books, each group short with a
/// way to all of it; when Google Books is away the person's own results still come, with a way forward.
@Suite struct FindTests {
    @Test func oneQuestionAnswersFromTheLibraryQuotesAndGoogleBooksInGroups() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                for title in ["The Harry Potter Cookbook", "Harry Potter", "A History of Harry Potter Fandom"] {
                    _ = try await web.addBook(["title": title, "authors": "Some Author"])
                }
                // Every signed-in page has the field, with nothing in it.
                for path in ["/", "/shelves", "/profile", "/favourites", "/search"] {
                    let page = try await web.get(path).text
                    #expect(page.contains(#"<form method="get" action="/find" class="topbar-search" role="search">"#))
                    #expect(
                        page.contains(
                            #"id="topbar-q" name="q" type="search" placeholder="Search" maxlength="300" value="""#),
                        "\(path)")
                }

                let found = try await web.get("/find?q=harry+potter")
                #expect(found.status == .ok)
                let text = found.text
                // The header keeps the question; the exact title comes first in the library group.
                #expect(
                    text.contains(
                        #"id="topbar-q" name="q" type="search" placeholder="Search" maxlength="300" value="harry potter""#
                    ))
                let library = try #require(
                    text.components(separatedBy: "id=\"find-library\"").last?.components(separatedBy: "</section>")
                        .first)
                let titles = library.components(separatedBy: "<a href=\"/books/").dropFirst().map {
                    String($0.split(separator: ">", maxSplits: 1)[1].prefix { $0 != "<" })
                }
                #expect(titles.first == "Harry Potter", "\(titles)")
                #expect(titles.count == 3)
                // Google Books' answers for the question, five at most, with one-tap add buttons.
                let books = try #require(text.components(separatedBy: "id=\"find-books\"").last)
                let results = books.components(separatedBy: "<li class=\"result\">").count - 1
                // The recorded answer has ten of 2,551: the group shows five and leads to the rest.
                #expect(results == FindController.booksShown, "\(results)")
                #expect(books.contains(#"action="/search/add""#))
                #expect(books.contains(#"<a href="/search?q=harry%20potter">More from Google Books</a>"#))

                // Nothing anywhere: the page says so, and what to try (it said nothing at all before).
                #expect(!text.contains("Nothing found for"))
                #expect(try await web.get("/find?q=zzqx").text.contains("Nothing found for “zzqx”"))

                // Google Books away: the library still answers, and the page says what to do.
                await fake.stop()
                let offline = try await web.get("/find?q=fandom")
                #expect(offline.status == .ok)
                #expect(offline.text.contains("A History of Harry Potter Fandom"))
                #expect(offline.text.contains("try Google Books again"))
                #expect(!(try await web.get("/find?q=qqqq").text.contains("Nothing found for")), "a failure says why")

                // Nothing typed: the page asks, with the field ready.
                #expect(try await web.get("/find").text.contains("autofocus"))
            }
        }
    }

    @Test func aTitleTypedExactlyComesFirstIgnoringCaseAndAccents() {
        let matches = ["Laberinto en llamas", "En llamas", "En Llamas: a study"].enumerated().map { index, title in
            TextSearchStore.LibraryMatch(
                bookID: Int64(index), title: title, authors: "", shelf: .read, snippet: "", coverPath: nil)
        }
        #expect(FindController.exactTitlesFirst(matches, query: "en llamas").map(\.title).first == "En llamas")
        #expect(FindController.exactTitlesFirst(matches, query: "ÉN LLAMAS").map(\.bookID) == [1, 0, 2])
    }

    /// Google Books' answers too: the title typed first, the rest in Google's order.
    @Test func googleBooksAnswersPutTheTitleTypedFirst() {
        let volumes = ["Laberinto en llamas", "Los juegos del hambre", "En llamas", "en llamas "].map { title in
            VolumeResult(
                provider: .googleBooks, volumeId: title, title: title, subtitle: nil, authors: [], publisher: nil,
                publishedDate: nil, description: nil, pageCount: nil, categories: [], language: nil, isbn10: nil,
                isbn13: nil, coverURL: nil, thumbnailURL: nil, averageRating: nil, ratingsCount: nil)
        }
        let ordered = FindController.exactTitlesFirst(volumes, query: " En Llamas", title: \.title).map(\.title)
        #expect(ordered == ["En llamas", "en llamas ", "Laberinto en llamas", "Los juegos del hambre"])
    }
}
