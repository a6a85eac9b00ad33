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
    /// Where a book on Did not finish was put down: the day, and the page or percent reached (shown on its card).
    public let stoppedAt: String?
    public let currentPage: Int?
    public let currentPercent: Double?
    /// A book, a film or a show: the words its shelf is named with.
    public let kind: TitleKind

    /// The shelf's name as this title's card says it (Want to read, Want to watch).
    var shelfTitle: String { shelf.title(for: kind) }

    /// The columns `init(row:)` reads, in order, for a query over `user_book` joined to `book`.
    static let selection = """
        book.id, book.title, book.cover_path, user_book.shelf, user_book.favourite,
        user_book.started_at, user_book.finished_at,
        book.author_names, user_book.rating, user_book.stopped_at, user_book.current_page,
        user_book.current_percent, book.kind
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
        stoppedAt = row[9]
        currentPage = row[10]
        currentPercent = row[11]
        kind = (row[12] as String?).flatMap(TitleKind.init(rawValue:)) ?? .book
    }

    init(_ entry: LibraryEntry) {
        bookID = entry.bookID
        title = entry.book.title
        authors = entry.book.authors.joined(separator: ", ")
        coverPath = entry.book.coverPath
        shelf = entry.userBook.shelf
        favourite = entry.userBook.favourite
        startedAt = entry.userBook.startedAt
        finishedAt = entry.userBook.finishedAt
        rating = entry.userBook.rating
        stoppedAt = entry.userBook.stoppedAt
        currentPage = entry.userBook.currentPage
        currentPercent = entry.userBook.currentPercent
        kind = entry.book.kind
    }

    /// "Stopped 2026-03-02 at page 212" for a card on Did not finish; nil on any other shelf.
    var stopSummary: String? {
        let position = ProgressValues.position(percent: currentPercent, page: currentPage)
        guard shelf == .didNotFinish, stoppedAt != nil || position != nil else { return nil }
        switch (kind == .book, stoppedAt, position) {
        case (true, let day?, let position?):
            return localized("Stopped {{day}} at {{position}}", ["day": day, "position": position])
        case (true, let day?, nil): return localized("Stopped {{day}}", ["day": day])
        case (true, nil, let position?): return localized("Stopped at {{position}}", ["position": position])
        case (false, let day?, let position?):
            return localized("Stopped watching {{day}} at {{position}}", ["day": day, "position": position])
        case (false, let day?, nil): return localized("Stopped watching {{day}}", ["day": day])
        case (false, nil, let position?): return localized("Stopped watching at {{position}}", ["position": position])
        case (_, nil, nil): return nil
        }
    }
}
