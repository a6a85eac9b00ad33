import GRDB

extension Shelf {
    /// The Reader app's fixed shelf ids, the same for everyone (DESIGN §6).
    var readerID: Int {
        switch self {
        case .reading: 1
        case .wantToRead: 2
        case .read: 3
        // Added after the Reader app's three; a client that knows only 1–3 still decodes every list.
        case .didNotFinish: 4
        }
    }

    var readerName: String {
        switch self {
        case .reading: "Currently Reading"
        case .wantToRead: "Want to Read"
        case .read: "Read"
        case .didNotFinish: "Did Not Finish"
        }
    }

    init?(readerID: Int) {
        guard let shelf = Self.allCases.first(where: { $0.readerID == readerID }) else { return nil }
        self = shelf
    }

    /// The shelves in the order the Reader app lists them.
    static let readerOrder: [Shelf] = [.reading, .wantToRead, .read, .didNotFinish]
}

/// A book in the Reader app's lists: `author` is the authors joined with ", ", `isbn` the ISBN-13, else the
/// ISBN-10, else null. The shelf fields appear in the all-books list, not in one shelf's list.
struct ReaderBook: Sendable {
    let id: Int64
    let title: String
    let author: String
    let isbn: String?
    var shelf: Shelf?

    /// Writes the book as one JSON object, keys sorted (lists are long: see `JSONWriter`).
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("author")
            json.string(author)
            json.key("id")
            json.integer(id)
            json.key("isbn")
            json.string(isbn)
            if let shelf {
                json.key("shelf_id")
                json.integer(shelf.readerID)
                json.key("shelf_name")
                json.string(shelf.readerName)
            }
            json.key("title")
            json.string(title)
        }
    }
}

extension ReaderBook {
    /// The columns `init(row:)` reads, over `user_book` joined to `book`.
    static let selection = "book.id, book.title, book.author_names, COALESCE(book.isbn13, book.isbn10), user_book.shelf"

    init(row: Row, withShelf: Bool) {
        id = row[0]
        title = row[1]
        author = row[2]
        isbn = row[3]
        shelf = withShelf ? Shelf(rawValue: row[4]) : nil
    }
}

/// One book in full for the Reader app: the list fields plus its shelf, cover path on this server and the
/// user's review (`comments`); absent values are null.
struct ReaderBookDetail: Encodable, Sendable {
    let id: Int64
    let title: String
    let author: String
    let isbn: String?
    let shelfID: Int
    let shelfName: String
    let imageURL: String?
    let comments: String?

    enum CodingKeys: String, CodingKey {
        case id, title, author, isbn
        case shelfID = "shelf_id"
        case shelfName = "shelf_name"
        case imageURL = "image_url"
        case comments
    }

    init(_ entry: LibraryEntry) {
        id = entry.book.id ?? 0
        title = entry.book.title
        author = entry.book.authors.joined(separator: ", ")
        isbn = entry.book.isbn13 ?? entry.book.isbn10
        shelfID = entry.userBook.shelf.readerID
        shelfName = entry.userBook.shelf.readerName
        imageURL = entry.book.coverPath.map { "/covers/" + $0 }
        comments = entry.userBook.review
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(author, forKey: .author)
        try container.encode(isbn, forKey: .isbn)
        try container.encode(shelfID, forKey: .shelfID)
        try container.encode(shelfName, forKey: .shelfName)
        try container.encode(imageURL, forKey: .imageURL)
        try container.encode(comments, forKey: .comments)
    }
}
