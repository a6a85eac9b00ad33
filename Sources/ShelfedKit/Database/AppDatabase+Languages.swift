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
