import GRDB

extension AppDatabase {
    /// Where in a film or show a photo belongs (issue 37), as a book photo has its page: an episode, a time into
    /// the title, or both. The bounds are `PhotoMoment`'s, checked again here so no writer can store a trap.
    static func migrateToPhotoMoments(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE photo ADD COLUMN moment_season INTEGER CHECK (moment_season BETWEEN 0 AND 9999);
                ALTER TABLE photo ADD COLUMN moment_episode INTEGER CHECK (moment_episode BETWEEN 1 AND 9999);
                ALTER TABLE photo ADD COLUMN moment_seconds INTEGER CHECK (moment_seconds BETWEEN 0 AND 359999);
                """)
    }
}
