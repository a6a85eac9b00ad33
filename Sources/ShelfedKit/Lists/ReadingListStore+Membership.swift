import GRDB

extension ReadingListStore {
    /// The person's lists with whether catalog book `bookID` is on each, for the book page and "Add to a list".
    func membership(ofBook bookID: Int64, for userID: Int64) async throws -> [(list: ReadingList, contains: Bool)] {
        try await db.read { db in try Self.membership(ofBook: bookID, for: userID, db) }
    }

    /// `membership(ofBook:for:)` inside the caller's read.
    static func membership(ofBook bookID: Int64, for userID: Int64, _ db: Database) throws -> [(
        list: ReadingList, contains: Bool
    )] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT list.id, list.name, list.description,
                        (SELECT COUNT(*) FROM list_item WHERE list_item.list_id = list.id) AS book_count,
                        EXISTS (SELECT 1 FROM list_item JOIN user_book ON user_book.id = list_item.user_book_id
                            WHERE list_item.list_id = list.id AND user_book.book_id = ? AND user_book.user_id = ?)
                            AS contains
                    FROM list WHERE list.user_id = ? ORDER BY list.position, list.id LIMIT ?
                    """), arguments: [bookID, userID, userID, Self.maxLists]
        ).map { row in (ReadingList(row, coverPaths: []), row["contains"] as Bool) }
    }
}
