import HTTPTypes

/// A book as the BooksTrack app reads it: every field present, null when the provider gave nothing (never
/// invented); `description` is plain text.
struct BookDTO: Encodable, Sendable {
    let isbn: String?
    let isbn13: String?
    let title: String
    let authors: [String]
    let publisher: String?
    let publishedDate: String?
    let description: String?
    let pageCount: Int?
    let categories: [String]
    let language: String?
    let coverUrl: String?
    let averageRating: Double?
    let ratingsCount: Int?

    enum CodingKeys: String, CodingKey {
        case isbn, isbn13, title, authors, publisher, publishedDate, description, pageCount, categories, language
        case coverUrl, averageRating, ratingsCount
    }

    init(_ volume: VolumeResult) {
        isbn = volume.isbn10 ?? volume.isbn13
        isbn13 = volume.isbn13
        title = volume.title
        authors = volume.authors
        publisher = volume.publisher
        publishedDate = volume.publishedDate
        description = volume.description
        pageCount = BoundedNumber.plausible(volume.pageCount, in: BoundedNumber.pageCount)
        categories = volume.categories
        language = volume.language
        coverUrl = volume.coverURL ?? volume.thumbnailURL
        averageRating = volume.averageRating.flatMap { $0.isFinite && (0...5).contains($0) ? $0 : nil }
        ratingsCount = volume.ratingsCount.flatMap { $0 >= 0 ? $0 : nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(isbn, forKey: .isbn)
        try container.encode(isbn13, forKey: .isbn13)
        try container.encode(title, forKey: .title)
        try container.encode(authors, forKey: .authors)
        try container.encode(publisher, forKey: .publisher)
        try container.encode(publishedDate, forKey: .publishedDate)
        try container.encode(description, forKey: .description)
        try container.encode(pageCount, forKey: .pageCount)
        try container.encode(categories, forKey: .categories)
        try container.encode(language, forKey: .language)
        try container.encode(coverUrl, forKey: .coverUrl)
        try container.encode(averageRating, forKey: .averageRating)
        try container.encode(ratingsCount, forKey: .ratingsCount)
    }
}

extension HTTPField.Name {
    /// Whether a search answer came from Shelfed's cache (`HIT`) or a provider (`MISS`).
    static let xCache = Self("X-Cache")!
}
