import Foundation
import GRDB

/// The one place that writes a book into the catalog and onto someone's shelves (DESIGN §4), inside the caller's
/// transaction. Adding a book from the form, a search, the API, a scan or a batch enrich (all through
/// `LibraryService` and `LibraryStore.add`) and importing one (`ImportApplier`) end here, so a book is written the
/// same way whatever brought it. Plain cached statements rather than the records' Codable path: an import writes
/// thousands of rows, and encoding each through Codable cost more than SQLite's own work.
struct CatalogWriter {
    let db: Database

    /// A catalog row about to be written; `owner` is nil for a provider's shared row.
    struct NewRow {
        var title: String
        var subtitle: String? = nil
        var authors: [String] = []
        var isbn10: String? = nil
        var isbn13: String? = nil
        var googleVolumeID: String? = nil
        var publisher: String? = nil
        var publishedDate: String? = nil
        var description: String? = nil
        var pageCount: Int? = nil
        var categories: [String] = []
        var language: String? = nil
        var source: Book.Source
        var owner: Int64?
        var externalIDs: [String: String] = [:]
        var series: SeriesPlace? = nil
        var community: CommunityRating? = nil
        var kind: TitleKind = .book
        var runtimeMinutes: Int? = nil
        var providerKey: String? = nil
        var castNames: [String] = []
        var seasons: [ScreenSeason] = []
    }

    /// Someone's new shelf entry for a catalog row.
    struct NewEntry {
        var userID: Int64
        var bookID: Int64
        var shelf: Shelf
        var favourite = false
        var rating: Double? = nil
        var review: String? = nil
        var addedAt: DatabaseValue
        var startedAt: String? = nil
        var finishedAt: String? = nil
        var privateNotes: String? = nil
        var owned: Bool? = nil
        var format: String? = nil
        var stoppedAt: String? = nil
    }

    /// Writes the catalog row and its authors; its id.
    func insert(_ row: NewRow, at now: DatabaseValue) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO book (google_volume_id, isbn10, isbn13, title, subtitle, authors, publisher, published_date,
                    description, page_count, categories, language, source, created_at, updated_at, owner_user_id,
                    external_ids, series, series_position, community_rating, community_ratings, community_source, kind,
                    runtime_minutes, provider_key, cast_names, provider_checked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            row.googleVolumeID, row.isbn10, row.isbn13, row.title, row.subtitle, Self.jsonArray(row.authors),
            row.publisher, row.publishedDate, row.description, row.pageCount, Self.jsonArray(row.categories),
            row.language, row.source.rawValue, now, now, row.owner, Self.jsonObject(row.externalIDs),
            row.series?.name, row.series?.position, row.community?.average, row.community?.count,
            row.community?.source, row.kind.rawValue, row.runtimeMinutes, row.providerKey,
            Self.jsonArray(row.castNames), row.providerKey == nil ? nil : now,
        ])
        let bookID = db.lastInsertedRowID
        try insertEpisodes(of: row.seasons, for: bookID)
        let author = try db.cachedStatement(sql: "INSERT INTO book_author (book_id, position, name) VALUES (?, ?, ?)")
        for (position, name) in row.authors.enumerated() {
            try author.execute(arguments: [bookID, position, name])
        }
        return bookID
    }

    /// A show's episodes, each (season, number) once; already bounded by `ScreenLimits`.
    func insertEpisodes(of seasons: [ScreenSeason], for bookID: Int64) throws {
        guard !seasons.isEmpty else { return }
        let episode = try db.cachedStatement(
            sql: """
                INSERT INTO episode (book_id, season, number, title, air_date, runtime_minutes) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (book_id, season, number) DO UPDATE SET title = excluded.title,
                    air_date = excluded.air_date, runtime_minutes = excluded.runtime_minutes
                """)
        for season in seasons {
            for item in season.episodes {
                try episode.execute(arguments: [
                    bookID, season.number, item.number, item.title, item.airDate, item.runtimeMinutes,
                ])
            }
        }
    }

    /// Writes the shelf entry; its id.
    func insert(_ entry: NewEntry, at now: DatabaseValue) throws -> Int64 {
        try db.cachedStatement(
            sql: """
                INSERT INTO user_book (user_id, book_id, shelf, favourite, rating, review, added_at, started_at,
                    finished_at, updated_at, private_notes, owned, format, stopped_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            entry.userID, entry.bookID, entry.shelf.rawValue, entry.favourite, entry.rating, entry.review,
            entry.addedAt, entry.startedAt, entry.finishedAt, now, entry.privateNotes, entry.owned, entry.format,
            entry.stoppedAt,
        ])
        return db.lastInsertedRowID
    }

    /// A JSON array of strings, as the catalog keeps authors and categories.
    /// Writes what enrichment found into the fields of `bookID` that are still empty (someone may have typed one
    /// meanwhile); true when the cover file was taken.
    func fillEmptyFields(of bookID: Int64, with fill: BookFill, at now: Date) throws -> Bool {
        let categories = Self.jsonArray(fill.categories)
        try db.execute(
            sql: """
                UPDATE book SET description = COALESCE(description, ?),
                    categories = CASE WHEN categories = '[]' AND ? != '[]' THEN ? ELSE categories END,
                    page_count = COALESCE(page_count, ?), publisher = COALESCE(publisher, ?),
                    published_date = COALESCE(published_date, ?),
                    series_position = CASE WHEN series IS NULL AND ? IS NOT NULL THEN ? ELSE series_position END,
                    series = COALESCE(series, ?), updated_at = ?
                WHERE id = ?
                """,
            arguments: [
                fill.description, categories, categories, fill.pageCount, fill.publisher, fill.publishedDate,
                fill.series?.name, fill.series?.position, fill.series?.name, now, bookID,
            ])
        guard let coverFile = fill.coverFile else { return false }
        try db.execute(
            sql: "UPDATE book SET cover_path = ? WHERE id = ? AND cover_path IS NULL", arguments: [coverFile, bookID])
        return db.changesCount > 0
    }

    static func jsonArray(_ values: [String]) -> String {
        var writer = JSONWriter(reservingCapacity: 64)
        writer.array { array in for value in values { array.string(value) } }
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A JSON object of strings with sorted keys, as the catalog keeps other trackers' ids.
    static func jsonObject(_ values: [String: String]) -> String {
        guard !values.isEmpty else { return "{}" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(values)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
