import GRDB

extension LibraryStore {
    /// A genre of the person's library: how many of their books are in it, and up to three of their covers.
    struct Genre: Sendable, Equatable {
        let name: String
        let count: Int
        let coverPaths: [String]
    }

    /// The most genres listed (a library imported from Open Library can name hundreds of subjects).
    static let maxGenres = 300

    /// The genres of `userID`'s books, the largest first, each with the covers of its most recently published books
    /// (read backwards along the genre's year index, so no genre's books are sorted).
    func genres(of userID: Int64) async throws -> [Genre] {
        try await db.read { db in
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
                    WHERE book_category.name = ? AND user_book.user_id = ? AND book.cover_path IS NOT NULL
                    ORDER BY book_category.published_year DESC LIMIT 3
                    """)
            return try counted.map { row in
                let name: String = row[0]
                return Genre(
                    name: name, count: row[1], coverPaths: try String.fetchAll(covers, arguments: [name, userID]))
            }
        }
    }
}
