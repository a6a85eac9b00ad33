/// A book as a provider describes it, already cleaned: https cover links, plain-text description,
/// ISBNs sorted out. Codable so answers can be cached as they are.
public struct VolumeResult: Codable, Sendable, Equatable {
    public enum Provider: String, Codable, Sendable {
        case googleBooks = "google_books"
        case openLibrary = "open_library"
    }

    public var provider: Provider
    /// Google's volume id; nil for Open Library results.
    public var volumeId: String?
    public var title: String
    public var subtitle: String?
    public var authors: [String]
    public var publisher: String?
    public var publishedDate: String?
    public var description: String?
    public var pageCount: Int?
    public var categories: [String]
    public var language: String?
    public var isbn10: String?
    public var isbn13: String?
    /// The largest cover offered, for downloading when the book is added.
    public var coverURL: String?
    /// A small cover for result lists.
    public var thumbnailURL: String?
    public var averageRating: Double?
    public var ratingsCount: Int?
    /// The series the provider names (Open Library's editions do; Google Books gives only an id, not a name).
    var series: SeriesPlace? = nil

    /// The year of `publishedDate` (`yyyy`, `yyyy-mm` or `yyyy-mm-dd`), for result lists.
    public var year: String? {
        guard let publishedDate, publishedDate.count >= 4 else { return nil }
        return String(publishedDate.prefix(4))
    }

    /// True when the volume lists `isbn` (as ISBN-13, or ISBN-10 of the same book).
    public func carries(_ isbn: ISBN) -> Bool {
        isbn13 == isbn.isbn13 || (isbn.isbn10 != nil && isbn10 == isbn.isbn10)
    }
}

/// One page of search results.
public struct VolumeSearchResults: Codable, Sendable, Equatable {
    public var totalItems: Int
    public var items: [VolumeResult]
}
