import GRDB

extension AppDatabase {
    /// "Watched together" (issue 38): one person tells another in the house that they watched a film, or a day's
    /// episodes of a show, with them. Nothing reaches the other's shelf until they say yes; `recipient_book_id` is the
    /// catalog row their entry ended up on (the same shared row, or a copy of the sender's own). `episodes` holds a
    /// show's episodes as season × 100,000 + number, so a copy of the row finds its own episodes; nil for a film.
    static func migrateToWatchedTogether(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE watched_together (
                    id INTEGER PRIMARY KEY,
                    from_user INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    to_user INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    day TEXT NOT NULL,
                    episodes TEXT,
                    created_at DATETIME NOT NULL,
                    answer TEXT CHECK (answer IN ('yes', 'no')),
                    answered_at DATETIME,
                    recipient_book_id INTEGER REFERENCES book(id) ON DELETE SET NULL,
                    CHECK (from_user != to_user),
                    UNIQUE (from_user, book_id, to_user, day)
                );
                CREATE INDEX watched_together_waiting ON watched_together(to_user, answer);
                CREATE INDEX watched_together_accepted ON watched_together(recipient_book_id, to_user)
                    WHERE answer = 'yes';
                """)
    }
}
