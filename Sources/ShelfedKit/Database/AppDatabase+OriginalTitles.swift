import GRDB

extension AppDatabase {
    /// A film's or show's title in its own language beside the one an export wrote ("I'm Still Here" / "Ainda Estou
    /// Aqui", issue 38): shown on its page and matched on import, so a film rated on IMDb under its translated title
    /// finds the one added under its original.
    static func migrateToOriginalTitles(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE book ADD COLUMN original_title TEXT")
    }
}
