import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Shelf views (issue 36): `?view=cards|list|grid` on every shelf page, remembered for the browser; paging, sorting
/// and filters work the same in each; a view nobody offers is the remembered one.
@Suite struct ShelfViewTests {
    @Test func eachViewListsTheShelfKeepsPagingAndFiltersAndIsRemembered() async throws {
        let app = TestApp()
        try await app.run { client in
            let alice = WebSession(client)
            try await alice.register("alice")
            _ = try await alice.addBook(["title": "Filtered <Out>", "authors": "Other Person", "shelf": "want_to_read"])
            let user = try await app.database().read { db in try Int64.fetchOne(db, sql: "SELECT id FROM user")! }
            // Sixty-one more books by one author, written straight in: two pages of sixty.
            try await app.database().write { db in
                for number in 1...61 {
                    try db.execute(
                        sql: """
                            INSERT INTO book (title, authors, author_names, categories, source, created_at, updated_at,
                                owner_user_id)
                            VALUES (?, '["Ada Author"]', 'Ada Author', '[]', 'manual', '2026-01-01', '2026-01-01', ?)
                            """, arguments: [String(format: "Book %02d", number), user])
                    try db.execute(
                        sql: """
                            INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, added_at, updated_at)
                            VALUES (?, ?, 'want_to_read', 0, 4.5, '2026-01-01', '2026-01-01')
                            """, arguments: [user, db.lastInsertedRowID])
                }
            }

            // act: the list view, chosen on the first page
            let list = try await alice.get("/shelves/want-to-read?view=list&sort=title&order=asc")
            // validate: rows, not cards; the choice is remembered; sixty rows on page one, the switch marks List
            #expect(list.status == .ok)
            #expect(list.headers[values: .setCookie].contains { $0.hasPrefix("shelfed_view=list") })
            #expect(list.text.components(separatedBy: "class=\"book-row\"").count - 1 == 60)
            #expect(!list.text.contains("class=\"card\""))
            #expect(list.text.contains("Rated 4½ out of 5") && list.text.contains("Book 01"))
            #expect(list.text.contains(#"view=list" aria-current="true">List</a>"#))

            // Page two, with no view in the address: still the list, and the last two books.
            let second = try await alice.get("/shelves/want-to-read?sort=title&order=asc&page=2")
            #expect(second.text.components(separatedBy: "class=\"book-row\"").count - 1 == 2)
            #expect(second.text.contains("Filtered &lt;Out&gt;"), "titles are escaped in rows")
            #expect(second.headers[values: .setCookie].allSatisfy { !$0.hasPrefix("shelfed_view") })

            // The grid, filtered by author: covers (tiles for coverless books), the filter kept in the switch links.
            let grid = try await alice.get("/shelves/want-to-read?view=grid&author=Other+Person")
            #expect(grid.text.contains("class=\"cover-grid\"") && grid.text.contains("class=\"cover-tile\""))
            #expect(grid.text.components(separatedBy: "<li id=\"book-").count - 1 == 1)
            #expect(grid.text.contains("author=Other%20Person") || grid.text.contains("author=Other+Person"))

            // A view nobody offers is the remembered one (grid now); cards come back when chosen.
            let odd = try await alice.get("/shelves/want-to-read?view=%3Cscript%3E")
            #expect(odd.status == .ok && odd.text.contains("class=\"cover-grid\"") && !odd.text.contains("<script>"))
            let cards = try await alice.get("/favourites?view=cards")
            #expect(cards.headers[values: .setCookie].contains { $0.hasPrefix("shelfed_view=cards") })
            #expect(try await alice.get("/shelves").text.contains("class=\"card\""))
        }
    }
}
