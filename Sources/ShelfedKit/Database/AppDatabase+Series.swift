import Foundation
import GRDB

extension AppDatabase {
    /// Series (issue 24): a catalog row's series and its place in it. Books imported before had their series only in
    /// the title, as Goodreads writes it ("Leviathan Wakes (The Expanse, #1)"): those rows — the person's own
    /// imported rows, never a provider's — get the series from the title and keep the title without it.
    static func migrateToSeries(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE book ADD COLUMN series TEXT;
                ALTER TABLE book ADD COLUMN series_position REAL
                    CHECK (series_position IS NULL OR series_position BETWEEN 0 AND 9999);
                CREATE INDEX book_by_series ON book(series COLLATE NOCASE, series_position) WHERE series IS NOT NULL;
                """)
        let imported = try Row.fetchAll(
            db, sql: "SELECT id, title FROM book WHERE source = 'import' AND title LIKE '%#%)'")
        let update = try db.makeStatement(
            sql: "UPDATE book SET title = ?, series = ?, series_position = ? WHERE id = ?")
        for row in imported {
            guard let (title, series) = SeriesPlace.split(title: row["title"]) else { continue }
            try update.execute(arguments: [title, series.name, series.position, row["id"]])
        }
    }
}
