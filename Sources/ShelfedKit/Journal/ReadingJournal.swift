import Foundation
import GRDB

/// One progress update in a reading journal: the day, the page or the percent, and an optional note.
struct JournalEntry: Sendable, Equatable {
    let id: Int64
    let userBookID: Int64
    let readOn: String
    let page: Int?
    let percent: Double?
    let note: String?

    init(row: Row) {
        id = row["id"]
        userBookID = row["user_book_id"]
        readOn = row["read_on"]
        page = row["page"]
        percent = row["percent"]
        note = row["note"]
    }
}

/// Where a reader is in a book: by page (with the page count when known) or by percent.
struct ReadingProgress: Sendable, Equatable {
    let page: Int?
    let percent: Double?
    let pageCount: Int?

    /// 0…1, or nil when there is nothing to measure against.
    var fraction: Double? {
        if let percent { return min(max(percent / 100, 0), 1) }
        guard let page, let pageCount, pageCount > 0 else { return nil }
        return min(Double(page) / Double(pageCount), 1)
    }

    /// "Page 120 of 350 · 34 %", "45 %", "Page 120", in the request's language.
    var summary: String? {
        if let percent { return "\(ProgressValues.percentText(percent)) %" }
        guard let page else { return nil }
        // Pages grouped as the language groups them: "Seite 220 von 1.234".
        guard let pageCount, let fraction else { return localized("Page {{page}}", ["page": page.grouped]) }
        return localized("Page {{page}} of {{count}}", ["page": page.grouped, "count": pageCount.grouped])
            + " · \(Int((fraction * 100).rounded())) %"
    }
}

/// The journal's SQL. Every read and write is scoped to the signed-in person's own shelf entries: another
/// person's entry id is simply not found.
struct ReadingJournal: Sendable {
    let db: AppDatabase

    /// The most entries a book page lists (the latest); the rest stay, and count in the statistics.
    static let pageListLimit = 100

    /// The entry's journal, newest first, at most `limit`, and how many it has in all.
    func entries(of userBookID: Int64, limit: Int = pageListLimit) async throws -> (entries: [JournalEntry], total: Int)
    {
        try await db.read { db in try Self.entries(of: userBookID, limit: limit, db) }
    }

    /// `entries(of:limit:)` inside the caller's read.
    static func entries(of userBookID: Int64, limit: Int = pageListLimit, _ db: Database) throws -> (
        entries: [JournalEntry], total: Int
    ) {
        let entries = try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT * FROM journal_entry WHERE user_book_id = ? ORDER BY read_on DESC, id DESC LIMIT ?"),
            arguments: [userBookID, limit]
        ).map(JournalEntry.init(row:))
        let total =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM journal_entry WHERE user_book_id = ?"),
                arguments: [userBookID]) ?? 0
        return (entries, total)
    }

    /// Where `userID` is in each book on their Reading shelf, and whether it is read by percent.
    func readingProgress(of userID: Int64) async throws -> [Int64: (progress: ReadingProgress, byPercent: Bool)] {
        try await db.read { db in try Self.readingProgress(db, of: userID) }
    }

    static func readingProgress(_ db: Database, of userID: Int64) throws -> [Int64: (
        progress: ReadingProgress, byPercent: Bool
    )] {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT user_book.book_id, user_book.current_page, user_book.current_percent, book.page_count,
                        user_book.format
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND user_book.shelf = 'reading'
                    """), arguments: [userID])
        var found: [Int64: (progress: ReadingProgress, byPercent: Bool)] = [:]
        for row in rows {
            let percent: Double? = row[2]
            found[row[0]] = (
                ReadingProgress(page: row[1], percent: percent, pageCount: row[3]),
                ProgressValues.readsByPercent(percent: percent, format: row[4])
            )
        }
        return found
    }

    /// `userID`'s entry `id` with the book it belongs to; nil when there is none (or it is someone else's).
    func entry(_ id: Int64, of userID: Int64) async throws -> (entry: JournalEntry, bookID: Int64)? {
        try await db.read { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT journal_entry.*, user_book.book_id FROM journal_entry
                        JOIN user_book ON user_book.id = journal_entry.user_book_id
                        WHERE journal_entry.id = ? AND user_book.user_id = ?
                        """), arguments: [id, userID]
            ).map { (JournalEntry(row: $0), $0["book_id"]) }
        }
    }

    /// Records progress on `userID`'s `bookID`: a book on Want to read moves to Reading, a day before the start
    /// moves the start back to it, and the entry's latest page or percent is kept on the shelf entry. Returns the
    /// new entry's id; nil when the book is not theirs.
    func add(_ values: ProgressValues, bookID: Int64, userID: Int64, now: Date) async throws -> Int64? {
        try await db.write { db in
            guard
                var entry = try UserBook.filter(Column("user_id") == userID && Column("book_id") == bookID)
                    .fetchOne(db), let entryID = entry.id
            else { return nil }
            try db.execute(
                sql: """
                    INSERT INTO journal_entry (user_book_id, read_on, page, percent, note, created_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [entryID, values.readOn, values.page, values.percent, values.note, now])
            let id = db.lastInsertedRowID
            // As a move to Reading on that day would: a read finished before is kept as an earlier read.
            if entry.shelf == .wantToRead { try entry.move(to: .reading, today: values.readOn, now: now, db) }
            if entry.startedAt.map({ values.readOn < $0 }) ?? true { entry.startedAt = values.readOn }
            try Self.keepLatest(&entry, db)
            entry.updatedAt = now
            try entry.update(db)
            return id
        }
    }

    /// Replaces `userID`'s entry `id`; false when there is none of theirs.
    func update(_ id: Int64, with values: ProgressValues, userID: Int64, now: Date) async throws -> Bool {
        try await change(id, userID: userID, now: now) { db in
            try db.execute(
                sql: "UPDATE journal_entry SET read_on = ?, page = ?, percent = ?, note = ? WHERE id = ?",
                arguments: [values.readOn, values.page, values.percent, values.note, id])
        }
    }

    /// Deletes `userID`'s entry `id`; false when there is none of theirs.
    func delete(_ id: Int64, userID: Int64, now: Date) async throws -> Bool {
        try await change(id, userID: userID, now: now) { db in
            try db.execute(sql: "DELETE FROM journal_entry WHERE id = ?", arguments: [id])
        }
    }

    private func change(_ id: Int64, userID: Int64, now: Date, _ body: @Sendable @escaping (Database) throws -> Void)
        async throws -> Bool
    {
        try await db.write { db in
            guard
                var entry = try UserBook.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT user_book.* FROM user_book JOIN journal_entry ON journal_entry.user_book_id = user_book.id
                            WHERE journal_entry.id = ? AND user_book.user_id = ?
                            """), arguments: [id, userID])
            else { return false }
            try body(db)
            try Self.keepLatest(&entry, db)
            entry.updatedAt = now
            try entry.update(db)
            return true
        }
    }

    /// Copies the latest entry's page or percent onto the shelf entry (nothing when the journal is empty: a page
    /// set some other way, by an import, stays).
    static func keepLatest(_ entry: inout UserBook, _ db: Database) throws {
        guard let id = entry.id,
            let latest = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT page, percent FROM journal_entry WHERE user_book_id = ? ORDER BY read_on DESC, id DESC
                        LIMIT 1
                        """), arguments: [id])
        else { return }
        entry.currentPage = latest["page"]
        entry.currentPercent = latest["percent"]
    }

    /// Finishing a book puts its progress at the end: the last page (or 100 %), and, when the reader kept a journal
    /// of it, an entry for the last stretch on the day it was finished, so the pages read count it.
    static func finish(_ entry: inout UserBook, on day: String, now: Date, _ db: Database) throws {
        guard let id = entry.id else { return }
        let pageCount = try Int.fetchOne(
            db, sql: "SELECT page_count FROM book WHERE id = ?", arguments: [entry.bookId])
        let byPercent = entry.currentPercent != nil
        if byPercent {
            guard entry.currentPercent != 100 else { return }
        } else {
            guard let pageCount, entry.currentPage != pageCount else { return }
        }
        let kept = try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM journal_entry WHERE user_book_id = ?", arguments: [id])
        if kept ?? 0 > 0 {
            try db.execute(
                sql: """
                    INSERT INTO journal_entry (user_book_id, read_on, page, percent, note, created_at)
                    VALUES (?, ?, ?, ?, NULL, ?)
                    """, arguments: [id, day, byPercent ? nil : pageCount, byPercent ? 100.0 : nil, now])
        }
        if byPercent { entry.currentPercent = 100 } else { entry.currentPage = pageCount }
    }
}
