import GRDB

extension SimilarBooks {
    /// Why a title is like the one on the page. Kept as what was found and said in the reader's words when shown:
    /// the search runs on a database thread, where the request's language is not known.
    enum Reason: Sendable, Equatable {
        /// The same story told as another kind of title.
        case sameStory(TitleKind)
        case series(SeriesPlace)
        case author(String)
        /// Up to two shared genres.
        case genres([String])
        case themes

        var phrase: String {
            switch self {
            case .sameStory(.book): localized("The same story as a book")
            case .sameStory(.movie): localized("The same story as a film")
            case .sameStory(.show): localized("The same story as a TV show")
            case .series(let place): place.phrase
            case .author(let name): localized("Also by {{author}}", ["author": name])
            case .genres(let names): localized("Also in {{genres}}", ["genres": names.joined(separator: ", ")])
            case .themes: localized("Similar themes")
            }
        }
    }
}

/// More like this, kept between book pages (`CommitMemo`) until a title, a vector, a shelf or someone's sharing
/// changes: what a book is like does not change between one reader's visits, nor when the page is opened again.
typealias SimilarMemo = CommitMemo<SimilarKey, [SimilarBooks.Similar]?>

/// Whose More like this: the book, the viewer (what they may see, what they have), and how many.
struct SimilarKey: Hashable, Sendable {
    let bookID: Int64
    let userID: Int64?
    let limit: Int
}

extension CommitMemo where Key == SimilarKey, Value == [SimilarBooks.Similar]? {
    /// Every table `SimilarBooks.like` reads; of the shelves, the columns it reads (a progress update is no change).
    convenience init(database: AppDatabase, lifetime: Duration) {
        self.init(
            database: database,
            tracking: [
                Table("book"), Table("book_author"), Table("book_embedding"), Table("book_neighbours"),
                Table("book_neighbours_pending"),
                Table("user_book").select(Column("user_id"), Column("book_id"), Column("shelf")),
                Table("user").select(Column("shares_reading")),
            ],
            capacity: 64, lifetime: lifetime)
    }

    /// `SimilarBooks.like` inside the caller's read, from what was kept when nothing changed since `generation` (read
    /// before that read began).
    func like(bookID: Int64, userID: Int64?, limit: Int, generation: Int, _ db: Database) throws
        -> [SimilarBooks.Similar]?
    {
        let key = SimilarKey(bookID: bookID, userID: userID, limit: limit)
        if let kept = value(for: key, generation: generation) { return kept }
        let found = try SimilarBooks.like(bookID: bookID, userID: userID, limit: limit, db)
        keep(found, for: key, generation: generation)
        return found
    }
}
