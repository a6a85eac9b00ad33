import GRDB

extension AppDatabase {
    /// Did not finish (issue 24): a fourth status beside the three shelves, with the day the person stopped and an
    /// optional reason (the page they stopped at is their latest progress, as on any book).
    ///
    /// SQLite cannot change a CHECK constraint, so `user_book` is rebuilt from its own definition with
    /// `did_not_finish` allowed — every column, row and id kept — and its indexes and the triggers that name it are
    /// made again as they were. Migrations run with foreign keys off (checked before commit), so the reads, lists,
    /// journal entries and import rows that point at its ids stay pointed at them.
    static func migrateToDidNotFinish(_ db: Database) throws {
        guard
            let table = try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'user_book'")
        else { throw DatabaseError(message: "user_book is missing") }
        let allowed = "'want_to_read', 'reading', 'read')"
        guard table.contains(allowed) else { throw DatabaseError(message: "user_book's shelf check is not as made") }
        let rebuilt = table.replacingOccurrences(
            of: allowed, with: "'want_to_read', 'reading', 'read', 'did_not_finish')"
        )
        .replacingOccurrences(of: #"CREATE TABLE "user_book""#, with: #"CREATE TABLE "user_book_new""#)
        // Indexes on the table, and triggers on it or naming it (a trigger that names a table that is gone stops the
        // rename below).
        let dependents = try Row.fetchAll(
            db,
            sql: """
                SELECT type, name, sql FROM sqlite_master
                WHERE sql IS NOT NULL AND ((type = 'index' AND tbl_name = 'user_book')
                    OR (type = 'trigger' AND (tbl_name = 'user_book' OR sql LIKE '%user_book%')))
                """)
        for row in dependents where row["type"] as String == "trigger" {
            try db.execute(sql: "DROP TRIGGER \(quoted(row["name"]))")
        }
        try db.execute(sql: rebuilt)
        try db.execute(
            sql: """
                INSERT INTO user_book_new SELECT * FROM user_book;
                DROP TABLE user_book;
                ALTER TABLE user_book_new RENAME TO user_book;
                ALTER TABLE user_book ADD COLUMN stopped_at TEXT;
                ALTER TABLE user_book ADD COLUMN stop_reason TEXT;
                """)
        for row in dependents {
            try db.execute(sql: row["sql"])
        }
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
