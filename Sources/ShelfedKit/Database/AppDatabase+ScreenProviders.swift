import GRDB

extension AppDatabase {
    /// Films and shows from TMDB, TVmaze and Wikidata (issue 37, DESIGN §17). `provider_key` names the provider's
    /// title ("tmdb:movie:550", "tvmaze:143", "wikidata:Q190050") so everyone in the house who adds it shares one
    /// catalog row, as they share a Google volume's; `cast_names` keeps the first names billed; `provider_checked_at`
    /// says when the row was last filled from its provider (refreshed after six months). A show's episodes are rows of
    /// their own, each (season, number) once; season 0 holds the specials.
    static func migrateToScreenProviders(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE book ADD COLUMN provider_key TEXT;
                ALTER TABLE book ADD COLUMN cast_names TEXT NOT NULL DEFAULT '[]';
                ALTER TABLE book ADD COLUMN provider_checked_at DATETIME;
                CREATE UNIQUE INDEX book_shared_provider_key ON book(provider_key)
                    WHERE owner_user_id IS NULL AND provider_key IS NOT NULL;
                CREATE TABLE episode (
                    id INTEGER PRIMARY KEY,
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    season INTEGER NOT NULL CHECK (season BETWEEN 0 AND 9999),
                    number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 9999),
                    title TEXT,
                    air_date TEXT,
                    runtime_minutes INTEGER CHECK (runtime_minutes IS NULL OR runtime_minutes BETWEEN 1 AND 60000),
                    UNIQUE (book_id, season, number)
                );
                """)
    }
}
