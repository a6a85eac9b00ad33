import GRDB

extension AppDatabase {
    /// The words read from photos (`photo.ocr_text`, `ocr_status`) and two FTS5 indexes kept by triggers:
    /// `photo_fts` over each photo's text and comment (external content: the text lives only in `photo`), and
    /// `library_fts` over each library entry's title, authors, description and review, one row per `user_book`
    /// so a search joins straight to the user's own entries.
    static func migrateToTextSearch(_ db: Database) throws {
        try db.alter(table: "photo") { t in
            t.add(column: "ocr_text", .text)
            // pending | reading | done | failed | edited; null for profile pictures, which are never read.
            t.add(column: "ocr_status", .text)
        }
        try db.execute(
            sql: """
                UPDATE photo SET ocr_status = 'pending' WHERE book_id IS NOT NULL;
                CREATE INDEX photo_ocr_waiting ON photo(ocr_status, id) WHERE ocr_status IN ('pending', 'reading');

                CREATE VIRTUAL TABLE photo_fts USING fts5(
                    ocr_text, comment, content = 'photo', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO photo_fts(photo_fts) VALUES ('rebuild');
                CREATE TRIGGER photo_fts_insert AFTER INSERT ON photo BEGIN
                    INSERT INTO photo_fts(rowid, ocr_text, comment) VALUES (new.id, new.ocr_text, new.comment);
                END;
                CREATE TRIGGER photo_fts_delete AFTER DELETE ON photo BEGIN
                    INSERT INTO photo_fts(photo_fts, rowid, ocr_text, comment) VALUES ('delete', old.id, old.ocr_text, old.comment);
                END;
                CREATE TRIGGER photo_fts_update AFTER UPDATE OF ocr_text, comment ON photo BEGIN
                    INSERT INTO photo_fts(photo_fts, rowid, ocr_text, comment) VALUES ('delete', old.id, old.ocr_text, old.comment);
                    INSERT INTO photo_fts(rowid, ocr_text, comment) VALUES (new.id, new.ocr_text, new.comment);
                END;

                CREATE VIRTUAL TABLE library_fts USING fts5(
                    title, authors, description, review, tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO library_fts(rowid, title, authors, description, review)
                    SELECT user_book.id, book.title, book.author_names, book.description, user_book.review
                    FROM user_book JOIN book ON book.id = user_book.book_id;
                CREATE TRIGGER library_fts_insert AFTER INSERT ON user_book BEGIN
                    INSERT INTO library_fts(rowid, title, authors, description, review)
                        SELECT new.id, title, author_names, description, new.review FROM book WHERE id = new.book_id;
                END;
                CREATE TRIGGER library_fts_delete AFTER DELETE ON user_book BEGIN
                    DELETE FROM library_fts WHERE rowid = old.id;
                END;
                CREATE TRIGGER library_fts_review AFTER UPDATE OF review, book_id ON user_book BEGIN
                    DELETE FROM library_fts WHERE rowid = old.id;
                    INSERT INTO library_fts(rowid, title, authors, description, review)
                        SELECT new.id, title, author_names, description, new.review FROM book WHERE id = new.book_id;
                END;
                CREATE TRIGGER library_fts_book AFTER UPDATE OF title, author_names, description ON book BEGIN
                    DELETE FROM library_fts WHERE rowid IN (SELECT id FROM user_book WHERE book_id = new.id);
                    INSERT INTO library_fts(rowid, title, authors, description, review)
                        SELECT user_book.id, new.title, new.author_names, new.description, user_book.review
                        FROM user_book WHERE user_book.book_id = new.id;
                END;
                """)
    }
}
