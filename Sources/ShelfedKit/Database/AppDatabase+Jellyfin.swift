import GRDB

extension AppDatabase {
    /// The household's Jellyfin (issue 38): which Jellyfin user each member is (`user.jellyfin_user`, a user name or
    /// id, set by the admin), and each item a member's webhook call counted, once a day (`jellyfin_event`), so a
    /// call repeated within seconds, or replayed a thousand times, is counted once. The webhook's secret is kept in
    /// `household_setting` as its SHA-256 digest, never in clear.
    static func migrateToJellyfin(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE user ADD COLUMN jellyfin_user TEXT;
                CREATE TABLE jellyfin_event (
                    user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                    item_id TEXT NOT NULL,
                    day TEXT NOT NULL,
                    counted_at DATETIME NOT NULL,
                    PRIMARY KEY (user_id, item_id, day)
                ) WITHOUT ROWID;
                """)
    }
}
