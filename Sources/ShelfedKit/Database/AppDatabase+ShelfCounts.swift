import GRDB

extension AppDatabase {
    /// Each person's count of books per shelf, and of favourites on it, kept by triggers on `user_book` (issue 36,
    /// part 9). Every shelf page shows the counts of all four shelves; counted per page they cost a read of every
    /// entry's index row, 0.6 ms at 5,000 books, so the pages grew with the library. A row may hold zeros.
    static func migrateToShelfCounts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE shelf_count (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    shelf TEXT NOT NULL,
                    books INTEGER NOT NULL,
                    favourites INTEGER NOT NULL,
                    PRIMARY KEY (user_id, shelf)
                ) WITHOUT ROWID;
                INSERT INTO shelf_count (user_id, shelf, books, favourites)
                    SELECT user_id, shelf, COUNT(*), COALESCE(SUM(favourite != 0), 0) FROM user_book
                    GROUP BY user_id, shelf;
                CREATE TRIGGER shelf_count_on_insert AFTER INSERT ON user_book BEGIN
                    INSERT INTO shelf_count (user_id, shelf, books, favourites)
                        VALUES (NEW.user_id, NEW.shelf, 1, NEW.favourite != 0)
                        ON CONFLICT (user_id, shelf) DO UPDATE
                        SET books = books + 1, favourites = favourites + excluded.favourites;
                END;
                CREATE TRIGGER shelf_count_on_delete AFTER DELETE ON user_book BEGIN
                    UPDATE shelf_count SET books = books - 1, favourites = favourites - (OLD.favourite != 0)
                        WHERE user_id = OLD.user_id AND shelf = OLD.shelf;
                END;
                CREATE TRIGGER shelf_count_on_update AFTER UPDATE OF user_id, shelf, favourite ON user_book
                WHEN OLD.user_id IS NOT NEW.user_id OR OLD.shelf IS NOT NEW.shelf
                    OR (OLD.favourite != 0) IS NOT (NEW.favourite != 0)
                BEGIN
                    UPDATE shelf_count SET books = books - 1, favourites = favourites - (OLD.favourite != 0)
                        WHERE user_id = OLD.user_id AND shelf = OLD.shelf;
                    INSERT INTO shelf_count (user_id, shelf, books, favourites)
                        VALUES (NEW.user_id, NEW.shelf, 1, NEW.favourite != 0)
                        ON CONFLICT (user_id, shelf) DO UPDATE
                        SET books = books + 1, favourites = favourites + excluded.favourites;
                END;
                """)
    }

    /// The house library walks the catalog in title order and finds each book's owned copies by index, instead of
    /// sorting every copy in the house per page (`LoanStore.houseLibrary`).
    static func migrateToHouseLibraryIndexes(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX book_by_title ON book(title COLLATE NOCASE);
                CREATE INDEX user_book_owned ON user_book(book_id, user_id) WHERE owned = 1;
                """)
    }
}
