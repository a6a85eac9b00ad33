import GRDB

extension AppDatabase {
    /// Catalog ownership (DESIGN §4). Provider rows stay shared; a row typed by hand or imported belongs to one
    /// user. Until now such rows were shared too, so a hand-typed title reached whoever added the same ISBN.
    ///
    /// The `book` table is rebuilt without its table-wide `UNIQUE` on ISBN-13 and volume id (SQLite cannot drop
    /// those): uniqueness now holds among shared rows, and per owner among owned rows. Each hand-typed row goes
    /// to the first person who added it; everyone else who has it gets their own copy (with its authors), and
    /// their shelf entry and photos move to that copy, so nothing anyone sees changes. A hand-typed row nobody
    /// has or photographed is dropped: it is nobody's data.
    static func migrateToOwnedBooks(_ db: Database) throws {
        let columns = """
            id, google_volume_id, isbn10, isbn13, title, subtitle, authors, publisher, published_date, description, \
            page_count, categories, language, cover_path, source, created_at, updated_at
            """
        try db.execute(
            sql: """
                CREATE TABLE book_new (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    google_volume_id TEXT, isbn10 TEXT, isbn13 TEXT, title TEXT NOT NULL, subtitle TEXT,
                    authors TEXT NOT NULL DEFAULT '[]', publisher TEXT, published_date TEXT, description TEXT,
                    page_count INTEGER, categories TEXT NOT NULL DEFAULT '[]', language TEXT, cover_path TEXT,
                    source TEXT NOT NULL, created_at DATETIME NOT NULL, updated_at DATETIME NOT NULL,
                    owner_user_id INTEGER);
                INSERT INTO book_new (\(columns)) SELECT \(columns) FROM book;
                DROP TABLE book;
                ALTER TABLE book_new RENAME TO book;
                CREATE UNIQUE INDEX book_shared_volume ON book(google_volume_id)
                    WHERE owner_user_id IS NULL AND google_volume_id IS NOT NULL;
                CREATE UNIQUE INDEX book_shared_isbn13 ON book(isbn13)
                    WHERE owner_user_id IS NULL AND isbn13 IS NOT NULL;
                CREATE INDEX book_owner ON book(owner_user_id, isbn13);
                -- Provider page counts are publicly editable; keep only plausible ones (DESIGN §13).
                UPDATE book SET page_count = NULL WHERE page_count NOT BETWEEN 1 AND 100000;
                """)
        let handTyped = try Int64.fetchAll(
            db, sql: "SELECT id FROM book WHERE source NOT IN ('google', 'openlibrary') ORDER BY id")
        for bookID in handTyped {
            let holders = try Int64.fetchAll(
                db, sql: "SELECT user_id FROM user_book WHERE book_id = ? ORDER BY added_at, id", arguments: [bookID])
            let photographers = try Int64.fetchAll(
                db, sql: "SELECT DISTINCT user_id FROM photo WHERE book_id = ? ORDER BY user_id", arguments: [bookID])
            var owners: [Int64] = []
            for user in holders + photographers where !owners.contains(user) { owners.append(user) }
            guard let first = owners.first else {
                try db.execute(sql: "DELETE FROM book_author WHERE book_id = ?", arguments: [bookID])
                try db.execute(sql: "DELETE FROM book WHERE id = ?", arguments: [bookID])
                continue
            }
            try db.execute(sql: "UPDATE book SET owner_user_id = ? WHERE id = ?", arguments: [first, bookID])
            let copied = columns.replacingOccurrences(of: "id, google_volume_id", with: "google_volume_id")
            for owner in owners.dropFirst() {
                try db.execute(
                    sql: "INSERT INTO book (\(copied), owner_user_id) SELECT \(copied), ? FROM book WHERE id = ?",
                    arguments: [owner, bookID])
                let copy = db.lastInsertedRowID
                try db.execute(
                    sql: """
                        INSERT INTO book_author (book_id, position, name)
                        SELECT ?, position, name FROM book_author WHERE book_id = ?
                        """, arguments: [copy, bookID])
                for table in ["user_book", "photo"] {
                    try db.execute(
                        sql: "UPDATE \(table) SET book_id = ? WHERE book_id = ? AND user_id = ?",
                        arguments: [copy, bookID, owner])
                }
            }
        }
    }
}
