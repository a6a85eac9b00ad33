import Foundation
import GRDB
import Testing

@testable import ShelfedKit

/// Books and shelf entries are read column by column (`Book+Row.swift`), not through Codable: every property the
/// Codable path writes must read back the same, so a column added to the struct and forgotten there fails here.
@Suite struct BookRowTests {
    @Test func everyPropertyWrittenReadsBackTheSame() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let db = try AppDatabase(path: folder.appendingPathComponent("shelfed.sqlite").path)
        let when = Date(timeIntervalSince1970: 1_770_000_000.125)
        var book = Book(
            id: nil, googleVolumeId: "vol", isbn10: "0441172717", isbn13: "9780441172719", title: "Dune",
            subtitle: "A novel", authors: ["Frank Herbert", "Brian \"B\" Herbert"], publisher: "Ace",
            publishedDate: "1965", description: "Spice.\nSand.", pageCount: 412, categories: ["Fiction", "SF"],
            language: "en", coverPath: "covers/1.jpg", source: .google, createdAt: when, updatedAt: when,
            ownerUserId: nil, series: "Dune", seriesPosition: 1.5, communityRating: 4.27, communityRatings: 12,
            communitySource: "Goodreads", kind: .movie, runtimeMinutes: 139)
        var entry = UserBook(
            id: nil, userId: 1, bookId: 0, shelf: .didNotFinish, favourite: true, rating: 3.75, review: "Good",
            currentPage: 120, addedAt: when, startedAt: "2026-01-02", finishedAt: nil, updatedAt: when,
            privateNotes: "mine", owned: true, format: "paperback", currentPercent: nil, stoppedAt: "2026-02-01",
            stopReason: "slow", location: "hall", reviewShared: true)
        try db.writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (id, username, email, display_name, password_hash, created_at)
                    VALUES (1, 'ada', 'ada@example.com', 'Ada', 'x', '2026-01-01 00:00:00')
                    """)
            try book.insert(db)
            entry.bookId = book.id!
            try entry.insert(db)
        }
        let read = try db.writer.read { db in
            try LibraryStore.request(of: 1, filter: .all).including(required: UserBook.book)
                .asRequest(of: LibraryEntry.self).fetchOne(db)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(read?.book) == encoder.encode(book))
        #expect(try encoder.encode(read?.userBook) == encoder.encode(entry))
    }

    /// The catalog's arrays read without a decoder give what `JSONDecoder` gives, and anything unusual (escapes,
    /// control characters, numbers, a trailing comma, text after the array) is left to the decoder.
    @Test(arguments: [
        #"["Ursula K. Le Guin"]"#, #"["A", "B"]"#, #"[ "A" ,"B" ]"#, "[]", "[ ]", #"["Zoë", "Ñandú", "東野圭吾"]"#,
        #"["Say \"hi\""]"#, #"["back\\slash"]"#, #"["tab\there"]"#, #"["\u00e9"]"#, #"["a",]"#, #"["a"] x"#,
        #"["a" "b"]"#, "[1, 2]", #"{"a": 1}"#, #"["unclosed"#, #"[""]"#, "\n[\"a\"]\n",
    ])
    func plainArraysReadAsTheDecoderReadsThem(text: String) throws {
        let decoded = try? JSONDecoder().decode([String].self, from: Data(text.utf8))
        if let plain = Book.plainStrings(text) { #expect(plain == decoded) }
        #expect(Book.strings(text) == (decoded ?? []))
        if text.contains("\\") { #expect(Book.plainStrings(text) == nil) }
    }

    /// What the catalog writes goes the quick way.
    @Test(arguments: [#"["Ursula K. Le Guin"]"#, #"["A", "B"]"#, #"[ "A" ,"B" ]"#, "[ ]", #"["Zoë", "東野圭吾"]"#])
    func theCatalogsOwnArraysNeedNoDecoder(text: String) {
        #expect(Book.plainStrings(text) == (try? JSONDecoder().decode([String].self, from: Data(text.utf8))))
        #expect(Book.plainStrings(text) != nil)
    }

    /// An author's key is the same the quick way (ASCII) as the Unicode way.
    @Test(arguments: ["J.K. Rowling", "J. K. Rowling", "O'Brien, Flann", "le guin", "X Æ A-12", "Zoë Heller", "3M"])
    func authorKeysAreLettersInLowerCase(name: String) {
        let slow = String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic }.map(Character.init))
        #expect(SimilarBooks.nameKey(name) == slow)
    }

    /// Lists of ids for `json_each(?)` are written as the encoder writes them.
    @Test func idListsAreTheEncodersJSON() throws {
        for ids: [Int64] in [[], [7], [1, -2, Int64.max, Int64.min]] {
            let encoded = String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)
            #expect(SimilarBooks.jsonList(ids) == encoded)
        }
    }
}
