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
    }

    /// A JSON array of strings as the catalog keeps authors and categories; empty for anything else.
    static func strings(_ text: String?) -> [String] {
        guard let text, text != "[]", !text.isEmpty else { return [] }
        return (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
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
