import GRDB

extension AppDatabase {
    /// The reading journal (issue 24): one row per progress update — the day, the page or the percent (e-books and
    /// audiobooks), an optional note — on a shelf entry, gone with it. The entry keeps its latest page or percent
    /// (`current_page`, `current_percent`) so shelves and the home page show a bar without reading the journal.
    static func migrateToJournal(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE journal_entry (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_book_id INTEGER NOT NULL REFERENCES user_book(id) ON DELETE CASCADE,
                    read_on TEXT NOT NULL,
                    page INTEGER CHECK (page IS NULL OR page BETWEEN 0 AND 100000),
                    percent REAL CHECK (percent IS NULL OR percent BETWEEN 0 AND 100),
                    note TEXT,
                    created_at DATETIME NOT NULL,
                    CHECK ((page IS NULL) != (percent IS NULL))
                );
                CREATE INDEX journal_entry_by_book ON journal_entry(user_book_id, read_on, id);
                ALTER TABLE user_book ADD COLUMN current_percent REAL;
                """)
    }
}
