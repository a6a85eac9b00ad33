import GRDB

extension AppDatabase {
    /// Genres (issue 24): each book's categories one per row, kept by triggers from the catalog's JSON array, so a
    /// shelf filtered by genre and the genres page read an index instead of parsing every book's JSON.
    static func migrateToBookCategories(_ db: Database) throws {
        let categories = "json_each(CASE WHEN json_valid(new.categories) THEN new.categories ELSE '[]' END)"
        let rows = """
            SELECT DISTINCT new.id, trim(value) FROM \(categories)
            WHERE type = 'text' AND length(trim(value)) BETWEEN 1 AND 200
            """
        try db.execute(
            sql: """
                CREATE TABLE book_category (
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    name TEXT NOT NULL COLLATE NOCASE,
                    PRIMARY KEY (book_id, name)
                ) WITHOUT ROWID;
                CREATE INDEX book_category_by_name ON book_category(name, book_id);
                -- From a genre's books to one person's entries, testing shelf and rating without reading the rows.
                CREATE INDEX user_book_by_book ON user_book(book_id, user_id, shelf, rating);
                INSERT OR IGNORE INTO book_category (book_id, name)
                    SELECT book.id, trim(value) FROM book,
                        json_each(CASE WHEN json_valid(book.categories) THEN book.categories ELSE '[]' END)
                    WHERE type = 'text' AND length(trim(value)) BETWEEN 1 AND 200;
                CREATE TRIGGER book_category_insert AFTER INSERT ON book BEGIN
                    INSERT OR IGNORE INTO book_category (book_id, name) \(rows);
                END;
                CREATE TRIGGER book_category_update AFTER UPDATE OF categories ON book BEGIN
                    DELETE FROM book_category WHERE book_id = new.id;
                    INSERT OR IGNORE INTO book_category (book_id, name) \(rows);
                END;
                """)
    }
}

extension AppDatabase {
    /// A genre's rows carry their book's publication year (issue 24's filtered shelf budget), so a shelf narrowed by
    /// genre and years reads only the genre's books in range from one index — a quarter of the genre for a 30-year
    /// span — instead of looking up every book of the genre to test its date. The year is the one the filters use
    /// (`LibraryFilters.publishedYear`): the leading four characters of `published_date` as a number.
    static func migrateToCategoryYears(_ db: Database) throws {
        let year = "CAST(substr(new.published_date, 1, 4) AS INTEGER)"
        let rows = """
            SELECT DISTINCT new.id, trim(value), \(year)
            FROM json_each(CASE WHEN json_valid(new.categories) THEN new.categories ELSE '[]' END)
            WHERE type = 'text' AND length(trim(value)) BETWEEN 1 AND 200
            """
        try db.execute(
            sql: """
                ALTER TABLE book_category ADD COLUMN published_year INTEGER;
                UPDATE book_category SET published_year = (
                    SELECT CAST(substr(published_date, 1, 4) AS INTEGER) FROM book
                    WHERE book.id = book_category.book_id);
                -- Serves a genre alone as well as the old (name, book_id) index did, which it replaces.
                DROP INDEX book_category_by_name;
                CREATE INDEX book_category_by_year ON book_category(name, published_year, book_id);
                DROP TRIGGER book_category_insert;
                DROP TRIGGER book_category_update;
                CREATE TRIGGER book_category_insert AFTER INSERT ON book BEGIN
                    INSERT OR IGNORE INTO book_category (book_id, name, published_year) \(rows);
                END;
                CREATE TRIGGER book_category_update AFTER UPDATE OF categories ON book BEGIN
                    DELETE FROM book_category WHERE book_id = new.id;
                    INSERT OR IGNORE INTO book_category (book_id, name, published_year) \(rows);
                END;
                CREATE TRIGGER book_category_year AFTER UPDATE OF published_date ON book
                WHEN old.published_date IS NOT new.published_date BEGIN
                    UPDATE book_category SET published_year = \(year) WHERE book_id = new.id;
                END;
                """)
    }
}
