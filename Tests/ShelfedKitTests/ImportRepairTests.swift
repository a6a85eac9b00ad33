import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// A file that went through a spreadsheet (issue 35, finding 8): ISBN-13s in scientific notation (9.78044E+12) and
/// ISBN-10s without their leading zero. What the row's other columns can settle is repaired; the rest of the damaged
/// rows are one action — "import them without the damaged ISBN" — not one form per row.
@Suite struct ImportRepairTests {
    /// Goodreads columns as a spreadsheet saves them back.
    static let damaged = """
        Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf\r
        1,Dune,Frank Herbert,441172717,9.78044E+12,5,read\r
        2,Red at the Bone,Jacqueline Woodson,,9.78053E+12,,to-read\r
        3,Zero That Disagrees,Someone Else,123456789,9.78999E+12,,to-read\r
        4,,Nobody,,9.78001E+12,,to-read\r

        """

    static func upload(_ web: WebSession) async throws -> String {
        let uploaded = try await web.upload(
            "/import",
            files: [.init(field: "file", filename: "excel.csv", contentType: "text/csv", data: Data(damaged.utf8))])
        return try #require(uploaded.headers[.location])
    }

    @Test func theOtherColumnsRepairAnISBNAndOneActionImportsTheRestWithoutTheirs() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let path = try await Self.upload(web)
            let preview = try await web.get(path).text
            // Dune's ISBN-10 lost its zero, and the ISBN-13 beside it (9.78044E+12) agrees with 0441172717: repaired.
            #expect(preview.contains("1 book to import"), "\(preview)")
            #expect(preview.contains("3 rows need a fix"))
            #expect(preview.contains("Import 2 books without their damaged ISBN"))

            let answered = try await web.post(path + "/without-damaged-isbns", [:])
            #expect(answered.status == .seeOther)
            let after = try await web.get(path).text
            #expect(after.contains("3 books to import") && after.contains("1 row needs a fix"), "\(after)")
            #expect(!after.contains("without their damaged ISBN"))
            _ = try await web.post(path + "/confirm", [:])
            let results = try await ImportWebTests.waitForResults(web, path)
            #expect(results.contains("<th scope=\"row\">Added</th><td>3</td>"))
            // The row with no title still waits for its own fix.
            #expect(results.contains("<th scope=\"row\">Failed</th><td>1</td>"))

            let stored = try await app.database().read { db in
                try Row.fetchAll(db, sql: "SELECT title, isbn13, isbn10 FROM book ORDER BY title")
                    .map {
                        "\($0["title"] as String):\($0["isbn13"] as String? ?? "-"):\($0["isbn10"] as String? ?? "-")"
                    }
            }
            #expect(
                stored == [
                    "Dune:9780441172719:0441172717", "Red at the Bone:-:-", "Zero That Disagrees:-:-",
                ])
            let dune = try await web.get("/shelves/read").text
            #expect(dune.contains("Dune"))
        }
    }

    @Test func afterAnImportTheSameActionImportsTheDamagedRowsAndOthersCannotUseIt() async throws {
        let app = TestApp()
        try await app.run { client in
            let web = WebSession(client)
            _ = try await web.register("ada")
            let path = try await Self.upload(web)
            _ = try await web.post(path + "/confirm", [:])
            let results = try await ImportWebTests.waitForResults(web, path)
            #expect(results.contains("<th scope=\"row\">Failed</th><td>3</td>"))
            #expect(results.contains("Import 2 books without their damaged ISBN"))

            let other = WebSession(client)
            _ = try await other.register("bea")
            #expect(try await other.post(path + "/without-damaged-isbns", [:]).status == .notFound)

            #expect(try await web.post(path + "/without-damaged-isbns", [:]).status == .seeOther)
            let page = try await web.get(path).text
            #expect(page.contains("<th scope=\"row\">Added</th><td>3</td>"))
            #expect(page.contains("<th scope=\"row\">Failed</th><td>1</td>"))
            #expect(!page.contains("without their damaged ISBN"))
            let count = try await app.database().read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM user_book")
            }
            #expect(count == 3)
        }
    }

    @Test func repairsNeedTheOtherColumnToAgree() {
        var book = ImportedBook(title: "T")
        let problem = book.takeISBN(from: [
            (column: "ISBN", cell: ImportValues.isbn("441172717")),
            (column: "ISBN13", cell: ImportValues.isbn("9.78044E+12")),
        ])
        #expect(problem == nil && book.isbn13 == "9780441172719")
        var alone = ImportedBook(title: "T")
        #expect(alone.takeISBN(from: [(column: "ISBN", cell: ImportValues.isbn("441172717"))]) != nil)
        #expect(alone.isbn13 == nil, "a lost zero with nothing to confirm it is never guessed")
        var disagreeing = ImportedBook(title: "T")
        let refused = disagreeing.takeISBN(from: [
            (column: "ISBN", cell: ImportValues.isbn("441172717")),
            (column: "ISBN13", cell: ImportValues.isbn("9.78999E+12")),
        ])
        #expect(refused != nil && disagreeing.isbn13 == nil)
    }
}
