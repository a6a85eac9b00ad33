import GRDB

extension AppDatabase {
    /// Films and TV shows in the catalog beside books (issue 37, DESIGN §17): a kind on every row, `book` for every
    /// row written before, and a film's or show's running time. The kind is fixed once written: the Reader and
    /// BooksTrack contracts count and list books only, and a row that turned into a film would leave them wrong.
    /// The longest film released runs 857 hours (51,420 minutes); a migration keeps its own literal bound, since
    /// a constant changed later would not change the rows' check. The partial index finds a person's films and shows without walking their books (the book API subtracts
    /// them from the shelf counts).
    static func migrateToTitleKinds(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE book ADD COLUMN kind TEXT NOT NULL DEFAULT 'book'
                    CHECK (kind IN ('book', 'movie', 'show'));
                ALTER TABLE book ADD COLUMN runtime_minutes INTEGER
                    CHECK (runtime_minutes IS NULL OR runtime_minutes BETWEEN 1 AND 60000);
                CREATE INDEX book_screen_titles ON book(kind) WHERE kind != 'book';
                CREATE TRIGGER book_kind_is_fixed BEFORE UPDATE OF kind ON book
                WHEN OLD.kind IS NOT NEW.kind
                BEGIN
                    SELECT RAISE(ABORT, 'a title keeps its kind');
                END;
                """)
    }
}
