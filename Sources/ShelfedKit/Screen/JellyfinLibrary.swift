import Foundation
import GRDB

/// The films and shows on the household's Jellyfin server (issue 38: "titles the house owns show At home"). Read
/// from the server every six hours, and at once when the admin links it, into `jellyfin_library` as match keys; a
/// film's or show's page and film night then ask whether its catalog row meets one of them. The server's list is
/// nobody's own, so showing "At home" to anyone in the house says nothing about anyone.
struct JellyfinLibrary: Sendable {
    /// When the server's list was last read, and how many titles it held.
    static let checkedKey = "jellyfin_library_checked_at"
    static let refreshEvery: TimeInterval = 6 * 3_600

    let db: AppDatabase
    let server: JellyfinServer

    /// Whether the list is due: a server is linked, and it was never read, read more than six hours ago, or read
    /// before the server's address or key last changed.
    func isDue(now: Date) async throws -> Bool {
        try await db.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT key, changed_at FROM household_setting WHERE key IN (?, ?, ?)",
                arguments: [JellyfinServer.urlKey, JellyfinServer.apiKeyKey, Self.checkedKey])
            let changed = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as String, $0[1] as Date) })
            guard let linked = changed[JellyfinServer.urlKey], let keyed = changed[JellyfinServer.apiKeyKey] else {
                return false
            }
            guard let checked = changed[Self.checkedKey] else { return true }
            return checked < max(linked, keyed) || now.timeIntervalSince(checked) >= Self.refreshEvery
        }
    }

    /// Reads the server's films and shows and replaces the kept list with them; the number of titles read, or nil
    /// when no server is linked (the list is then emptied). A server that does not answer throws, the list kept.
    @discardableResult
    func refresh(now: Date) async throws -> Int? {
        guard let saved = try await server.saved() else {
            try await forget()
            return nil
        }
        let items = try await server.client(url: saved.url, apiKey: saved.apiKey).libraryItems()
        let keys = Set(items.flatMap(Self.keys(of:)))
        try await db.write { db in
            // Forgotten or changed while the server was asked: its answer is not this server's list.
            let still = try String.fetchOne(
                db, sql: "SELECT value FROM household_setting WHERE key = ?", arguments: [JellyfinServer.urlKey])
            try db.execute(sql: "DELETE FROM jellyfin_library")
            guard still == saved.url else { return }
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO jellyfin_library (key) VALUES (?)")
            for key in keys { try insert.execute(arguments: [key]) }
            try Self.markChecked(count: items.count, at: now, db)
        }
        return items.count
    }

    /// Remembers a look that failed for good as a look, so the server is asked again in six hours, not at once.
    func markChecked(now: Date) async throws {
        try await db.write { db in
            let count = try String.fetchOne(
                db, sql: "SELECT value FROM household_setting WHERE key = ?", arguments: [Self.checkedKey])
            try Self.markChecked(count: count.flatMap { Int($0) } ?? 0, at: now, db)
        }
    }

    /// Empties the list, with the server forgotten.
    func forget() async throws {
        try await db.write { db in try Self.forget(db) }
    }

    static func forget(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM jellyfin_library")
        try db.execute(sql: "DELETE FROM household_setting WHERE key = ?", arguments: [checkedKey])
    }

    private static func markChecked(count: Int, at now: Date, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO household_setting (key, value, changed_at) VALUES (?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value, changed_at = excluded.changed_at
                """, arguments: [checkedKey, String(count), now])
    }

    /// Whether the server holds the film or show `bookID` (always false for a book, or with no list kept).
    static func holds(bookID: Int64, _ db: Database) throws -> Bool {
        try isKept(db) && matches(bookID: bookID, db)
    }

    /// Those of `bookIDs` the server holds (film night's hundreds): their catalog rows read and the list asked in
    /// batches of a few hundred, not twice per title.
    static func held(of bookIDs: [Int64], _ db: Database) throws -> Set<Int64> {
        guard !bookIDs.isEmpty, try isKept(db) else { return [] }
        var titlesByKey: [String: [Int64]] = [:]
        for start in stride(from: 0, to: bookIDs.count, by: batchSize) {
            let batch = Array(bookIDs[start..<min(start + batchSize, bookIDs.count)])
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, \(catalogColumns) WHERE id IN (\(marks(batch.count))) AND kind IN ('movie', 'show')
                    """, arguments: StatementArguments(batch))
            while let row = try rows.next() {
                for key in catalogKeys(row, from: 1) { titlesByKey[key, default: []].append(row[0]) }
            }
        }
        let keys = Array(titlesByKey.keys)
        var held = Set<Int64>()
        for start in stride(from: 0, to: keys.count, by: batchSize) {
            let batch = Array(keys[start..<min(start + batchSize, keys.count)])
            let found = try String.fetchCursor(
                db, sql: "SELECT key FROM jellyfin_library WHERE key IN (\(marks(batch.count)))",
                arguments: StatementArguments(batch))
            while let key = try found.next() { held.formUnion(titlesByKey[key] ?? []) }
        }
        return held
    }

    /// Within SQLite's limit on bound values, with room to spare.
    private static let batchSize = 400

    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Whether any list is kept: without a server, no title is asked about.
    private static func isKept(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM jellyfin_library)") == true
    }

    /// A catalog row's columns for `catalogKeys`, from the `FROM book` on.
    private static let catalogColumns = """
        kind, title, original_title, published_date, provider_key, json_extract(external_ids, '$.imdb') FROM book
        """

    /// A film's or show's keys from `catalogColumns` read at `offset`: its titles with its year (or alone when it
    /// has none), its provider's key and its IMDb id.
    private static func catalogKeys(_ row: Row, from offset: Int) -> [String] {
        guard let kind = TitleKind(rawValue: row[offset]) else { return [] }
        let year = (row[offset + 3] as String?).flatMap { Int($0.prefix(4)) }
        let titles = [row[offset + 1], row[offset + 2]].compactMap { $0 as String? }
        var keys = titleKeys(kind: kind, titles: titles, year: year, yearless: year == nil)
        if let providerKey: String = row[offset + 4] { keys.append(providerKey) }
        if let imdb = (row[offset + 5] as String?).flatMap(ScreenIDs.imdbID) { keys.append("imdb:" + imdb) }
        return keys
    }

    private static func matches(bookID: Int64, _ db: Database) throws -> Bool {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT \(catalogColumns) WHERE id = ? AND kind IN ('movie', 'show')", arguments: [bookID])
        else { return false }
        let keys = catalogKeys(row, from: 0)
        guard !keys.isEmpty else { return false }
        return try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM jellyfin_library WHERE key IN (\(marks(keys.count))))",
            arguments: StatementArguments(keys)) == true
    }

    /// A server item's keys: its ids in the forms catalog rows keep them, and its titles with and without its year
    /// (a catalog row with no year is matched on its title alone).
    static func keys(of item: JellyfinClient.Item) -> [String] {
        let kind: TitleKind
        switch item.type {
        case "Movie": kind = .movie
        case "Series": kind = .show
        default: return []
        }
        let ids = item.providerIDs ?? [:]
        var keys: [String] = []
        if let tmdb = ids["Tmdb"] ?? ids["tmdb"], (1...20).contains(tmdb.utf8.count),
            tmdb.utf8.allSatisfy(\.isASCIIDigit)
        {
            keys.append("tmdb:\(kind.rawValue):\(tmdb)")
        }
        if let tvmaze = ids["TvMaze"] ?? ids["Tvmaze"], kind == .show, (1...20).contains(tvmaze.utf8.count),
            tvmaze.utf8.allSatisfy(\.isASCIIDigit)
        {
            keys.append("tvmaze:\(tvmaze)")
        }
        if let imdb = (ids["Imdb"] ?? ids["imdb"]).flatMap(ScreenIDs.imdbID) { keys.append("imdb:" + imdb) }
        let titles = [item.name, item.originalTitle].compactMap { $0 }.filter { (1...500).contains($0.count) }
        let year = item.productionYear.flatMap { BoundedNumber.year.contains($0) ? $0 : nil }
        return keys + titleKeys(kind: kind, titles: titles, year: year, yearless: true)
    }

    /// "movie|dune|2021" (with a year) and "movie|dune|" (without, when `yearless`), for each title.
    private static func titleKeys(kind: TitleKind, titles: [String], year: Int?, yearless: Bool) -> [String] {
        let folded = Set(titles.map(LibraryMatch.fold)).filter { !$0.isEmpty }
        var keys: [String] = []
        for title in folded.sorted() {
            let stem = kind.rawValue + "|" + title + "|"
            if let year { keys.append(stem + String(year)) }
            if yearless || year == nil { keys.append(stem) }
        }
        return keys
    }
}
