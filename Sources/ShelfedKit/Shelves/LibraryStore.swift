import Foundation
import GRDB

/// All SQL about a user's library: their books, shelves, favourites and dates. Every method is scoped
/// to one user; a book that user does not have reads as absent.
public struct LibraryStore: Sendable {
    let db: AppDatabase
    public static let pageSize = 60

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Which of a user's books a list shows.
    public enum Filter: Sendable, Equatable {
        case all
        case shelf(Shelf)
        case favourites
    }

    /// One page of a list plus how many books the whole list has.
    public struct Page: Sendable {
        public let items: [LibraryItem]
        public let total: Int
    }

    /// The `page`-th (1-based) page of the user's books matching `filter`, ordered by `sort`.
    public func items(
        of userID: Int64, filter: Filter, sort: LibrarySort, page: Int, pageSize: Int = LibraryStore.pageSize
    ) async throws -> Page {
        try await db.read { db in
            try Self.fetchPage(db, of: userID, filter: filter, sort: sort, page: page, pageSize: pageSize)
        }
    }

    /// A page of a list together with the shelf counts its tabs show, in one read.
    func listing(
        of userID: Int64, filter: Filter, sort: LibrarySort, page: Int, narrowedBy filters: LibraryFilters = .init()
    ) async throws -> (counts: ShelfCounts, page: Page) {
        try await db.read { db in
            let counts = try Self.fetchCounts(db, of: userID)
            let page = try Self.fetchPage(
                db, of: userID, filter: filter, sort: sort, page: page, pageSize: Self.pageSize,
                knownTotal: filters.isEmpty ? counts.total(of: filter) : nil, narrowedBy: filters)
            return (counts, page)
        }
    }

    /// How many books the user has on each shelf, plus favourites.
    public func counts(of userID: Int64) async throws -> ShelfCounts {
        try await db.read { db in try Self.fetchCounts(db, of: userID) }
    }

    /// `knownTotal` spares the count when the caller has just read it (the shelf counts hold every list's size).
    static func fetchPage(
        _ db: Database, of userID: Int64, filter: Filter, sort: LibrarySort, page: Int, pageSize: Int,
        knownTotal: Int? = nil, narrowedBy filters: LibraryFilters = .init()
    ) throws -> Page {
        let (condition, conditionArguments) = sqlCondition(for: filter)
        guard filters.isEmpty else {
            return try fetchNarrowedPage(
                db, of: userID, condition: condition, conditionArguments, filters: filters, sort: sort, page: page,
                pageSize: pageSize)
        }
        let total =
            try knownTotal ?? Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM user_book WHERE user_id = ?\(condition)"),
                arguments: [userID] + conditionArguments) ?? 0
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(LibraryItem.selection) FROM user_book JOIN book ON book.id = user_book.book_id
                WHERE user_book.user_id = ?\(condition) ORDER BY \(sort.orderBy) LIMIT ? OFFSET ?
                """)
        let arguments: StatementArguments = [userID] + conditionArguments + [pageSize, max(0, page - 1) * pageSize]
        let items = try Array(Row.fetchCursor(statement, arguments: arguments).map(LibraryItem.init(row:)))
        return Page(items: items, total: total)
    }

    /// The person's latest finished books, newest first, for the home page: read from the finish-date index
    /// instead of sorting the whole Read shelf (its "no date last" ordering cannot use one). Books on Read without a
    /// date fill the rest when fewer than `limit` have one.
    /// The Read shelf's books without a finish date, the latest added first; arguments: user id, limit.
    static let undatedReadSQL = """
        SELECT \(LibraryItem.selection) FROM user_book JOIN book ON book.id = user_book.book_id
        WHERE user_book.user_id = ? AND user_book.shelf = 'read' AND user_book.finished_at IS NULL
        ORDER BY user_book.added_at DESC, user_book.id DESC LIMIT ?
        """

    static func recentlyFinished(_ db: Database, of userID: Int64, limit: Int) throws -> [LibraryItem] {
        let dated = try Array(
            Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT \(LibraryItem.selection) FROM user_book JOIN book ON book.id = user_book.book_id
                        WHERE user_book.user_id = ? AND user_book.shelf = 'read' AND user_book.finished_at IS NOT NULL
                        ORDER BY user_book.finished_at DESC, user_book.id DESC LIMIT ?
                        """), arguments: [userID, limit]
            ).map(LibraryItem.init(row:)))
        guard dated.count < limit else { return dated }
        // Undated books, the latest added first, walked from the shelf's (user_id, shelf, added_at) index: this runs
        // only when fewer than `limit` books have a date, so the walk meets undated ones at once. Sorting the whole
        // Read shelf for them cost 4 ms of a 6 ms home page with 3,000 undated books (benchmarks/home_read_next.py).
        let undated = try Row.fetchCursor(
            db.cachedStatement(sql: Self.undatedReadSQL), arguments: [userID, limit - dated.count]
        ).map(LibraryItem.init(row:))
        return dated + (try Array(undated))
    }

    /// A page of a list narrowed by `filters`, counted in the same pass (a window over the matching rows) rather than
    /// by a second query doing the same work; only a page past the end is counted apart.
    private static func fetchNarrowedPage(
        _ db: Database, of userID: Int64, condition: String, _ conditionArguments: StatementArguments,
        filters: LibraryFilters, sort: LibrarySort, page: Int, pageSize: Int
    ) throws -> Page {
        let (narrowing, narrowingArguments) = filters.sqlCondition()
        let matching = "FROM \(filters.sqlSource) WHERE user_book.user_id = ?\(condition)\(narrowing)"
        let arguments: StatementArguments = [userID] + conditionArguments + narrowingArguments
        // The matching entries are counted and sorted carrying only their ids, and only the page's sixty are read in
        // full: sorting every match with all its columns cost a seventh more (genre + years + rating, 5,000 books).
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT \(LibraryItem.selection), page.matching_count
                    FROM (SELECT user_book.id AS entry_id, COUNT(*) OVER () AS matching_count \(matching)
                        ORDER BY \(sort.orderBy) LIMIT ? OFFSET ?) AS page
                    JOIN user_book ON user_book.id = page.entry_id JOIN book ON book.id = user_book.book_id
                    ORDER BY \(sort.orderBy)
                    """),
            arguments: arguments + [pageSize, max(0, page - 1) * pageSize])
        var items: [LibraryItem] = []
        var total: Int?
        while let row = try rows.next() {
            total = total ?? row["matching_count"]
            items.append(LibraryItem(row: row))
        }
        if total == nil, page > 1 {
            total = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) \(matching)"), arguments: arguments)
        }
        return Page(items: items, total: total ?? 0)
    }

    static func fetchCounts(_ db: Database, of userID: Int64) throws -> ShelfCounts {
        // Kept by triggers (`migrateToShelfCounts`): four rows at most, whatever the library's size.
        let statement = try db.cachedStatement(
            sql: "SELECT shelf, books, favourites FROM shelf_count WHERE user_id = ? AND books > 0")
        var counts = ShelfCounts()
        let rows = try Row.fetchCursor(statement, arguments: [userID])
        while let row = try rows.next() {
            guard let shelf = Shelf(rawValue: row[0]) else { continue }
            counts.byShelf[shelf] = row[1]
            counts.favourites += row[2] as Int
        }
        return counts
    }

    /// The user's entry for catalog book `bookID`, or nil when they do not have it.
    public func entry(bookID: Int64, of userID: Int64) async throws -> LibraryEntry? {
        try await db.read { db in try Self.entry(bookID: bookID, of: userID, db) }
    }

    /// `entry(bookID:of:)` inside the caller's read.
    static func entry(bookID: Int64, of userID: Int64, _ db: Database) throws -> LibraryEntry? {
        // A statement prepared once per connection, with the `book` scope `LibraryEntry` reads: built through the
        // query interface it was prepared (and authorized column by column) on every book page.
        let entryColumns = try db.columns(in: UserBook.databaseTableName).count
        return try LibraryEntry.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT user_book.*, book.* FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND user_book.book_id = ?
                    """),
            arguments: [userID, bookID],
            adapter: ScopeAdapter(
                base: RangeRowAdapter(0..<entryColumns), scopes: ["book": SuffixRowAdapter(fromIndex: entryColumns)]))
    }

    /// The extra `AND …` for a list filter, over `user_book`, with its arguments.
    static func sqlCondition(for filter: Filter) -> (String, StatementArguments) {
        switch filter {
        case .all: ("", [])
        case .shelf(let shelf): (" AND shelf = ?", [shelf.rawValue])
        case .favourites: (" AND favourite = 1", [])
        }
    }

    /// The user's entry for the book id in a route, or the 404 every page answers for unknown,
    /// malformed or someone else's ids.
    public func requireEntry(bookID: Int64?, of userID: Int64) async throws -> LibraryEntry {
        guard let bookID, let entry = try await entry(bookID: bookID, of: userID) else {
            throw Self.notInLibrary
        }
        return entry
    }

    /// The 404 every page and the API answer for a book id that is unknown, malformed or someone else's.
    static var notInLibrary: AppError {
        .notFound(localized("This book is not in your library. It may have been removed."))
    }

    static func request(of userID: Int64, filter: Filter) -> QueryInterfaceRequest<UserBook> {
        let request = UserBook.filter(Column("user_id") == userID)
        switch filter {
        case .all: return request
        case .shelf(let shelf): return request.filter(Column("shelf") == shelf.rawValue)
        case .favourites: return request.filter(Column("favourite") == true)
        }
    }
}

/// Book counts per shelf for one user.
public struct ShelfCounts: Sendable, Equatable {
    public var byShelf: [Shelf: Int] = [:]
    public var favourites = 0

    public var total: Int { byShelf.values.reduce(0, +) }

    /// How many books the list for `filter` holds.
    public func total(of filter: LibraryStore.Filter) -> Int {
        switch filter {
        case .all: total
        case .shelf(let shelf): self[shelf]
        case .favourites: favourites
        }
    }
    public subscript(shelf: Shelf) -> Int { byShelf[shelf] ?? 0 }
}

extension UserBook {
    static let book = belongsTo(Book.self)
}

extension LibraryStore {
    /// A catalog book by id, whoever has it (for shared catalog work such as covers).
    public func catalogBook(id: Int64) async throws -> Book? {
        try await db.read { db in try Book.fetchOne(db, key: id) }
    }
}
