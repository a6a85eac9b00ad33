import GRDB

/// What a list shows of one book in a user's library, read straight from a row without Codable.
public struct LibraryItem: Sendable, Equatable {
    public let bookID: Int64
    public let title: String
    /// Authors joined with ", " in their order on the book.
    public let authors: String
    public let coverPath: String?
    public let shelf: Shelf
    public let favourite: Bool
    public let startedAt: String?
    public let finishedAt: String?
    /// Out of 5 in quarter steps; nil when not rated.
    public let rating: Double?

    /// The columns `init(row:)` reads, in order, for a query over `user_book` joined to `book`.
    static let selection = """
        book.id, book.title, book.cover_path, user_book.shelf, user_book.favourite,
        user_book.started_at, user_book.finished_at,
        book.author_names, user_book.rating
        """

    init(row: Row) {
        bookID = row[0]
        title = row[1]
        coverPath = row[2]
        shelf = Shelf(rawValue: row[3]) ?? .wantToRead
        favourite = row[4]
        startedAt = row[5]
        finishedAt = row[6]
        authors = row[7] ?? ""
        rating = row[8]
    }

    init(_ entry: LibraryEntry) {
        bookID = entry.book.id!
        title = entry.book.title
        authors = entry.book.authors.joined(separator: ", ")
        coverPath = entry.book.coverPath
        shelf = entry.userBook.shelf
        favourite = entry.userBook.favourite
        startedAt = entry.userBook.startedAt
        finishedAt = entry.userBook.finishedAt
        rating = entry.userBook.rating
    }
}
