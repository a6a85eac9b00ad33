import Foundation
import GRDB

// Books and shelf entries read column by column (issue 36, part 9): through Codable with snake-case keys, each row
// converted every key name and cast every value, a tenth of a book page's CPU. The names are the table's columns;
// `BookRowTests` checks each record read here against the Codable reading of the same row.

extension Book {
    public init(row: Row) throws {
        id = row["id"]
        googleVolumeId = row["google_volume_id"]
        isbn10 = row["isbn10"]
        isbn13 = row["isbn13"]
        title = row["title"] ?? ""
        subtitle = row["subtitle"]
        authors = Self.strings(row["authors"])
        publisher = row["publisher"]
        publishedDate = row["published_date"]
        description = row["description"]
        pageCount = row["page_count"]
        categories = Self.strings(row["categories"])
        language = row["language"]
        coverPath = row["cover_path"]
        source = (row["source"] as String?).flatMap(Source.init(rawValue:)) ?? .manual
        createdAt = row["created_at"] ?? Date(timeIntervalSince1970: 0)
        updatedAt = row["updated_at"] ?? Date(timeIntervalSince1970: 0)
        ownerUserId = row["owner_user_id"]
        series = row["series"]
        seriesPosition = row["series_position"]
        communityRating = row["community_rating"]
        communityRatings = row["community_ratings"]
        communitySource = row["community_source"]
        kind = (row["kind"] as String?).flatMap(TitleKind.init(rawValue:)) ?? .book
        runtimeMinutes = row["runtime_minutes"]
        castNames = Self.strings(row["cast_names"])
        originalTitle = row["original_title"]
        providerKey = row["provider_key"]
        titleMatch = row["title_match"]
    }

    /// A JSON array of strings as the catalog keeps authors and categories; empty for anything else.
    static func strings(_ text: String?) -> [String] {
        guard let text, text != "[]", !text.isEmpty else { return [] }
        if let plain = plainStrings(text) { return plain }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    /// The array read directly when no string in it has an escape (as the catalog writes nearly every one); nil for
    /// anything else, which `JSONDecoder` reads. More like this reads two arrays of each of some fifty books per page,
    /// and a decoder each was a tenth of the page's CPU (issue 36, part 9).
    static func plainStrings(_ text: String) -> [String]? {
        var utf8 = text.utf8[...]
        func skipSpaces() {
            while let byte = utf8.first, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                utf8 = utf8.dropFirst()
            }
        }
        skipSpaces()
        guard utf8.first == UInt8(ascii: "[") else { return nil }
        utf8 = utf8.dropFirst()
        var found: [String] = []
        skipSpaces()
        if utf8.first == UInt8(ascii: "]") {
            utf8 = utf8.dropFirst()
            skipSpaces()
            return utf8.isEmpty ? [] : nil
        }
        while true {
            guard utf8.first == UInt8(ascii: "\"") else { return nil }
            utf8 = utf8.dropFirst()
            guard
                let end = utf8.firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }),
                utf8[end] == UInt8(ascii: "\"")
            else { return nil }
            found.append(String(decoding: utf8[..<end], as: UTF8.self))
            utf8 = utf8[utf8.index(after: end)...]
            skipSpaces()
            switch utf8.first {
            case UInt8(ascii: ","):
                utf8 = utf8.dropFirst()
                skipSpaces()
            case UInt8(ascii: "]"):
                utf8 = utf8.dropFirst()
                skipSpaces()
                return utf8.isEmpty ? found : nil
            default:
                return nil
            }
        }
    }
}

extension UserBook {
    public init(row: Row) throws {
        id = row["id"]
        userId = row["user_id"]
        bookId = row["book_id"]
        shelf = (row["shelf"] as String?).flatMap(Shelf.init(rawValue:)) ?? .wantToRead
        favourite = row["favourite"] ?? false
        rating = row["rating"]
        review = row["review"]
        currentPage = row["current_page"]
        addedAt = row["added_at"] ?? Date(timeIntervalSince1970: 0)
        startedAt = row["started_at"]
        finishedAt = row["finished_at"]
        updatedAt = row["updated_at"] ?? Date(timeIntervalSince1970: 0)
        privateNotes = row["private_notes"]
        owned = row["owned"]
        format = row["format"]
        currentPercent = row["current_percent"]
        stoppedAt = row["stopped_at"]
        stopReason = row["stop_reason"]
        location = row["location"]
        reviewShared = row["review_shared"] ?? false
    }
}

extension LibraryEntry {
    /// A `user_book` row with its `book` scope (`UserBook.book`).
    public init(row: Row) throws {
        guard let book = row.scopes["book"] else {
            throw DatabaseError(message: "A library entry was read without its book.")
        }
        try self.init(book: Book(row: book), userBook: UserBook(row: row))
    }
}
