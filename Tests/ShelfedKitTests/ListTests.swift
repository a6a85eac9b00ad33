import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Lists (issue 24): made, renamed, described and deleted after asking; books added from their page or a card,
/// reordered without JavaScript (up/down) and by place (the drag script and the API), taken off; filtered like the
/// shelves. Another person's list or book is a 404 everywhere.
@Suite struct ListTests {
    /// The list ids of `alice`, newest last, read from the database.
    private func listIDs(_ app: TestApp) async throws -> [Int64] {
        try await app.database().read { db in try Int64.fetchAll(db, sql: "SELECT id FROM list ORDER BY id") }
    }

    /// The titles of a list page's books in the order shown.
    private func titles(on page: String, among candidates: [String]) -> [String] {
        candidates.compactMap { title in page.range(of: ">\(title)</a></h2>").map { (title, $0.lowerBound) } }
            .sorted { $0.1 < $1.1 }.map(\.0)
    }

    @Test func aListIsMadeFilledReorderedRenamedAndDeletedOnTheWeb() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let dune = try await alice.addBook(["title": "Dune", "authors": "Frank Herbert"])
            let emma = try await alice.addBook(["title": "Emma", "authors": "Jane Austen", "shelf": "read"])
            let kim = try await alice.addBook(["title": "Kim", "authors": "Rudyard Kipling"])

            // Empty state, then a refused name keeps the typed description.
            var index = try await alice.get("/lists")
            #expect(index.status == .ok && index.text.contains("No lists yet."))
            let unnamed = try await alice.post("/lists", ["name": "  ", "description": "Books for the beach"])
            #expect(unnamed.status == .unprocessableContent)
            #expect(unnamed.text.contains("Give the list a name") && unnamed.text.contains(">Books for the beach<"))
            let tooLong = try await alice.post("/lists", ["name": String(repeating: "n", count: 101)])
            #expect(tooLong.status == .unprocessableContent && tooLong.text.contains("Keep the name to 100 characters"))
            #expect(try await alice.post("/lists", ["name": "Beach\u{1}"]).status == .unprocessableContent)

            let made = try await alice.post("/lists", ["name": "Summer reading", "description": "For the beach"])
            #expect(made.status == .seeOther)
            let listID = try #require(try await listIDs(app).first)
            #expect(made.headers[.location] == "/lists/\(listID)?saved=list-created")
            // Names are unique per person, case aside.
            let twice = try await alice.post("/lists", ["name": "SUMMER reading"])
            #expect(twice.status == .unprocessableContent && twice.text.contains("already have a list of that name"))
            #expect(twice.text.contains(#"value="SUMMER reading""#))

            var page = try await alice.get("/lists/\(listID)")
            #expect(page.status == .ok && page.text.contains("This list is empty."))
            #expect(page.text.contains("For the beach"))

            // Added from the book page's own form and from the "Lists…" page a shelf card links to.
            let book = try await alice.get("/books/\(dune)").text
            #expect(book.contains(#"href="/books/\#(dune)/lists""#) && book.contains("Not on any of your lists."))
            let added = try await alice.post("/lists/\(listID)/books", ["book_id": "\(dune)"])
            #expect(added.headers[.location] == "/books/\(dune)?saved=list-added#lists-heading")
            let shelf = try await alice.get("/shelves").text
            #expect(shelf.contains(#"href="/books/\#(emma)/lists?return_to=/shelves""#))
            let choices = try await alice.get("/books/\(emma)/lists?return_to=%2Fshelves")
            #expect(
                choices.text.contains(#"name="list" value="\#(listID)""#) && choices.text.contains("Summer reading"))
            let chosen = try await alice.post(
                "/books/\(emma)/lists", ["list": "\(listID)", "return_to": "/shelves"])
            #expect(chosen.headers[.location] == "/shelves?saved=lists")
            _ = try await alice.post("/books/\(kim)/lists", ["list": "\(listID)"])
            // Added twice: one place.
            _ = try await alice.post("/lists/\(listID)/books", ["book_id": "\(dune)"])
            page = try await alice.get("/lists/\(listID)")
            #expect(titles(on: page.text, among: ["Dune", "Emma", "Kim"]) == ["Dune", "Emma", "Kim"])
            #expect(page.text.contains("3 books"))
            #expect(
                try await alice.get("/books/\(dune)").text.contains(#"href="/lists/\#(listID)">Summer reading</a>"#))

            // Move up and down without JavaScript; the first cannot go up.
            #expect(page.text.contains(#"aria-label="Move Dune up" disabled"#))
            let down = try await alice.post("/lists/\(listID)/books/\(dune)/move", ["direction": "down"])
            #expect(down.headers[.location] == "/lists/\(listID)#item-\(dune)")
            page = try await alice.get("/lists/\(listID)")
            #expect(titles(on: page.text, among: ["Dune", "Emma", "Kim"]) == ["Emma", "Dune", "Kim"])
            // The drag script: a place, asking for JSON, answered 204.
            let dragged = try await client.execute(
                uri: "/lists/\(listID)/books/\(kim)/move", method: .post,
                headers: [
                    .contentType: "application/x-www-form-urlencoded", .accept: "application/json",
                    .cookie: alice.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "),
                ],
                body: .init(string: "position=1&_csrf=\(alice.csrfToken ?? "")"))
            #expect(dragged.status == .noContent)
            page = try await alice.get("/lists/\(listID)")
            #expect(titles(on: page.text, among: ["Dune", "Emma", "Kim"]) == ["Kim", "Emma", "Dune"])
            // A place that is no number, or past the bounds, is refused; past the end is the end.
            #expect(try await alice.post("/lists/\(listID)/books/\(kim)/move", ["position": "x"]).status.code == 400)
            #expect(try await alice.post("/lists/\(listID)/books/\(kim)/move", ["position": "0"]).status.code == 400)
            _ = try await alice.post("/lists/\(listID)/books/\(kim)/move", ["position": "99"])
            page = try await alice.get("/lists/\(listID)")
            #expect(titles(on: page.text, among: ["Dune", "Emma", "Kim"]) == ["Emma", "Dune", "Kim"])

            // Filtered like a shelf: only the matches, and no reordering among them.
            let filtered = try await alice.get("/lists/\(listID)?author=austen").text
            #expect(titles(on: filtered, among: ["Dune", "Emma", "Kim"]) == ["Emma"])
            #expect(filtered.contains("1 of 3 books match") && filtered.contains("Clear the filters to reorder"))
            #expect(!filtered.contains(#"value="up""#))

            // Taken off: the gap closes, the book stays in the library.
            let removed = try await alice.post("/lists/\(listID)/books/\(dune)/remove")
            #expect(removed.headers[.location] == "/lists/\(listID)?done=list-removed&book=\(dune)")
            page = try await alice.get("/lists/\(listID)?done=list-removed&book=\(dune)")
            #expect(page.text.contains("Took <em>Dune</em> off the list. It is still on your shelves."))
            #expect(titles(on: page.text, among: ["Dune", "Emma", "Kim"]) == ["Emma", "Kim"])
            #expect(try await alice.get("/books/\(dune)").status == .ok)
            #expect(try await alice.post("/lists/\(listID)/books/\(dune)/remove").status == .notFound)

            // Renamed and described; a clash with another list of hers is refused with her text kept.
            _ = try await alice.post("/lists", ["name": "Winter"])
            let clash = try await alice.post("/lists/\(listID)/edit", ["name": "winter", "description": "kept"])
            #expect(clash.status == .unprocessableContent && clash.text.contains(">kept</textarea>"))
            let renamed = try await alice.post(
                "/lists/\(listID)/edit", ["name": "Beach books", "description": "Line one\nLine two"])
            #expect(renamed.headers[.location] == "/lists/\(listID)?saved=list")
            index = try await alice.get("/lists")
            #expect(index.text.contains("Beach books") && index.text.contains("2 books"))

            // Deleted only after asking; the books stay.
            let ask = try await alice.get("/lists/\(listID)/delete")
            #expect(ask.text.contains("Its 2 books stay in your library"))
            let deleted = try await alice.post("/lists/\(listID)/delete")
            #expect(deleted.headers[.location] == "/lists?saved=list-deleted")
            #expect(try await alice.get("/lists/\(listID)").status == .notFound)
            #expect(try await alice.get("/books/\(emma)").status == .ok)
        }
    }

    @Test func anotherPersonsListAndBooksAreNotFoundEverywhere() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            let dune = try await alice.addBook(["title": "Dune"])
            _ = try await alice.post("/lists", ["name": "Private picks"])
            let listID = try #require(try await listIDs(app).first)
            _ = try await alice.post("/lists/\(listID)/books", ["book_id": "\(dune)"])

            let bob = WebSession(client)
            try await bob.register("bob")
            let bobsBook = try await bob.addBook(["title": "Emma"])
            #expect(!(try await bob.get("/lists").text.contains("Private picks")))
            for path in [
                "/lists/\(listID)", "/lists/\(listID)/edit", "/lists/\(listID)/delete", "/books/\(dune)/lists",
            ] {
                let answer = try await bob.get(path)
                #expect(answer.status == .notFound, "GET \(path)")
                #expect(!answer.text.contains("Private picks"))
            }
            let posts: [(String, [String: String])] = [
                ("/lists/\(listID)/edit", ["name": "Mine now"]), ("/lists/\(listID)/delete", [:]),
                ("/lists/\(listID)/books", ["book_id": "\(bobsBook)"]),
                ("/lists/\(listID)/books/\(dune)/remove", [:]),
                ("/lists/\(listID)/books/\(dune)/move", ["direction": "up"]),
                ("/books/\(dune)/lists", ["list": "\(listID)"]),
            ]
            for (path, fields) in posts {
                #expect(try await bob.post(path, fields).status == .notFound, "POST \(path)")
            }
            // Bob's own list cannot take Alice's book, nor can his book list choice name her list.
            _ = try await bob.post("/lists", ["name": "Bob's"])
            let bobsList = try #require(try await listIDs(app).last)
            #expect(try await bob.post("/lists/\(bobsList)/books", ["book_id": "\(dune)"]).status == .notFound)
            _ = try await bob.post("/books/\(bobsBook)/lists", ["list": "\(listID)"])
            let (name, count) = try await app.database().read { db in
                (
                    try String.fetchOne(db, sql: "SELECT name FROM list WHERE id = ?", arguments: [listID]),
                    try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM list_item WHERE list_id = ?", arguments: [listID])
                )
            }
            #expect(name == "Private picks" && count == 1)
        }
    }

    @Test func placesThatCollideAreSortedOutByAMoveAndTheOrderStaysWhole() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            var books: [Int64] = []
            for title in ["A", "B", "C", "D"] { books.append(try await alice.addBook(["title": title])) }
            _ = try await alice.post("/lists", ["name": "Order"])
            let listID = try #require(try await listIDs(app).first)
            for book in books { _ = try await alice.post("/lists/\(listID)/books", ["book_id": "\(book)"]) }
            // As an older import could leave them: every book at place 1.
            try await app.database().writer.write { db in
                try db.execute(sql: "UPDATE list_item SET position = 1")
            }
            let store = ReadingListStore(db: try app.database())
            let userID = try #require(
                try await app.database().read { db in try Int64.fetchOne(db, sql: "SELECT user_id FROM list") })
            #expect(try await store.move(bookID: books[3], in: listID, .to(2), for: userID) == 2)
            let order = try await store.items(of: listID, for: userID, page: 1).items
            #expect(order.map(\.item.title) == ["A", "D", "B", "C"])
            #expect(order.map(\.position) == [1, 2, 3, 4])
            let stored = try await app.database().read { db in
                try Int.fetchAll(db, sql: "SELECT position FROM list_item ORDER BY position")
            }
            #expect(stored == [1, 2, 3, 4])
            // Up from the top and down from the bottom stay where they are.
            #expect(try await store.move(bookID: books[0], in: listID, .up, for: userID) == 1)
            #expect(try await store.move(bookID: books[2], in: listID, .down, for: userID) == 4)
            // A removed book's place is closed up; a book added later goes last.
            #expect(try await store.remove(bookID: books[3], from: listID, for: userID))
            #expect(try await store.add(bookID: books[3], to: listID, for: userID) == 4)
            #expect(
                try await store.items(of: listID, for: userID, page: 1).items.map(\.item.title) == ["A", "B", "C", "D"])
        }
    }

    @Test func theAPIMakesFillsMovesAndDeletesLists() async throws {
        try await TestApp().run { client in
            let web = WebSession(client)
            try await web.register("alice")
            let dune = try await web.addBook(["title": "Dune", "authors": "Frank Herbert"])
            let emma = try await web.addBook(["title": "Emma", "authors": "Jane Austen"])
            var api = APIClient(client)
            try await api.signIn("alice@example.com")

            let made = try await api.send(
                .post, "/api/v1/lists", json: ["name": "Classics", "description": "Old ones"])
            #expect(made.status == .created)
            let list = try #require(made.json?["list"] as? [String: Any])
            let listID = try #require(list["id"] as? Int)
            #expect(list["name"] as? String == "Classics" && list["book_count"] as? Int == 0)
            #expect(try await api.send(.post, "/api/v1/lists", json: ["name": "classics"]).status == .conflict)
            #expect(try await api.send(.post, "/api/v1/lists", json: ["name": ""]).status == .unprocessableContent)
            #expect(try await api.send(.post, "/api/v1/lists", json: ["name": 5]).status == .badRequest)

            let first = try await api.send(.post, "/api/v1/lists/\(listID)/books", json: ["book_id": dune])
            #expect(first.status == .created && first.json?["position"] as? Int == 1)
            let second = try await api.send(.post, "/api/v1/lists/\(listID)/books", json: ["book_id": emma])
            #expect(second.json?["position"] as? Int == 2)
            #expect(
                try await api.send(.post, "/api/v1/lists/\(listID)/books", json: ["book_id": 999_999]).status
                    == .notFound)
            #expect(
                try await api.send(.post, "/api/v1/lists/\(listID)/books", json: [:]).status == .unprocessableContent)

            let moved = try await api.send(.patch, "/api/v1/lists/\(listID)/books/\(emma)", json: ["position": 1])
            #expect(moved.status == .ok && moved.json?["position"] as? Int == 1)
            for bad in [0, 3, -1] {
                #expect(
                    try await api.send(.patch, "/api/v1/lists/\(listID)/books/\(emma)", json: ["position": bad]).status
                        == .unprocessableContent)
            }
            var shown = try await api.get("/api/v1/lists/\(listID)")
            let books = try #require(shown.json?["books"] as? [[String: Any]])
            #expect(books.map { $0["title"] as? String } == ["Emma", "Dune"])
            #expect(books.map { $0["position"] as? Int } == [1, 2])
            shown = try await api.get("/api/v1/lists/\(listID)?author=herbert")
            #expect(
                (shown.json?["books"] as? [[String: Any]])?.count == 1 && shown.json?["matching_count"] as? Int == 1)

            let renamed = try await api.send(.patch, "/api/v1/lists/\(listID)", json: ["name": "Old classics"])
            let renamedList = renamed.json?["list"] as? [String: Any]
            #expect(renamedList?["name"] as? String == "Old classics")
            #expect(renamedList?["description"] as? String == "Old ones" && renamedList?["book_count"] as? Int == 2)
            let all = try await api.get("/api/v1/lists")
            #expect((all.json?["lists"] as? [[String: Any]])?.count == 1)

            #expect(try await api.send(.delete, "/api/v1/lists/\(listID)/books/\(dune)").status == .noContent)
            #expect(try await api.send(.delete, "/api/v1/lists/\(listID)/books/\(dune)").status == .notFound)

            // Another person's list is a 404 for every method.
            let bob = WebSession(client)
            try await bob.register("bob")
            var bobAPI = APIClient(client)
            try await bobAPI.signIn("bob@example.com")
            #expect(try await bobAPI.get("/api/v1/lists/\(listID)").status == .notFound)
            #expect(try await bobAPI.send(.patch, "/api/v1/lists/\(listID)", json: ["name": "x"]).status == .notFound)
            #expect(try await bobAPI.send(.delete, "/api/v1/lists/\(listID)").status == .notFound)
            #expect(
                try await bobAPI.send(.patch, "/api/v1/lists/\(listID)/books/\(emma)", json: ["position": 1]).status
                    == .notFound)

            #expect(try await api.send(.delete, "/api/v1/lists/\(listID)").status == .noContent)
            #expect(try await api.get("/api/v1/lists/\(listID)").status == .notFound)
            #expect(try await api.get("/api/v1/books/\(emma)").status == .ok)
        }
    }

    @Test func listsImportedBeforeKeepTheirImportOrder() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lists-\(UUID().uuidString).sqlite")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let old = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(old, upTo: "v18 book categories")
            try old.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO user (username, email, display_name, password_hash, created_at)
                        VALUES ('ada', 'ada@example.com', 'Ada', 'x', '2024-01-01 00:00:00');
                        INSERT INTO book (id, title, authors, categories, source, created_at, updated_at, owner_user_id)
                        VALUES (1, 'Dune', '[]', '[]', 'import', '2024-01-01', '2024-01-01', 1),
                            (2, 'Emma', '[]', '[]', 'import', '2024-01-01', '2024-01-01', 1),
                            (3, 'Kim', '[]', '[]', 'import', '2024-01-01', '2024-01-01', 1);
                        INSERT INTO user_book (id, user_id, book_id, shelf, favourite, added_at, updated_at)
                        VALUES (10, 1, 1, 'read', 0, '2024-01-01', '2024-01-01'),
                            (11, 1, 2, 'read', 0, '2024-01-01', '2024-01-01'),
                            (12, 1, 3, 'read', 0, '2024-01-01', '2024-01-01');
                        INSERT INTO list (id, user_id, name, position) VALUES (1, 1, 'kids', 1), (2, 1, 'classics', 2);
                        INSERT INTO list_item (list_id, user_book_id) VALUES (1, 12), (2, 11), (1, 10), (2, 10);
                        """)
            }
        }
        let database = try AppDatabase(path: path)
        let rows = try database.writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT list_id, user_book_id, position FROM list_item ORDER BY list_id, position"
            )
            .map { [$0[0] as Int64, $0[1] as Int64, $0[2] as Int64] }
        }
        #expect(rows == [[1, 12, 1], [1, 10, 2], [2, 11, 1], [2, 10, 2]])
    }
}
