import GRDB

extension AppDatabase {
    /// Meaning vectors (DESIGN §14): one per catalog book and per page photo with words, each with the id of the model
    /// that made it. A vector is 384 float16 values, little-endian (768 bytes); NULL when the text could not be
    /// embedded, so it is not tried again until the text changes. Triggers drop a vector when the text it was made
    /// from changes, which is what puts the row back in the embedder's queue.
    static func migrateToEmbeddings(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE book_embedding (
                    book_id INTEGER PRIMARY KEY REFERENCES book(id) ON DELETE CASCADE,
                    model TEXT NOT NULL,
                    vector BLOB,
                    embedded_at DATETIME NOT NULL
                );
                CREATE TABLE photo_embedding (
                    photo_id INTEGER PRIMARY KEY REFERENCES photo(id) ON DELETE CASCADE,
                    model TEXT NOT NULL,
                    vector BLOB,
                    embedded_at DATETIME NOT NULL
                );
                CREATE TRIGGER book_embedding_stale
                AFTER UPDATE OF title, subtitle, authors, author_names, description, categories ON book
                WHEN old.title IS NOT new.title OR old.subtitle IS NOT new.subtitle
                    OR old.authors IS NOT new.authors OR old.author_names IS NOT new.author_names
                    OR old.description IS NOT new.description
                    OR old.categories IS NOT new.categories
                BEGIN
                    DELETE FROM book_embedding WHERE book_id = new.id;
                END;
                CREATE TRIGGER photo_embedding_stale AFTER UPDATE OF ocr_text, comment, book_id ON photo
                WHEN old.ocr_text IS NOT new.ocr_text OR old.comment IS NOT new.comment
                    OR old.book_id IS NOT new.book_id
                BEGIN
                    DELETE FROM photo_embedding WHERE photo_id = new.id;
                END;
                """)
    }
}

extension AppDatabase {
    /// A catalog row nobody has any more leaves the meaning index (issue 35): its vector goes when the last shelf
    /// entry for it does (a book removed, an account deleted), and the ones already orphaned go now.
    static func migrateToHeldEmbeddings(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM book_embedding WHERE book_id NOT IN (SELECT book_id FROM user_book);
                CREATE TRIGGER book_embedding_unheld AFTER DELETE ON user_book
                WHEN NOT EXISTS (SELECT 1 FROM user_book WHERE book_id = old.book_id) BEGIN
                    DELETE FROM book_embedding WHERE book_id = old.book_id;
                END;
                CREATE TRIGGER book_embedding_unheld_moved AFTER UPDATE OF book_id ON user_book
                WHEN old.book_id != new.book_id AND NOT EXISTS (SELECT 1 FROM user_book WHERE book_id = old.book_id)
                BEGIN
                    DELETE FROM book_embedding WHERE book_id = old.book_id;
                END;
                """)
    }
}
