import GRDB

extension LibraryStore {
    /// Every book of the user (or of one shelf), newest first, as the Reader app lists them, narrowed by `filters`.
    func readerBooks(of userID: Int64, on shelf: Shelf? = nil, narrowedBy filters: LibraryFilters = .init())
        async throws -> [ReaderBook]
    {
        try await db.read { db in
            let (narrowing, narrowingArguments) = filters.sqlCondition()
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(ReaderBook.selection) FROM \(filters.sqlSource)
                    WHERE user_book.user_id = ?\(shelf == nil ? "" : " AND user_book.shelf = ?")\(narrowing)
                    ORDER BY user_book.added_at DESC, user_book.id DESC
                    """)
            let arguments: StatementArguments =
                (shelf.map { [userID, $0.rawValue] } ?? [userID]) + narrowingArguments
            return try Array(
                Row.fetchCursor(statement, arguments: arguments).map { ReaderBook(row: $0, withShelf: shelf == nil) })
        }
    }
}
