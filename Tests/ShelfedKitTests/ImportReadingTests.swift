import Foundation
import Testing

@testable import ShelfedKit

/// The exports made by `scripts/fixtures/make_exports.py` (`Tests/Fixtures/imports/`), read as the importer reads
/// them, and hand-written cells. The expected figures follow from each file's plan in that script and its SOURCES.md,
/// not from running the importer. The same checks against real exports live in `SharedFixtureConformance`.
@Suite struct ImportReadingTests {
    struct ReadFile {
        let format: ImportFormat?
        let rows: [(row: Int, reading: ImportRowReading)]

        var books: [ImportedBook] {
            rows.compactMap { if case .book(let book) = $0.reading { book } else { nil } }
        }
        var problems: [(row: Int, message: String)] {
            rows.compactMap { if case .problem(let message) = $0.reading { ($0.row, message) } else { nil } }
        }
        func book(titled prefix: String) -> ImportedBook? { books.first { $0.title.hasPrefix(prefix) } }
        func count(on shelf: ImportedShelf) -> Int { books.filter { $0.shelf == shelf }.count }
    }

    static func read(_ name: String, mapping: ColumnMapping? = nil) throws -> ReadFile {
        let source = TestApp.packageRoot.appendingPathComponent("Tests/Fixtures/imports/\(name)")
        return try read(url: source, mapping: mapping)
    }

    /// A real export from the team's shared fixtures (only the conformance suite reads these).
    static func read(real name: String) throws -> ReadFile {
        try read(url: SharedFixtures.url("imports/\(name)"))
    }

    static func read(url source: URL, mapping: ColumnMapping? = nil) throws -> ReadFile {
        let clean = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: clean) }
        try ImportText.normalize(source, to: clean)
        let table = try ImportTable(utf8File: clean)
        let reader = (mapping == nil ? table.format : .mapped)?.reader(mapping: mapping)
        var rows: [(Int, ImportRowReading)] = []
        guard let reader else { return ReadFile(format: table.format, rows: []) }
        // As staging reads it: the file's slash dates decided per column first.
        _ = try ImportStore.readRows(of: table, with: reader) { row, _, reading in rows.append((row, reading)) }
        return ReadFile(format: table.format, rows: rows.sorted { $0.0 < $1.0 })
    }

    static func write(_ text: String, encoding: String.Encoding = .utf8) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).csv")
        try text.data(using: encoding)!.write(to: url)
        return url
    }

    @Test func bookWyrmsOwnExport() throws {
        let csv = """
            title,author_text,remote_id,openlibrary_key,inventaire_id,librarything_key,goodreads_key,bnf_id,viaf,wikidata,asin,aasin,isfdb,isbn_10,isbn_13,oclc_number,start_date,finish_date,stopped_date,rating,review_name,review_cw,review_content,review_published,shelf,shelf_name,shelf_date
            The Dispossessed,Ursula K. Le Guin,https://example.social/book/1,OL59863W,,,13651,,,,,,,0060512750,9780060512750,,2024-01-02,2024-02-03,,4,Great,,<p>An <em>ambiguous</em> utopia.</p><p>Second.</p>,2024-02-04,read,Read,2024-02-03
            Piranesi,Susanna Clarke,https://example.social/book/2,,,,,,,,,,,,,,,,,,,,,,to-read,To Read,2024-03-01
            """
        let file = try Self.read(url: try Self.write(csv))
        #expect(file.format == .bookwyrm)
        let dispossessed = try #require(file.book(titled: "The Dispossessed"))
        #expect(dispossessed.isbn13 == "9780060512750" && dispossessed.rating == 4)
        #expect(dispossessed.readThroughs == [ReadThrough(startedOn: "2024-01-02", finishedOn: "2024-02-03")])
        #expect(dispossessed.review == "An ambiguous utopia.\nSecond.")
        #expect(dispossessed.externalIDs == ["openlibrary": "OL59863W", "goodreads": "13651"])
        #expect(file.book(titled: "Piranesi")?.shelf == .known(.wantToRead))
    }

    @Test func anUnknownCSVIsReadThroughTheChosenColumns() throws {
        let csv =
            "Name,Writer,Code,When finished,Stars\nDune,Frank Herbert,9780441172719,2024-05-01,4\nEmma,Jane Austen,,,\n"
        let url = try Self.write(csv)
        #expect(try Self.read(url: url).format == nil)
        let guess = ColumnMapping.guess(headers: ["Name", "Writer", "Code", "When finished", "Stars"])
        #expect(guess.title == "Name" && guess.author == "Writer" && guess.rating == "Stars")
        let mapping = ColumnMapping(
            title: "Name", author: "Writer", isbn: "Code", dateRead: "When finished", rating: "Stars")
        let file = try Self.read(url: url, mapping: mapping)
        let dune = try #require(file.book(titled: "Dune"))
        #expect(dune.isbn13 == "9780441172719" && dune.rating == 4 && dune.shelf == .known(.read))
        #expect(file.book(titled: "Emma")?.shelf == .known(.wantToRead))
    }

    // MARK: Hostile and damaged cells

    @Test func aBadISBN10BesideAGoodISBN13KeepsTheGoodOne() throws {
        var book = ImportedBook(title: "x")
        let problem = book.takeISBN(from: [
            (column: "ISBN13", cell: ImportValues.isbn("=\"9780441172719\"")),
            (column: "ISBN", cell: ImportValues.isbn("=\"0441172718\"")),
        ])
        #expect(problem == nil)
        #expect(book.isbn13 == "9780441172719")
        #expect(book.notes.contains { $0.contains("0441172718") })
    }

    @Test func shelvesNamedInTheOtherLanguagesAreShelfedsShelves() throws {
        let goodreads = """
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,Number of Pages,Date Read,My Review
            1,Rayuela,Julio Cortázar,,,5,leídos,,,2024/02/03,
            2,Der Zauberberg,Thomas Mann,,,,abgebrochen,,,,
            3,Les Misérables,Victor Hugo,,,,à lire,,,,
            4,Il Gattopardo,Giuseppe Tomasi di Lampedusa,,,,sto_leggendo,,,,
            5,Dom Casmurro,Machado de Assis,,,,lidos,,,,
            6,Emma,Jane Austen,,,,cosas-raras,,,,
            """
        let shelves = try Self.read(url: try Self.write(goodreads)).books.map(\.shelf)
        #expect(
            shelves == [
                .known(.read), .known(.didNotFinish), .known(.wantToRead), .known(.reading),
                .known(.read), .custom("cosas-raras"),
            ])
        // StoryGraph keeps the Goodreads shelves it took in as tags: "abandonados" on a book only wanted means it
        // was set aside; on a book read it changes nothing, and it never becomes a list.
        let storyGraph = """
            Title,Authors,Contributors,ISBN/UID,Format,Read Status,Date Added,Last Date Read,Dates Read,Read Count,Star Rating,Review,Tags,Owned?
            Rayuela,Julio Cortázar,,,paperback,to-read,2025/05/26,,,0,,,"abandonados, clásicos",No
            Ficciones,Jorge Luis Borges,,,paperback,read,2025/05/26,2025/05/26,,1,,,Abandonados,No
            """
        let tagged = try Self.read(url: try Self.write(storyGraph))
        #expect(tagged.format == .storygraph)
        #expect(tagged.books.map(\.shelf) == [.known(.didNotFinish), .known(.read)])
        #expect(tagged.books.map(\.lists) == [["clásicos"], []])
    }

    @Test func hostileCellsAreCleanedOrRefused() throws {
        let huge = String(repeating: "A", count: 1_000_000)
        let csv = #"""
            Book Id,Title,Author,ISBN,ISBN13,My Rating,Exclusive Shelf,Bookshelves,Number of Pages,Date Read,My Review
            1,"x""\#u{301} autofocus onfocus=alert(1) x=""",=cmd|' /C calc'!A0,,,5,read,,9223372036854775807,,
            2,\#(huge),Someone,,,9,to-read,,-1,,
            3,Fine,"Tab\#tand\#u{0}NUL",,,4.5,read,"favorites, to-read",300,2024/02/30,
            4,Long review,A,,,,read,,,,\#(String(repeating: "b", count: 20_001))
            """#
        let file = try Self.read(url: try Self.write(csv))
        #expect(file.rows.count == 4)
        let first = try #require(file.books.first)
        // Text is kept as text (pages escape it); numbers out of bounds are dropped with a note.
        #expect(first.title == "x\"\u{301} autofocus onfocus=alert(1) x=\"")
        #expect(first.pageCount == nil && first.notes.contains { $0.contains("page count") })
        #expect(file.problems.contains { $0.row == 3 && $0.message.contains("500 characters") })
        #expect(file.problems.contains { $0.row == 4 && $0.message.contains("2024/02/30") })
        #expect(file.problems.contains { $0.row == 5 && $0.message.contains("20,000") })
    }

    @Test func controlCharactersLeaveNamesAndRatingsAreQuarterStars() {
        #expect(ImportValues.line("Tab\tand\u{0}NUL  twice") == "Tab and NUL twice")
        #expect(ImportValues.line("Brinkmann &amp; Bose") == "Brinkmann & Bose")
        var notes: [String] = []
        #expect(ImportValues.rating("3.3", notes: &notes) == 3.25)
        #expect(ImportValues.rating("0", notes: &notes) == nil)
        #expect(ImportValues.rating("1e3", notes: &notes) == nil)
        #expect(ImportValues.rating("9", notes: &notes) == nil)
        #expect(ImportValues.rating("٣", notes: &notes) == nil)
        #expect(notes.count == 3)
    }

    @Test func mixedUTF8AndWindows1252SurvivesChunkBoundaries() throws {
        // "é" in UTF-8 split across a chunk boundary, then a lone Windows-1252 "é" and "€".
        // After the 3-byte BOM, the "é" starts on the chunk's last byte.
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: ImportText.chunkSize - 4)
        bytes += [0xC3, 0xA9, UInt8(ascii: ","), 0xE9, 0x80, UInt8(ascii: "\n")]
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("mixed-\(UUID().uuidString)")
        let clean = source.appendingPathExtension("utf8")
        defer {
            try? FileManager.default.removeItem(at: source)
            try? FileManager.default.removeItem(at: clean)
        }
        try Data([0xEF, 0xBB, 0xBF] + bytes).write(to: source)
        #expect(try ImportText.normalize(source, to: clean) == 2)
        let text = try #require(String(data: try Data(contentsOf: clean), encoding: .utf8))
        #expect(text.hasSuffix("aé,é€\n"))
        #expect(text.utf8.count == ImportText.chunkSize - 4 + 2 + 1 + 2 + 3 + 1)
    }
}
