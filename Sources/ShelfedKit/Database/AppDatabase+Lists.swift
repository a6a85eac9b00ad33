import GRDB

extension AppDatabase {
    /// Lists as people keep them (issue 24): a description, and each book's place in its list. Lists made by imports
    /// before this keep their books in the order they were imported.
    static func migrateToListDetails(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE list ADD COLUMN description TEXT;
                ALTER TABLE list_item ADD COLUMN position INTEGER NOT NULL DEFAULT 0;
                UPDATE list_item SET position = (
                    SELECT COUNT(*) FROM list_item AS earlier
                    WHERE earlier.list_id = list_item.list_id AND earlier.rowid <= list_item.rowid);
                CREATE INDEX list_item_by_position ON list_item(list_id, position);
                """)
    }
}
