import Foundation
import GRDB

/// A book in the catalog; what a user has done with it lives in `UserBook`. Rows from a provider are shared;
/// a row typed by hand or imported has an owner and is never anyone else's (DESIGN §4).
public struct Book: Codable, Sendable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public enum Source: String, Codable, Sendable {
        case google, openlibrary, manual, `import`
        case tmdb, tvmaze, wikidata

        /// A provider's row is shared by everyone who adds it; what a person typed or imported stays theirs.
        var isProvider: Bool {
            switch self {
            case .google, .openlibrary, .tmdb, .tvmaze, .wikidata: true
            case .manual, .import: false
            }
        }
    }

    public var id: Int64?
    public var googleVolumeId: String?
    public var isbn10: String?
    public var isbn13: String?
    public var title: String
    public var subtitle: String?
    public var authors: [String]
    public var publisher: String?
    public var publishedDate: String?
    public var description: String?
    public var pageCount: Int?
    public var categories: [String]
    public var language: String?
    public var coverPath: String?
    public var source: Source
    public var createdAt: Date
    public var updatedAt: Date
    /// The user who typed or imported this row; nil for a provider's shared row.
    public var ownerUserId: Int64?
    /// The series it belongs to, and its place there (`SeriesPlace`).
    public var series: String? = nil
    public var seriesPosition: Double? = nil
    /// What readers elsewhere rate it (`CommunityRating`): the average, how many ratings, and whose.
    public var communityRating: Double? = nil
    public var communityRatings: Int? = nil
    public var communitySource: String? = nil
    /// A book, a film or a TV show (DESIGN §17); fixed once written.
    public var kind: TitleKind = .book
    /// A film's running time; nil for books and for shows.
    public var runtimeMinutes: Int? = nil
    /// A film's or show's first names billed, from its provider.
    public var castNames: [String] = []
    /// The title in its own language, when an import wrote a translated one (issue 38).
    public var originalTitle: String? = nil
    /// The provider's key for a film or show ("tmdb:movie:438631"); a person's imported row has one once matched.
    public var providerKey: String? = nil
    /// How the matching of an imported film or show stands (`AppDatabase.migrateToTitleMatching`); nil for the rest.
    public var titleMatch: String? = nil

    var community: CommunityRating? {
        communitySource.flatMap { CommunityRating(average: communityRating, count: communityRatings, source: $0) }
    }

    /// Its place in a series, when it has one.
    var seriesPlace: SeriesPlace? {
        series.flatMap { SeriesPlace(name: $0, position: seriesPosition) }
    }

    public static let databaseTableName = "book"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// One user's relation to one book: its shelf, favourite flag and reading dates (`yyyy-mm-dd`).
public struct UserBook: Codable, Sendable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public var id: Int64?
    public var userId: Int64
    public var bookId: Int64
    public var shelf: Shelf
    public var favourite: Bool
    public var rating: Double?
    public var review: String?
    public var currentPage: Int?
    public var addedAt: Date
    public var startedAt: String?
    public var finishedAt: String?
    public var updatedAt: Date
    /// Notes only the reader sees (never exported to other trackers' public fields).
    public var privateNotes: String? = nil
    public var owned: Bool? = nil
    /// As the old tracker named it: `paperback`, `ebook`, `audio`, ….
    public var format: String? = nil
    /// The latest progress in percent, for books read by percent (e-books, audiobooks); `currentPage` otherwise.
    public var currentPercent: Double? = nil

    /// The day the person stopped reading a book they did not finish, and why (both only on Did not finish).
    public var stoppedAt: String? = nil
    public var stopReason: String? = nil
    /// Where the person keeps their copy ("living room, top shelf").
    public var location: String? = nil
    /// Whether the review reaches the household (only while the reader shares their reading; notes never do).
    public var reviewShared: Bool = false

    /// Whether progress on this book is given in percent (`ProgressValues.readsByPercent`).
    var readsByPercent: Bool { ProgressValues.readsByPercent(percent: currentPercent, format: format) }

    public static let databaseTableName = "user_book"
    public static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    public static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A book as one user sees it: the catalog row and their own row.
/// Both rows come from the database, so the ids are known: `bookID` and `userBookID` without force-unwrapping.
public struct LibraryEntry: Sendable, FetchableRecord, Decodable {
    public let book: Book
    public let userBook: UserBook
    /// The shelf entry's own id.
    public let userBookID: Int64
    /// The book's id (`userBook.bookId`, the same row as `book`).
    public var bookID: Int64 { userBook.bookId }

    enum CodingKeys: String, CodingKey {
        case book
        case userBook = "user_book"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            book: container.decode(Book.self, forKey: .book),
            userBook: container.decode(UserBook.self, forKey: .userBook))
    }

    init(book: Book, userBook: UserBook) throws {
        guard let userBookID = userBook.id, book.id == userBook.bookId else {
            throw DatabaseError(message: "A library entry was read without its ids, or with another book.")
        }
        self.book = book
        self.userBook = userBook
        self.userBookID = userBookID
    }
}
