import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Issue 22, finding 2: any book can be edited after it is added, its cover too, without changing anyone else's.
@Suite("Editing a book")
struct BookEditTests {
    static let fields = [
        "title": "Dune", "subtitle": "Book One", "authors": "Frank Herbert, Brian Herbert", "isbn": "9780441172719",
        "page_count": "412", "published_date": "1965-08", "publisher": "Chilton", "description": "Spice.",
    ]

    @Test("a hand-added book changes in place; the form shows every field and keeps typed text on a mistake")
    func ownBookChangesInPlace() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Duen", "authors": "F. Herbert"])
            #expect(try await web.get("/books/\(id)").text.contains(#"href="/books/\#(id)/edit""#))
            let form = try await web.get("/books/\(id)/edit").text
            #expect(form.contains(#"id="title" name="title" value="Duen""#))
            #expect(form.contains(#"id="authors" name="authors" value="F. Herbert""#))

            let wrong = try await web.post("/books/\(id)/edit", Self.fields.merging(["page_count": "many"]) { $1 })
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.text.contains(#"id="page_count" name="page_count" value="many""#))
            #expect(wrong.text.contains(#"<p class="field-error" id="page_count-error">"#))
            #expect(wrong.text.contains(#"id="subtitle" name="subtitle" value="Book One""#))

            let saved = try await web.post("/books/\(id)/edit", Self.fields)
            #expect(saved.headers[.location] == "/books/\(id)?saved=book")
            let book = try #require(try await app.database().writer.read { db in try Book.fetchOne(db, key: id) })
            #expect(book.title == "Dune" && book.subtitle == "Book One")
            #expect(book.authors == ["Frank Herbert", "Brian Herbert"] && book.isbn13 == "9780441172719")
            #expect(book.isbn10 == "0441172717" && book.pageCount == 412 && book.publishedDate == "1965-08")
            #expect(book.publisher == "Chilton" && book.description == "Spice.")
            let page = try await web.get("/books/\(id)?saved=book").text
            #expect(page.contains("Saved the book&#39;s details.") || page.contains("Saved the book's details."))
            #expect(try await web.get("/shelves").text.contains("Frank Herbert, Brian Herbert"))
        }
    }

    @Test("editing a provider's shared book gives that person their own copy; nobody else's book changes")
    func sharedBookBecomesOwnCopy() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let alice = WebSession(client)
                try await alice.register("alice")
                let bob = WebSession(client)
                try await bob.register("bob")
                for web in [alice, bob] {
                    try await web.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "reading"])
                }
                let shared = try #require(try await app.database().writer.read { db in try Book.fetchOne(db) })
                let sharedID = try #require(shared.id)
                _ = try await alice.upload(
                    "/books/\(sharedID)/photos", fields: [("page_number", "3")], files: [.init(data: TestImages.png)])

                let edited = try await alice.post(
                    "/books/\(sharedID)/edit",
                    [
                        "title": "Near to the Wild Heart (my translation)", "authors": "Clarice Lispector",
                        "isbn": "9780241600504", "page_count": "208",
                    ])
                let location = try #require(edited.headers[.location])
                let copyID = try #require(Int64(location.dropFirst("/books/".count).prefix { $0.isNumber }))
                #expect(copyID != sharedID)
                let (copy, original, aliceEntry, bobEntry, photoBook) = try await app.database().writer.read { db in
                    (
                        try Book.fetchOne(db, key: copyID), try Book.fetchOne(db, key: sharedID),
                        try UserBook.filter(Column("user_id") == 1).fetchOne(db),
                        try UserBook.filter(Column("user_id") == 2).fetchOne(db),
                        try Int64.fetchOne(db, sql: "SELECT book_id FROM photo")
                    )
                }
                #expect(copy?.title == "Near to the Wild Heart (my translation)" && copy?.ownerUserId == 1)
                #expect(
                    copy?.coverPath == shared.coverPath && copy?.categories == shared.categories
                        && copy?.publisher == nil)
                #expect(original?.title == "Near to the Wild Heart" && original?.ownerUserId == nil)
                #expect(aliceEntry?.bookId == copyID && aliceEntry?.shelf == .reading)
                #expect(bobEntry?.bookId == sharedID)
                #expect(photoBook == copyID)
                #expect(try await bob.get("/books/\(sharedID)").text.contains("<h1>Near to the Wild Heart</h1>"))
                #expect(try await alice.get("/books/\(sharedID)").status == .notFound)
                // Still one copy for Alice: adding the same volume again finds hers.
                let again = try await alice.post("/search/add", ["volume_id": "0yNhEAAAQBAJ", "shelf": "read"])
                #expect(again.headers[.location] == "/books/\(copyID)")
                // Bob cannot edit Alice's copy.
                #expect(try await bob.post("/books/\(copyID)/edit", ["title": "Mine now"]).status == .notFound)
                #expect(try await bob.get("/books/\(copyID)/edit").status == .notFound)
            }
        }
    }

    @Test("an ISBN of another book in the library is refused with a link to it")
    func duplicateISBN() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let first = try await web.addBook(["title": "Dune", "isbn": "9780441172719"])
            let second = try await web.addBook(["title": "Emma"])
            let refused = try await web.post("/books/\(second)/edit", ["title": "Emma", "isbn": "0441172717"])
            #expect(refused.status == .conflict)
            #expect(refused.text.contains(#"href="/books/\#(first)""#))
            #expect(refused.text.contains(#"id="title" name="title" value="Emma""#))
        }
    }

    @Test("a cover uploaded for a book without one goes through the photo pipeline and is served")
    func uploadCover() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let id = try await web.addBook(["title": "Imported Without a Cover"])
            let none = try await web.upload("/books/\(id)/cover", files: [])
            #expect(none.status == .unprocessableContent)
            #expect(none.text.contains(#"<p class="field-error" id="cover-error">Choose a picture"#))
            let notImage = try await web.upload("/books/\(id)/cover", files: [.init(data: Data("hello".utf8))])
            #expect(notImage.status == .unsupportedMediaType)
            let saved = try await web.upload(
                "/books/\(id)/cover", files: [.init(data: try TestImages.fixture("Portrait_6.jpg"))])
            #expect(saved.headers[.location] == "/books/\(id)?saved=cover")
            let cover = try #require(
                try await app.database().writer.read { db in try Book.fetchOne(db, key: id)?.coverPath })
            let served = try await web.get("/covers/\(cover)")
            #expect(served.status == .ok && served.headers[.contentType] == "image/jpeg")
            #expect(try await web.get("/books/\(id)").text.contains(#"src="/covers/\#(cover)""#))
            #expect(app.incomingFiles().isEmpty)
        }
    }

    @Test("a cover can be picked from what the providers have for the book's ISBN")
    func pickCover() async throws {
        try await FakeBooksServer.run { fake in
            let app = TestApp(search: fake.settings())
            try await app.run { client in
                let web = WebSession(client)
                try await web.register("alice")
                let id = try await web.addBook(["title": "The Complete Essays", "isbn": "9780140446043"])
                let choices = try await web.get("/books/\(id)/cover/choices")
                #expect(choices.status == .ok)
                #expect(choices.text.contains(#"name="choice" value="0""#))
                #expect(choices.text.contains("/b/isbn/9780140446043-L.jpg"))
                #expect(try await web.post("/books/\(id)/cover/choices", ["choice": "9"]).status == .badRequest)
                let picked = try await web.post("/books/\(id)/cover/choices", ["choice": "0"])
                #expect(picked.headers[.location] == "/books/\(id)?saved=cover")
                let cover = try await app.database().writer.read { db in try Book.fetchOne(db, key: id)?.coverPath }
                #expect(cover != nil)
                let noISBN = try await web.addBook(["title": "No Number"])
                #expect(try await web.get("/books/\(noISBN)/cover/choices").status == .notFound)
            }
        }
    }
}
