import GRDB

/// Film night's evenings, kept between requests (`CommitMemo`). What a sofa can watch changes only when someone's
/// shelves, a title or someone's sharing does, so a page asked again — the sofa trying "ends by 23:00", a phone
/// reloading — only renders.
typealias FilmNightMemo = CommitMemo<FilmNightKey, FilmNight.Evening>

/// Whose evening: the viewer, the others on the sofa, and the kind of title asked for.
struct FilmNightKey: Hashable, Sendable {
    let viewer: Int64
    let members: [Int64]
    let kind: TitleKind?
}

extension CommitMemo where Key == FilmNightKey, Value == FilmNight.Evening {
    /// A handful of sofas at once; past this the oldest answers are simply dropped.
    convenience init(database: AppDatabase) {
        // Only the columns an evening reads: the background's stamps on `book` (a refresh, page to screen, matching
        // imported titles) would otherwise forget every evening every few seconds after an import. A new list from
        // the house's Jellyfin forgets them too.
        self.init(
            database: database,
            tracking: [
                Table("user_book").select(Column("user_id"), Column("book_id"), Column("shelf"), Column("owned")),
                Table("book").select(
                    Column("kind"), Column("title"), Column("published_date"), Column("runtime_minutes"),
                    Column("cover_path")),
                Table("user").select(Column("shares_reading"), Column("display_name")),
                Table("jellyfin_library"),
            ],
            capacity: 16)
    }
}
