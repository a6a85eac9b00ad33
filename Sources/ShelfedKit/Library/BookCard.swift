/// One book in a list: what the card shows and the forms it carries.
struct BookCard: Sendable {
    /// A button that moves the book to another shelf.
    struct Move: Sendable {
        let shelf: String
        let label: String
    }

    let id: Int64
    let path: String
    let title: String
    let authors: String
    let coverURL: String
    let hasCover: Bool
    let shelfTitle: String
    let favourite: Bool
    let favouriteLabel: String
    let favouritePath: String
    let shelfPath: String
    let moves: [Move]
    let startedAt: String?
    let finishedAt: String?
    /// Where the card's forms send the user back to: the list they were looking at.
    let returnTo: String

    init(_ entry: LibraryEntry, returnTo: String) {
        let book = entry.book
        let bookID = book.id!
        id = bookID
        path = Paths.book(bookID)
        title = book.title
        authors = book.authors.joined(separator: ", ")
        coverURL = BookCover.url(for: book)
        hasCover = book.coverPath != nil
        shelfTitle = entry.userBook.shelf.title
        favourite = entry.userBook.favourite
        favouriteLabel = favourite ? "Remove \(book.title) from favourites" : "Add \(book.title) to favourites"
        favouritePath = Paths.bookFavourite(bookID)
        shelfPath = Paths.bookShelf(bookID)
        moves = Shelf.allCases.filter { $0 != entry.userBook.shelf }.map {
            Move(shelf: $0.rawValue, label: $0.title)
        }
        startedAt = entry.userBook.startedAt
        finishedAt = entry.userBook.finishedAt
        self.returnTo = returnTo
    }
}

/// Where a book's cover image is served from, or the placeholder when it has none.
enum BookCover {
    static let placeholder = "/static/img/cover-placeholder.svg"

    static func url(for book: Book) -> String {
        guard let path = book.coverPath else { return placeholder }
        return "/covers/" + path
    }
}
