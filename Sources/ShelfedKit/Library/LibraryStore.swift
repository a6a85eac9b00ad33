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
        public let entries: [LibraryEntry]
        public let total: Int
    }

    /// The `page`-th (1-based) page of the user's books matching `filter`, ordered by `sort`.
    public func entries(
        of userID: Int64, filter: Filter, sort: LibrarySort, page: Int, pageSize: Int = LibraryStore.pageSize
    ) async throws -> Page {
        try await db.read { db in
            let request = Self.request(of: userID, filter: filter)
            let total = try request.fetchCount(db)
            let book = TableAlias<Book>(name: "book")
            let entries = try request
                .including(required: UserBook.book.aliased(book))
                .order(sort.orderings(book: book))
                .limit(pageSize, offset: max(0, page - 1) * pageSize)
                .asRequest(of: LibraryEntry.self)
                .fetchAll(db)
            return Page(entries: entries, total: total)
        }
    }

    /// How many books the user has on each shelf, plus favourites.
    public func counts(of userID: Int64) async throws -> ShelfCounts {
        try await db.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT shelf, COUNT(*) AS n, SUM(favourite) AS favourites
                    FROM user_book WHERE user_id = ? GROUP BY shelf
                    """, arguments: [userID])
            var counts = ShelfCounts()
            for row in rows {
                let shelf = Shelf(rawValue: row["shelf"]) ?? .wantToRead
                counts.byShelf[shelf] = row["n"]
                counts.favourites += row["favourites"] as Int? ?? 0
            }
            return counts
        }
    }

    /// The user's entry for catalog book `bookID`, or nil when they do not have it.
    public func entry(bookID: Int64, of userID: Int64) async throws -> LibraryEntry? {
        try await db.read { db in
            try Self.request(of: userID, filter: .all)
                .filter(Column("book_id") == bookID)
                .including(required: UserBook.book)
                .asRequest(of: LibraryEntry.self)
                .fetchOne(db)
        }
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
    public subscript(shelf: Shelf) -> Int { byShelf[shelf] ?? 0 }
}

extension UserBook {
    static let book = belongsTo(Book.self)
}
