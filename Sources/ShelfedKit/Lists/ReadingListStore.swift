import Foundation
import GRDB

/// A person's list of books, kept in their own order (a playlist of books: "Summer 2026", "For Sam").
struct ReadingList: Sendable, Equatable {
    let id: Int64
    let name: String
    let description: String?
    let bookCount: Int
    /// The first few books' covers, in the list's order, for the mosaic on `/lists`.
    let coverPaths: [String]
}

/// One book of a list with its place.
struct ReadingListItem: Sendable {
    let item: LibraryItem
    /// 1-based place in the whole list.
    let position: Int
}

/// All SQL about lists. Every method is scoped to one person: another person's list, or a book not in the person's
/// library, reads as absent.
struct ReadingListStore: Sendable {
    let db: AppDatabase

    /// More lists than anyone keeps; a request past it is refused, not a list page that never ends.
    static let maxLists = 500
    static let maxNameLength = 100
    static let maxDescriptionLength = 2_000

    /// Appends a person's entry to a list (arguments: list id, entry id, list id again); a book already on the list
    /// keeps its place. The import uses the same statement.
    static let appendItemSQL = """
        INSERT OR IGNORE INTO list_item (list_id, user_book_id, position)
        VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM list_item WHERE list_id = ?))
        """

    enum Failure: Error, Equatable {
        case duplicateName
        case tooManyLists
    }

    // MARK: - Lists

    /// The person's lists in the order they were made, each with its count and first covers.
    func lists(of userID: Int64) async throws -> [ReadingList] {
        try await db.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT list.id, list.name, list.description,
                        (SELECT COUNT(*) FROM list_item WHERE list_item.list_id = list.id) AS book_count
                    FROM list WHERE list.user_id = ? ORDER BY list.position, list.id LIMIT ?
                    """, arguments: [userID, Self.maxLists]
            ).map { row in try Self.list(row, db) }
        }
    }

    /// The person's list `id`, or nil for anything else.
    func list(_ id: Int64, of userID: Int64) async throws -> ReadingList? {
        try await db.read { db in try Self.fetchList(id, of: userID, db) }
    }

    /// The person's list `id`; the 404 every page and the API answer for unknown, malformed or another's ids.
    func requireList(_ id: Int64?, of userID: Int64) async throws -> ReadingList {
        guard let id, let list = try await list(id, of: userID) else {
            throw AppError.notFound(
                localized("There is no such list. It may have been deleted; your lists are under Lists."))
        }
        return list
    }

    /// Makes a list; its id. Names are unique per person, case aside.
    func create(name: String, description: String?, for userID: Int64) async throws -> Int64 {
        try await db.write { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM list WHERE user_id = ?", arguments: [userID])
            guard (count ?? 0) < Self.maxLists else { throw Failure.tooManyLists }
            guard try !Self.nameTaken(name, by: userID, except: nil, db) else { throw Failure.duplicateName }
            try db.execute(
                sql: """
                    INSERT INTO list (user_id, name, description, position)
                    VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM list WHERE user_id = ?))
                    """, arguments: [userID, name, description, userID])
            return db.lastInsertedRowID
        }
    }

    /// Renames and describes the person's list; false when it is not theirs.
    func update(_ id: Int64, name: String, description: String?, for userID: Int64) async throws -> Bool {
        try await db.write { db in
            guard try !Self.nameTaken(name, by: userID, except: id, db) else { throw Failure.duplicateName }
            try db.execute(
                sql: "UPDATE list SET name = ?, description = ? WHERE id = ? AND user_id = ?",
                arguments: [name, description, id, userID])
            return db.changesCount > 0
        }
    }

    /// Deletes the person's list (its books stay in the library); false when it is not theirs.
    func delete(_ id: Int64, for userID: Int64) async throws -> Bool {
        try await db.write { db in
            try db.execute(sql: "DELETE FROM list WHERE id = ? AND user_id = ?", arguments: [id, userID])
            return db.changesCount > 0
        }
    }

    // MARK: - Books on a list

    /// A page of the list's books in its order, narrowed by `filters`, with how many match.
    func items(
        of listID: Int64, for userID: Int64, page: Int, pageSize: Int = LibraryStore.pageSize,
        narrowedBy filters: LibraryFilters = .init()
    ) async throws -> (items: [ReadingListItem], total: Int) {
        try await db.read { db in
            let (narrowing, narrowingArguments) = filters.sqlCondition()
            // Each book's place in the whole list is numbered before the filters narrow it, in one pass.
            let matching = """
                FROM \(filters.sqlSource) JOIN (
                    SELECT user_book_id, ROW_NUMBER() OVER (ORDER BY position, rowid) AS place
                    FROM list_item WHERE list_id = ?) AS placed ON placed.user_book_id = user_book.id
                WHERE user_book.user_id = ?\(narrowing)
                """
            let arguments: StatementArguments = [listID, userID] + narrowingArguments
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT \(LibraryItem.selection), COUNT(*) OVER () AS matching_count, placed.place
                        \(matching) ORDER BY placed.place LIMIT ? OFFSET ?
                        """),
                arguments: arguments + [pageSize, max(0, page - 1) * pageSize])
            var items: [ReadingListItem] = []
            var total: Int?
            while let row = try rows.next() {
                total = total ?? row["matching_count"]
                items.append(ReadingListItem(item: LibraryItem(row: row), position: row["place"]))
            }
            if total == nil, page > 1 {
                total = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(matching)", arguments: arguments)
            }
            return (items, total ?? 0)
        }
    }

    /// Puts the person's book at the end of their list; its place, or nil when the list or the book is not theirs.
    /// A book already there keeps its place.
    @discardableResult
    func add(bookID: Int64, to listID: Int64, for userID: Int64) async throws -> Int? {
        try await db.write { db in
            guard try Self.ownsList(listID, userID, db), let entryID = try Self.entryID(bookID, userID, db) else {
                return nil
            }
            try db.cachedStatement(sql: Self.appendItemSQL).execute(arguments: [listID, entryID, listID])
            return try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM list_item AS before, list_item AS this
                    WHERE this.list_id = ? AND this.user_book_id = ? AND before.list_id = this.list_id
                        AND (before.position < this.position
                            OR (before.position = this.position AND before.rowid <= this.rowid))
                    """, arguments: [listID, entryID])
        }
    }

    /// Takes the book off the list, closing the gap; false when it was not on the person's list.
    func remove(bookID: Int64, from listID: Int64, for userID: Int64) async throws -> Bool {
        try await db.write { db in
            guard try Self.ownsList(listID, userID, db), let entryID = try Self.entryID(bookID, userID, db),
                let position = try Int.fetchOne(
                    db, sql: "SELECT position FROM list_item WHERE list_id = ? AND user_book_id = ?",
                    arguments: [listID, entryID])
            else { return false }
            try db.execute(
                sql: "DELETE FROM list_item WHERE list_id = ? AND user_book_id = ?", arguments: [listID, entryID])
            try db.execute(
                sql: "UPDATE list_item SET position = position - 1 WHERE list_id = ? AND position > ?",
                arguments: [listID, position])
            return true
        }
    }

    /// Sets which of the person's lists hold the book: on exactly `listIDs` among their lists afterwards.
    func setLists(_ listIDs: Set<Int64>, forBook bookID: Int64, userID: Int64) async throws {
        let current = try await membership(ofBook: bookID, for: userID)
        for (list, contains) in current where contains != listIDs.contains(list.id) {
            if contains {
                _ = try await remove(bookID: bookID, from: list.id, for: userID)
            } else {
                try await add(bookID: bookID, to: list.id, for: userID)
            }
        }
    }

    /// Where a move takes a book: one place up or down, or to a place (1-based).
    enum Move: Sendable, Equatable {
        case up
        case down
        case to(Int)
    }

    /// Moves the book within the list, the books between shifting by one; its new place, or nil when the book is
    /// not on the person's list. A place past either end is taken as that end. Places that collide (two books
    /// at one place, as an older import left them) are put in order on the way.
    func move(bookID: Int64, in listID: Int64, _ move: Move, for userID: Int64) async throws -> Int? {
        try await db.write { db in
            guard try Self.ownsList(listID, userID, db), let entryID = try Self.entryID(bookID, userID, db) else {
                return nil
            }
            let rows = try Row.fetchAll(
                db, sql: "SELECT user_book_id, position FROM list_item WHERE list_id = ? ORDER BY position, rowid",
                arguments: [listID])
            var order: [Int64] = rows.map { $0[0] }
            guard let from = order.firstIndex(of: entryID) else { return nil }
            let target: Int
            switch move {
            case .up: target = from - 1
            case .down: target = from + 1
            case .to(let place): target = place - 1
            }
            let to = min(max(target, 0), order.count - 1)
            order.remove(at: from)
            order.insert(entryID, at: to)
            // Only the rows whose place changed are written: a move by one writes two.
            let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
            let update = try db.cachedStatement(
                sql: "UPDATE list_item SET position = ? WHERE list_id = ? AND user_book_id = ?")
            for (index, id) in order.enumerated() where stored[id] != index + 1 {
                try update.execute(arguments: [index + 1, listID, id])
            }
            return to + 1
        }
    }

    // MARK: - Rows

    private static func fetchList(_ id: Int64, of userID: Int64, _ db: Database) throws -> ReadingList? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT list.id, list.name, list.description,
                    (SELECT COUNT(*) FROM list_item WHERE list_item.list_id = list.id) AS book_count
                FROM list WHERE list.id = ? AND list.user_id = ?
                """, arguments: [id, userID]
        ).map { try list($0, db) }
    }

    private static func list(_ row: Row, _ db: Database) throws -> ReadingList {
        let covers = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT book.cover_path FROM list_item JOIN user_book ON user_book.id = list_item.user_book_id
                    JOIN book ON book.id = user_book.book_id
                    WHERE list_item.list_id = ? AND book.cover_path IS NOT NULL
                    ORDER BY list_item.position, list_item.rowid LIMIT 4
                    """), arguments: [row["id"]])
        return ReadingList(row, coverPaths: covers)
    }

    private static func nameTaken(_ name: String, by userID: Int64, except id: Int64?, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM list WHERE user_id = ? AND name = ? AND id IS NOT ?)",
            arguments: [userID, name, id]) ?? false
    }

    private static func ownsList(_ listID: Int64, _ userID: Int64, _ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM list WHERE id = ? AND user_id = ?)", arguments: [listID, userID])
            ?? false
    }

    private static func entryID(_ bookID: Int64, _ userID: Int64, _ db: Database) throws -> Int64? {
        try Int64.fetchOne(
            db, sql: "SELECT id FROM user_book WHERE book_id = ? AND user_id = ?", arguments: [bookID, userID])
    }
}

extension ReadingList {
    init(_ row: Row, coverPaths: [String]) {
        self.init(
            id: row["id"], name: row["name"], description: row["description"], bookCount: row["book_count"],
            coverPaths: coverPaths)
    }
}
