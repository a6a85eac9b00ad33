import GRDB

extension AppDatabase {
    /// A show watched episode by episode (issue 37, DESIGN §17). Each pass through a show is a viewing, numbered from
    /// one; watching it again opens the next and never touches the episodes, or their days, of the one before. Each
    /// episode is watched at most once in a viewing. A person's viewings go with their shelf entry. The page counts
    /// each season's aired episodes from an index that holds the air dates, without reading the episodes' rows.
    static func migrateToShowViewings(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE show_viewing (
                    id INTEGER PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
                    number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 1000),
                    started_on TEXT,
                    finished_on TEXT,
                    UNIQUE (user_id, book_id, number)
                );
                CREATE TABLE episode_watch (
                    viewing_id INTEGER NOT NULL REFERENCES show_viewing(id) ON DELETE CASCADE,
                    episode_id INTEGER NOT NULL REFERENCES episode(id) ON DELETE CASCADE,
                    watched_on TEXT NOT NULL,
                    PRIMARY KEY (viewing_id, episode_id)
                ) WITHOUT ROWID;
                CREATE INDEX episode_watch_episode ON episode_watch(episode_id);
                CREATE INDEX episode_seasons ON episode(book_id, season, air_date);
                CREATE TRIGGER user_book_removed_forgets_viewings AFTER DELETE ON user_book
                BEGIN
                    DELETE FROM show_viewing WHERE user_id = OLD.user_id AND book_id = OLD.book_id;
                END;
                """)
    }
}

extension AppDatabase {
    /// The house feed's show lines walk a day's episodes newest day first (`HouseholdSharing.episodeLines`); the
    /// home page finds the few shows that aired an episode this year by the day (`showsWithNewEpisodes`).
    static func migrateToEpisodeDays(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX episode_watch_day ON episode_watch(watched_on, viewing_id);
                CREATE INDEX episode_air ON episode(air_date);
                """)
    }
}
