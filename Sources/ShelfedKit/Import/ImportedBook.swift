import Foundation

/// One row of an export file as Shelfed will store it, whatever tracker wrote it. Kept as JSON in `import_row`
/// between the preview, the job and a repair, so its fields are plain values.
struct ImportedBook: Codable, Sendable, Equatable {
    var title: String
    var authors: [String] = []
    var isbn13: String?
    var isbn10: String?
    /// Identifiers that are not ISBNs: `goodreads`, `storygraph`, `asin`, `librarything`, `openlibrary`, ….
    var externalIDs: [String: String] = [:]
    var shelf: ImportedShelf = .known(.wantToRead)
    /// Non-exclusive shelves and tags, which become lists.
    var lists: [String] = []
    var favourite = false
    /// 0.25 to 5 in quarter steps; nil when the row has none (Goodreads writes 0 for "not rated").
    var rating: Double?
    /// Goodreads' "Average Rating": what its readers thought.
    var community: CommunityRating? = nil
    var review: String?
    var privateNotes: String?
    var owned: Bool?
    var format: String?
    /// Every read the row records, oldest first; a read book with no date has a read-through with no dates.
    var readThroughs: [ReadThrough] = []
    /// When it was added to the old tracker (`yyyy-mm-dd`), nil when unknown.
    var addedOn: String?
    var pageCount: Int?
    var publisher: String?
    var publishedDate: String?
    var description: String?
    /// What the importer had to decide for this row (an empty status read as Want to read, a dropped date, …).
    var notes: [String] = []

    init(title: String) {
        self.title = title
    }

    var isbn: ISBN? { isbn13.flatMap(ISBN.init) ?? isbn10.flatMap(ISBN.init) }

    /// The first author, or "" when the row has none.
    var firstAuthor: String { authors.first ?? "" }
}

/// One reading of a book; either date may be unknown.
struct ReadThrough: Codable, Sendable, Equatable, Hashable {
    var startedOn: String?
    var finishedOn: String?
}

/// Where a row goes: one of Shelfed's shelves, or an exclusive shelf of the old tracker (`did-not-finish`,
/// `waiting`) that the person maps in the preview.
enum ImportedShelf: Codable, Sendable, Equatable, Hashable {
    case known(Shelf)
    case custom(String)
}

/// What reading one row gave: the book, or why it cannot be imported as it stands.
enum ImportRowReading: Sendable, Equatable {
    case book(ImportedBook)
    /// The row cannot be imported as it stands; the person can fix it and try again.
    case problem(String)
    /// The row is deliberately left out (a book deleted in the old tracker), with the reason.
    case skipped(String)
}
