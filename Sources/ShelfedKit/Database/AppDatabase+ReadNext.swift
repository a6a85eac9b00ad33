import GRDB

extension AppDatabase {
    /// "Read next" ranked when its inputs change, not on every home page (issue 35, finding 9). `read_next_match` keeps,
    /// for each person, every Want-to-read book much like a book they loved, with that book and the likeness.
    /// `read_next_state` counts the changes to what the ranking reads — a shelf, a rating, a favourite, a book's vector
    /// — and the count the stored ranking was made from: when the two differ, the ranking is stale. Triggers keep the
    /// count, so every way of changing a book (the web, the API, imports, the embedding worker, another process) is
    /// seen. A person's recommendations are not ranked ahead: they are read live, one small query.
    static func migrateToReadNext(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE read_next_match (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    because_book_id INTEGER,
                    score REAL NOT NULL,
                    PRIMARY KEY (user_id, book_id)
                ) WITHOUT ROWID;
                CREATE INDEX read_next_match_best ON read_next_match(user_id, score DESC, book_id);
                -- No reference to user: a deleted user's shelf rows are deleted after the user, and their triggers
                -- must not fail on a missing parent. The guards below skip users that are gone.
                CREATE TABLE read_next_state (
                    user_id INTEGER PRIMARY KEY,
                    changes INTEGER NOT NULL DEFAULT 0,
                    ranked_changes INTEGER,
                    loved INTEGER NOT NULL DEFAULT 0,
                    wanted INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO read_next_state (user_id, changes) SELECT id, 1 FROM user;
                CREATE TRIGGER read_next_book_added AFTER INSERT ON user_book BEGIN
                    INSERT INTO read_next_state (user_id, changes) VALUES (new.user_id, 1)
                    ON CONFLICT (user_id) DO UPDATE SET changes = changes + 1;
                END;
                CREATE TRIGGER read_next_book_removed AFTER DELETE ON user_book
                WHEN EXISTS (SELECT 1 FROM user WHERE id = old.user_id) BEGIN
                    INSERT INTO read_next_state (user_id, changes) VALUES (old.user_id, 1)
                    ON CONFLICT (user_id) DO UPDATE SET changes = changes + 1;
                END;
                CREATE TRIGGER read_next_book_changed AFTER UPDATE OF shelf, rating, favourite, book_id ON user_book
                WHEN old.shelf IS NOT new.shelf OR old.rating IS NOT new.rating OR old.favourite IS NOT new.favourite
                    OR old.book_id IS NOT new.book_id
                BEGIN
                    INSERT INTO read_next_state (user_id, changes) VALUES (new.user_id, 1)
                    ON CONFLICT (user_id) DO UPDATE SET changes = changes + 1;
                END;
                CREATE TRIGGER read_next_vector_added AFTER INSERT ON book_embedding BEGIN
                    INSERT INTO read_next_state (user_id, changes)
                    SELECT DISTINCT user_id, 1 FROM user_book WHERE book_id = new.book_id
                    ON CONFLICT (user_id) DO UPDATE SET changes = changes + 1;
                END;
                CREATE TRIGGER read_next_vector_changed AFTER UPDATE OF vector, model ON book_embedding BEGIN
                    INSERT INTO read_next_state (user_id, changes)
                    SELECT DISTINCT user_id, 1 FROM user_book WHERE book_id = new.book_id
                    ON CONFLICT (user_id) DO UPDATE SET changes = changes + 1;
                END;
                CREATE TRIGGER read_next_vector_removed AFTER DELETE ON book_embedding BEGIN
                    INSERT INTO read_next_state (user_id, changes)
                    SELECT DISTINCT user_id, 1 FROM user_book WHERE book_id = old.book_id
                    ON CONFLICT (user_id) DO UPDATE SET changes = changes + 1;
                END;
                """)
    }
}

extension AppDatabase {
    /// The house feed tells an import's history from what happened since by the import rows that made each shelf
    /// entry (issue 36): looked up by entry.
    static func migrateToFeedLines(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX import_row_by_user_book ON import_row(user_book_id) WHERE user_book_id IS NOT NULL;
                """)
    }
}
