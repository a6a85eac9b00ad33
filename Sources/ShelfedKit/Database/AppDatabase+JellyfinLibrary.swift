import GRDB

extension AppDatabase {
    /// What the household's Jellyfin server holds (issue 38: titles the house owns show "At home"). Each film and
    /// show on the server is kept as the keys a catalog row is matched on — its TMDB, IMDb and TVmaze ids in
    /// Shelfed's own forms ("tmdb:movie:438631", "imdb:tt1160419") and its kind, folded title and year — so asking
    /// whether a title is at home is one indexed look, whatever the size of either library. Nothing here is anyone's
    /// own: it is the server's list, replaced whole at each refresh and forgotten with the server.
    static func migrateToJellyfinLibrary(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE jellyfin_library (key TEXT PRIMARY KEY NOT NULL) WITHOUT ROWID;
                """)
    }
}
