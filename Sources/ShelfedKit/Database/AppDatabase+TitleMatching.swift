import GRDB

extension AppDatabase {
    /// Matching imported films and shows to a provider (issue 38). An export names a film by title and year (and at
    /// best an IMDb or TMDB id); once a provider answers, the person's own catalog row takes the provider's details.
    /// `book.title_match`: nil while not yet looked up; `waiting` when the provider did not answer (asked again after
    /// `title_match_checked_at` plus six hours); `matched`; `none` when no provider knew it (asked again after six
    /// months: providers learn titles, and a household may add a TMDB token); `review` when several
    /// titles fit and the person chooses among `title_candidate`; `kept` when they chose none of them. The partial
    /// index holds only the imported films and shows still to look up, so the worker's look reads nothing else.
    static func migrateToTitleMatching(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE book ADD COLUMN title_match TEXT;
                ALTER TABLE book ADD COLUMN title_match_checked_at DATETIME;
                CREATE INDEX book_titles_to_match ON book(title_match_checked_at)
                    WHERE source = 'import' AND kind IN ('movie', 'show') AND provider_key IS NULL
                        AND (title_match IS NULL OR title_match IN ('waiting', 'none'));
                CREATE INDEX book_titles_to_review ON book(owner_user_id) WHERE title_match = 'review';
                CREATE TABLE title_candidate (
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL CHECK (position BETWEEN 0 AND 9),
                    source TEXT NOT NULL,
                    provider_id TEXT NOT NULL,
                    title TEXT NOT NULL,
                    year INTEGER,
                    makers TEXT NOT NULL DEFAULT '',
                    PRIMARY KEY (book_id, position)
                ) WITHOUT ROWID;
                """)
    }
}
