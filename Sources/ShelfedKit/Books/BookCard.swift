/// The heading of a book's own page (and its remove confirmation): what Mustache shows of it.
struct BookCard: Sendable {
    let id: Int64
    let path: String
    let title: String
    /// Nil when the book has no authors, so templates can leave out "by".
    let authors: String?
    let coverURL: String
    let hasCover: Bool
    let favourite: Bool
    let favouritePath: String
    let shelfPath: String
    /// Set in smaller type on the book's page, so a 300-character title is not a screenful of heading.
    let longTitle: Bool

    init(_ item: LibraryItem) {
        id = item.bookID
        path = Paths.book(item.bookID)
        title = item.title
        authors = item.authors.isEmpty ? nil : item.authors
        coverURL = BookCover.url(for: item.coverPath)
        hasCover = item.coverPath != nil
        favourite = item.favourite
        favouritePath = Paths.bookFavourite(item.bookID)
        shelfPath = Paths.bookShelf(item.bookID)
        longTitle = item.title.count > 80
    }
}

/// Where a book's cover image is served from, or the placeholder when it has none.
enum BookCover {
    static let placeholder = "/static/img/cover-placeholder.svg"

    static func url(for coverPath: String?) -> String {
        guard let path = coverPath else { return placeholder }
        return "/covers/" + path
    }
}

/// Where a list of books that may not all be the person's ("More like this", a series) links each one and how it adds
/// it: the book's own page when it is in their library; else the search's page for a Google volume, added by its
/// volume id, or by its ISBN when it has no volume id.
struct CatalogLink: Sendable {
    let path: String?
    let addVolumeID: String?
    let addISBN: String?

    init(_ book: Book, inLibrary: Bool) {
        path = inLibrary ? Paths.book(book.id!) : book.googleVolumeId.map(Paths.searchVolume)
        addVolumeID = inLibrary ? nil : book.googleVolumeId
        addISBN = inLibrary || book.googleVolumeId != nil ? nil : book.isbn13 ?? book.isbn10
    }
}
