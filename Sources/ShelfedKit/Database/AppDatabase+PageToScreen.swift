import GRDB

extension AppDatabase {
    /// Page to screen (issue 38): what a film or show is based on, from Wikidata's "based on" (P144), kept once found
    /// so pages never ask the network. `source_title` is the work's English label, matched to books by title without
    /// case; `book.adaptations_checked_at` says when a film's or show's row was last looked up (nil: not yet), indexed
    /// for the films and shows alone, so the worker's look after each shelf change reads only them.
    static func migrateToPageToScreen(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE adaptation (
                    screen_book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    source_item TEXT NOT NULL,
                    source_title TEXT NOT NULL,
                    source_author TEXT,
                    PRIMARY KEY (screen_book_id, source_item)
                ) WITHOUT ROWID;
                CREATE INDEX adaptation_source_title ON adaptation(source_title COLLATE NOCASE);
                ALTER TABLE book ADD COLUMN adaptations_checked_at DATETIME;
                CREATE INDEX book_adaptations_due ON book(adaptations_checked_at)
                    WHERE kind IN ('movie', 'show') AND provider_key IS NOT NULL;
                """)
    }
}
