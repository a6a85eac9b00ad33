import GRDB

extension AppDatabase {
    /// Photo touch-ups (issue 24): how a photo is turned and cropped. The original file is never changed; the display
    /// image and thumbnail are made again from it with these, so every edit can be undone.
    static func migrateToPhotoTouchUps(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE photo ADD COLUMN edit_turns INTEGER NOT NULL DEFAULT 0 CHECK (edit_turns BETWEEN 0 AND 3);
                ALTER TABLE photo ADD COLUMN crop_left REAL NOT NULL DEFAULT 0 CHECK (crop_left BETWEEN 0 AND 0.9);
                ALTER TABLE photo ADD COLUMN crop_top REAL NOT NULL DEFAULT 0 CHECK (crop_top BETWEEN 0 AND 0.9);
                ALTER TABLE photo ADD COLUMN crop_right REAL NOT NULL DEFAULT 0 CHECK (crop_right BETWEEN 0 AND 0.9);
                ALTER TABLE photo ADD COLUMN crop_bottom REAL NOT NULL DEFAULT 0 CHECK (crop_bottom BETWEEN 0 AND 0.9);
                """)
    }
}
