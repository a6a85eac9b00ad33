import GRDB

extension AppDatabase {
    /// Each person's language (issue 39): nil follows their browser's `Accept-Language`.
    static func migrateToLanguages(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user ADD COLUMN language TEXT CHECK (language IS NULL OR language IN ('en', 'es', 'de', 'fr', 'it', 'pt'));
                """)
    }
}

extension AppDatabase {
    /// Titles and authors in the order readers of Shelfed's six languages expect (issue 39): "Ärger" beside "Arger"
    /// (German sorts umlauts as their base letter), "Élan" beside "Elan" (French, Italian and Portuguese ignore
    /// accents), and "Ñandú" after every "N…" (Spanish's ñ is a letter of its own). SQLite's `NOCASE` knows none of
    /// it, and a collation in Swift would cost every sort a call per comparison: instead each book keeps a sort key,
    /// written by triggers in plain SQL (so the `sqlite3` tool, a restore and every writer keep it right), and the
    /// shelves and the house library (walking its index) sort by it.
    static func migrateToSortKeys(_ db: Database) throws {
        let all = ["title_key": "title", "author_key": "json_extract(authors, '$[0]')"]
        let new = ["title_key": "NEW.title", "author_key": "json_extract(NEW.authors, '$[0]')"]
        let fill = SortKey.updates(all, where: "1").joined(separator: ";\n")
        let keep = SortKey.updates(new, where: "id = NEW.id").joined(separator: ";\n")
        try db.execute(
            sql: """
                ALTER TABLE book ADD COLUMN title_key TEXT;
                ALTER TABLE book ADD COLUMN author_key TEXT;
                \(fill);
                CREATE INDEX book_by_title_key ON book(title_key);
                CREATE TRIGGER book_sort_keys_on_insert AFTER INSERT ON book BEGIN
                    \(keep);
                END;
                CREATE TRIGGER book_sort_keys_on_update AFTER UPDATE OF title, authors ON book BEGIN
                    \(keep);
                END;
                """)
    }
}

/// A title's or name's sort key, in SQL: lower case, accents and umlauts folded to their letter, ß as "ss", ligatures
/// spelt out, and ñ as "n~" ("~" sorts after every letter, so "ña…" follows "nz…").
enum SortKey {
    static let foldings: [(String, String)] = {
        let groups: [(String, String)] = [
            ("áàâäãåÁÀÂÄÃÅ", "a"), ("éèêëÉÈÊË", "e"), ("íìîïÍÌÎÏ", "i"), ("óòôöõøÓÒÔÖÕØ", "o"), ("úùûüÚÙÛÜ", "u"),
            ("çÇ", "c"), ("ýÿÝ", "y"), ("ñÑ", "n~"),
        ]
        return groups.flatMap { letters, base in letters.map { (String($0), base) } }
            + [("ß", "ss"), ("æ", "ae"), ("Æ", "ae"), ("œ", "oe"), ("Œ", "oe")]
    }()

    /// SQLite's parser takes a dozen nested calls, not sixty: the foldings are applied this many at a time.
    static let foldingsPerStatement = 12

    /// `UPDATE book` statements that set each key column from its source expression (`columns`: key → source):
    /// the first lowers the source and folds the first letters, each next one folds more of what the last wrote.
    static func updates(_ columns: [String: String], where condition: String) -> [String] {
        stride(from: 0, to: foldings.count, by: foldingsPerStatement).map { start in
            let step = foldings[start..<min(start + foldingsPerStatement, foldings.count)]
            let assignments = columns.sorted { $0.key < $1.key }.map { key, source in
                let from = start == 0 ? "lower(\(source))" : key
                return key + " = " + step.reduce(from) { "replace(\($0), '\($1.0)', '\($1.1)')" }
            }
            return "UPDATE book SET " + assignments.joined(separator: ", ") + " WHERE " + condition
        }
    }
}
