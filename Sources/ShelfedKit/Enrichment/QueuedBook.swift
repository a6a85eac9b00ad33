import Foundation
import GRDB

/// A queued book: its ISBNs and the fields enrichment may fill.
struct QueuedBook: Sendable, Equatable {
    let id: Int64
    let isbn13: String?
    let isbn10: String?
    let coverPath: String?
    let description: String?
    let hasCategories: Bool
    let pageCount: Int?
    let publisher: String?
    let publishedDate: String?
    let attempts: Int

    init(row: Row) {
        id = row["id"]
        isbn13 = row["isbn13"]
        isbn10 = row["isbn10"]
        coverPath = row["cover_path"]
        description = row["description"]
        hasCategories = (row["categories"] as String?).map { $0 != "[]" } ?? false
        pageCount = row["page_count"]
        publisher = row["publisher"]
        publishedDate = row["published_date"]
        attempts = row["attempts"]
    }

    var isbn: ISBN? { (isbn13.flatMap(ISBN.init)) ?? isbn10.flatMap(ISBN.init) }

    /// What `volumes` offer for the fields this book lacks, the first provider's value winning.
    func fill(from volumes: [VolumeResult]) -> BookFill {
        var fill = BookFill()
        for volume in volumes {
            if description == nil, fill.description == nil { fill.description = volume.description }
            if !hasCategories, fill.categories.isEmpty { fill.categories = Array(volume.categories.prefix(10)) }
            if pageCount == nil, fill.pageCount == nil {
                fill.pageCount = BoundedNumber.plausible(volume.pageCount, in: BoundedNumber.pageCount)
            }
            if publisher == nil, fill.publisher == nil { fill.publisher = volume.publisher }
            if publishedDate == nil, fill.publishedDate == nil { fill.publishedDate = volume.publishedDate }
            if coverPath == nil, fill.coverURL == nil { fill.coverURL = volume.coverURL }
            if fill.series == nil { fill.series = volume.series }
        }
        return fill
    }
}

/// The values enrichment writes into a book's empty fields.
struct BookFill: Sendable, Equatable {
    var description: String?
    var categories: [String] = []
    var pageCount: Int?
    var publisher: String?
    var publishedDate: String?
    var coverURL: String?
    /// Written only where the book has no series yet.
    var series: SeriesPlace?
    /// The downloaded cover, in the covers folder.
    var coverFile: String?

    /// Whether `book` would still lack a cover, description, categories or page count after this fill (what a
    /// Google Books lookup is spent on).
    func leavesGaps(in book: QueuedBook) -> Bool {
        (book.coverPath == nil && coverURL == nil) || (book.description == nil && description == nil)
            || (!book.hasCategories && categories.isEmpty) || (book.pageCount == nil && pageCount == nil)
    }
}
