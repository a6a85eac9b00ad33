import GRDB

extension AppDatabase {
    /// "More like this" found when vectors change, not on every book page (issue 35, finding 9; issue 36, part 9).
    /// `book_neighbours` keeps, for each book with a vector, the catalog books nearest in meaning with their cosines
    /// (`BookNeighbours`), across the whole catalog: who may see which is decided when a page reads them, by
    /// `CatalogVisibility`, so one list serves everyone. `book_neighbours_pending` is the queue: triggers put a book
    /// there whenever its vector is added, changed or removed, and `NeighbourFinder` works through it. A book in the
    /// queue is found live, as before, until its list is made again.
    ///
    /// The index on the author key lets "Also by" find an author's other books without reading every author row.
    static func migrateToBookNeighbours(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE book_neighbours (
                    book_id INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
                    model TEXT NOT NULL,
                    neighbours BLOB NOT NULL
                );
                CREATE TABLE book_neighbours_pending (
                    book_id INTEGER PRIMARY KEY,
                    touches INTEGER NOT NULL DEFAULT 1
                );
                INSERT INTO book_neighbours_pending (book_id)
                SELECT book_id FROM book_embedding WHERE vector IS NOT NULL;
                CREATE TRIGGER book_neighbours_vector_added AFTER INSERT ON book_embedding BEGIN
                    INSERT INTO book_neighbours_pending (book_id) VALUES (new.book_id)
                    ON CONFLICT (book_id) DO UPDATE SET touches = touches + 1;
                END;
                CREATE TRIGGER book_neighbours_vector_changed AFTER UPDATE OF vector, model ON book_embedding BEGIN
                    INSERT INTO book_neighbours_pending (book_id) VALUES (new.book_id)
                    ON CONFLICT (book_id) DO UPDATE SET touches = touches + 1;
                END;
                CREATE TRIGGER book_neighbours_vector_removed AFTER DELETE ON book_embedding BEGIN
                    INSERT INTO book_neighbours_pending (book_id) VALUES (old.book_id)
                    ON CONFLICT (book_id) DO UPDATE SET touches = touches + 1;
                END;
                CREATE INDEX book_author_by_key
                ON book_author(replace(replace(lower(name), ' ', ''), '.', ''), book_id);
                """)
    }

    /// When each person last looked at what waits for them (`ForYouStore`): what came before counts as seen. Everyone
    /// here before this change has seen what there was.
    static func migrateToForYou(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user ADD COLUMN for_you_seen_at DATETIME;
                UPDATE user SET for_you_seen_at = strftime('%Y-%m-%d %H:%M:%f', 'now');
                CREATE INDEX borrow_request_answered ON borrow_request(requester_id, answered_at)
                    WHERE answered_at IS NOT NULL;
                """)
    }

    /// What readers elsewhere rate a book (`CommunityRating`), kept from a Goodreads export or Google Books.
    static func migrateToCommunityRating(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE book ADD COLUMN community_rating REAL;
                ALTER TABLE book ADD COLUMN community_ratings INTEGER;
                ALTER TABLE book ADD COLUMN community_source TEXT;
                """)
    }
}
