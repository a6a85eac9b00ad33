import GRDB
import Hummingbird

/// `/genres`: the categories of the person's library with how many books each has and a few covers, each opening
/// the shelves filtered to it.
struct GenresController: Sendable {
    let db: AppDatabase
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.genres.routerPath, use: index)
    }

    struct Genre: Sendable {
        let name: String
        let count: Int
        let countLabel: String
        let path: String
        let covers: [String]
    }

    /// The most genres listed (a library imported from Open Library can name hundreds of subjects).
    static let maxGenres = 300

    /// GET /genres
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let userID = context.userID
        let genres = try await db.read { db in
            let counted = try Row.fetchAll(
                db,
                sql: """
                    SELECT book_category.name, COUNT(*) FROM user_book
                    JOIN book_category ON book_category.book_id = user_book.book_id
                    WHERE user_book.user_id = ? GROUP BY book_category.name ORDER BY COUNT(*) DESC, book_category.name
                    LIMIT ?
                    """, arguments: [userID, Self.maxGenres])
            let covers = try db.cachedStatement(
                sql: """
                    SELECT book.cover_path FROM book_category JOIN user_book ON user_book.book_id = book_category.book_id
                    JOIN book ON book.id = book_category.book_id
                    WHERE book_category.name = ? AND user_book.user_id = ? AND book.cover_path IS NOT NULL LIMIT 3
                    """)
            return try counted.map { row in
                let name: String = row[0]
                let count: Int = row[1]
                return Genre(
                    name: name, count: count, countLabel: count == 1 ? "1 book" : "\(count) books",
                    path: Pagination.link(Paths.shelves, query: ["category": name], page: 1),
                    covers: try String.fetchAll(covers, arguments: [name, userID]).map { BookCover.url(for: $0) }
                        .nonEmpty ?? [BookCover.placeholder])
            }
        }
        return try renderer.render(
            GenresPage(chrome: PageChrome(title: "Genres", context: context, tab: .shelves), genres: genres),
            template: "library/genres")
    }
}

/// `library/genres`
struct GenresPage: Sendable {
    let chrome: PageChrome
    let genres: [GenresController.Genre]
}

extension Array {
    /// The array, or nil when it is empty.
    fileprivate var nonEmpty: Self? { isEmpty ? nil : self }
}
