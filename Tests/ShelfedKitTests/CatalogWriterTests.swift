import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// A book is written one way whatever brought it: typed in or imported, its catalog row reads the same, and the
/// limits are the same.
extension ImportJobTests {
    @Test func aTypedAndAnImportedBookAreWrittenAlike() async throws {
        let me = try await user("ada")
        // setup: the same book typed in, then imported from a file
        var typed = NewBook(title: "Songs in the Key of Life")
        typed.authors = ["Stevie Wonder", "AC/DC"]
        let library = LibraryStore(db: db)
        let typedID = try await library.add(typed, to: .read, for: me, now: clock.now, today: "2026-11-20")
        let csv = #"""
            Book Id,Title,Author,Additional Authors,ISBN,ISBN13,My Rating,Exclusive Shelf,Date Read,Date Added
            1,Another Book,Stevie Wonder,AC/DC,,,0,read,2024/05/01,2024/04/01
            """#
        let file = directory.appendingPathComponent("alike.csv")
        try Data(csv.utf8).write(to: file)
        _ = try await stageAndConfirm(file, for: me)
        try await runner().runUntilIdle()
        // validate: the same columns, the same encodings
        let rows = try await db.read { db in
            try Row.fetchAll(db, sql: "SELECT authors, categories, owner_user_id FROM book ORDER BY id").map {
                [$0["authors"] as String, $0["categories"] as String, String($0["owner_user_id"] as Int64)]
            }
        }
        let written = [#"["Stevie Wonder","AC/DC"]"#, "[]", String(me)]
        #expect(rows == [written, written])
        #expect(try await count("SELECT COUNT(*) FROM book_author WHERE name = 'AC/DC'") == 2)
        // The typed book is found again by its title and authors, slash and all.
        await #expect(throws: AlreadyInLibrary(bookID: typedID)) {
            try await library.add(typed, to: .read, for: me, now: clock.now, today: "2026-11-20")
        }
    }

    @Test func aTitleTooLongIsRefusedTheSameFromTheFormAndAFile() async throws {
        let long = String(repeating: "a", count: CatalogLimits.title + 1)
        var form = NewBookForm()
        form.title = long
        guard case .failure(let errors) = form.validate() else {
            Issue.record("a long title was accepted")
            return
        }
        #expect(errors["title"] == "Keep the title to 500 characters or fewer.")
        let me = try await user("ada")
        let file = directory.appendingPathComponent("long.csv")
        try Data("Book Id,Title,Author,Exclusive Shelf\n1,\(long),Someone,to-read\n".utf8).write(to: file)
        let staged = try await store.stage(upload: file, fileName: "long.csv", userID: me, now: clock.now)
        let failed = try await store.rows(of: staged.id, userID: me, outcome: .failed, limit: 1)
        #expect(failed.first?.message == "The title is longer than 500 characters. Shorten it and try again.")
        #expect(CatalogLimits.spelled(20_000) == "20,000" && CatalogLimits.spelled(500) == "500")
    }
}
