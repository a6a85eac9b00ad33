import GRDB

extension LibraryStore {
    // The Reader and BooksTrack contracts (DESIGN §6) know books only: films and shows (§17) are left out of their
    // lists and counts, and their ids answer 404 there, so the apps see exactly what they saw before.

    /// Every book of the user (or of one shelf), newest first, as the Reader app lists them, narrowed by `filters`.
    func readerBooks(of userID: Int64, on shelf: Shelf? = nil, narrowedBy filters: LibraryFilters = .init())
        async throws -> [ReaderBook]
    {
        try await db.read { db in
            let (narrowing, narrowingArguments) = filters.sqlCondition()
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(ReaderBook.selection) FROM \(filters.sqlSource)
                    WHERE user_book.user_id = ? AND book.kind = 'book'\(shelf == nil ? "" : " AND user_book.shelf = ?")\(narrowing)
                    ORDER BY user_book.added_at DESC, user_book.id DESC
                    """)
            let arguments: StatementArguments =
                (shelf.map { [userID, $0.rawValue] } ?? [userID]) + narrowingArguments
            return try Array(
                Row.fetchCursor(statement, arguments: arguments).map { ReaderBook(row: $0, withShelf: shelf == nil) })
        }
    }

    /// How many books (not films or shows) the user has on each shelf: the kept counts of every kind, less the
    /// person's films and shows, found through the catalog's index of screen titles.
    func bookCounts(of userID: Int64) async throws -> ShelfCounts {
        try await db.read { db in
            var counts = try Self.fetchCounts(db, of: userID)
            let screen = try Row.fetchCursor(
                db.cachedStatement(sql: Self.screenTitleCountsSQL), arguments: [userID])
            while let row = try screen.next() {
                guard let shelf = Shelf(rawValue: row[0]) else { continue }
                counts.byShelf[shelf] = max(0, counts[shelf] - (row[1] as Int))
                counts.favourites = max(0, counts.favourites - (row[2] as Int))
            }
            return counts
        }
    }

    static let screenTitleCountsSQL = """
        SELECT user_book.shelf, COUNT(*), COALESCE(SUM(user_book.favourite != 0), 0)
        FROM book CROSS JOIN user_book ON user_book.book_id = book.id AND user_book.user_id = ?
        WHERE book.kind != 'book' GROUP BY user_book.shelf
        """

    /// The user's entry for `bookID` when it is a book; the book API's 404 for a film or show, as for any id not theirs.
    func requireBookEntry(bookID: Int64?, of userID: Int64) async throws -> LibraryEntry {
        let entry = try await requireEntry(bookID: bookID, of: userID)
        guard entry.book.kind == .book else { throw Self.notInLibrary }
        return entry
    }
}
