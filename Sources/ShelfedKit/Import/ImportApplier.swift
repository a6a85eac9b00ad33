import Foundation
import GRDB

/// Writes one imported book into a user's library, inside the caller's transaction, and says what it did.
/// Never invents a date: a read without dates stays without them. Never overwrites newer local data.
struct ImportApplier {
    let userID: Int64
    let existing: ImportJob.Existing
    let shelfMapping: [String: Shelf]
    let now: Date
    /// The job whose books are queued for enrichment, so its page can show their progress.
    let jobID: String
    /// `now` as SQLite stores it, formatted once: GRDB formats a `Date` with a date formatter on every use.
    let nowValue: DatabaseValue

    init(jobID: String, userID: Int64, existing: ImportJob.Existing, shelfMapping: [String: Shelf], now: Date) {
        self.jobID = jobID
        self.userID = userID
        self.existing = existing
        self.shelfMapping = shelfMapping
        self.now = now
        nowValue = now.databaseValue
    }

    struct Applied: Equatable {
        let outcome: ImportRow.Outcome
        let userBookID: Int64?
        let message: String?
    }

    func apply(_ book: ImportedBook, match: inout LibraryMatch, _ db: Database) throws -> Applied {
        var book = book
        let shelf: Shelf
        switch book.shelf {
        case .known(let known):
            shelf = known
        case .custom(let name):
            shelf = shelfMapping[name] ?? .wantToRead
            // The old shelf's name is kept as a list, so nothing the person sorted by is lost.
            if !book.lists.contains(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) {
                book.lists.append(name)
            }
        }
        if let kind = book.screenKind { return try applyTitle(book, kind: kind, shelf: shelf, match: &match, db) }
        if let entryID = try match.entry(for: book, userID: userID, db) {
            if let maker = match.job(thatMade: entryID) {
                return try merge(book, into: entryID, madeBy: maker, shelf: shelf, db)
            }
            guard existing == .update else {
                return Applied(
                    outcome: .skipped, userBookID: entryID, message: "Already in your library; left as it was.")
            }
            let changed = try update(entryID: entryID, with: book, shelf: shelf, db)
            return changed
                ? Applied(outcome: .updated, userBookID: entryID, message: nil)
                : Applied(outcome: .skipped, userBookID: entryID, message: "Already in your library with nothing new.")
        }
        let entryID = try create(book, shelf: shelf, db)
        match.remember(
            entryID, madeBy: jobID, title: book.title, firstAuthor: book.firstAuthor, externalIDs: book.externalIDs)
        return Applied(outcome: .created, userBookID: entryID, message: nil)
    }

    /// A second row for a book an import running now has just added — another edition in the same file, or the same
    /// file imported twice at once — becomes part of that one entry, whatever `existing` says: the more advanced
    /// shelf wins (read, then reading, then want to read) and later dates win, so what the person is reading now is
    /// never lost to the older row.
    private func merge(_ book: ImportedBook, into entryID: Int64, madeBy maker: String, shelf: Shelf, _ db: Database)
        throws -> Applied
    {
        let changed = try update(entryID: entryID, with: book, shelf: shelf, merging: true, db)
        let other = maker == jobID ? "an earlier row of this file" : "another import of yours running at the same time"
        return changed
            ? Applied(
                outcome: .updated, userBookID: entryID,
                message: "The same book as \(other) (another edition?): merged into one, keeping the furthest "
                    + "shelf and the latest dates.")
            : Applied(outcome: .skipped, userBookID: entryID, message: "The same book as \(other); nothing new.")
    }

    // MARK: - A new book

    /// A new catalog row of the user's own and their entry for it, written through `CatalogWriter`.
    private func create(_ book: ImportedBook, shelf: Shelf, _ db: Database) throws -> Int64 {
        let writer = CatalogWriter(db: db)
        // "Leviathan Wakes (The Expanse, #1)": the series goes where series are kept, the title stays a title.
        let series = SeriesPlace.split(title: book.title)
        let bookID = try writer.insert(
            CatalogWriter.NewRow(
                title: series?.title ?? book.title, authors: book.authors, isbn10: book.isbn10, isbn13: book.isbn13,
                publisher: book.publisher, publishedDate: book.publishedDate, description: book.description,
                pageCount: book.pageCount, source: .import, owner: userID, externalIDs: book.externalIDs,
                series: series?.series, community: book.community),
            at: nowValue)
        let latest = book.readThroughs.last
        let entryID = try writer.insert(
            CatalogWriter.NewEntry(
                userID: userID, bookID: bookID, shelf: shelf, favourite: book.favourite, rating: book.rating,
                review: book.review, addedAt: book.addedOn.flatMap(Self.middayValue) ?? nowValue,
                startedAt: latest?.startedOn, finishedAt: shelf == .read ? latest?.finishedOn : nil,
                privateNotes: book.privateNotes, owned: book.owned, format: book.format,
                stoppedAt: shelf == .didNotFinish ? latest?.finishedOn : nil),
            at: nowValue)
        // A book not finished ended its last read on the day it was put down: that read is not a finished one.
        for read in shelf == .didNotFinish ? book.readThroughs.dropLast() : book.readThroughs[...] {
            try insertReadThrough(read, entryID: entryID, db)
        }
        try addToLists(book.lists, entryID: entryID, db)
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO enrichment_queue (book_id, job_id, next_try_at) VALUES (?, ?, ?)"
        ).execute(arguments: [bookID, jobID, nowValue])
        return entryID
    }

    // MARK: - A book the user has

    /// Fills what the entry lacks and takes the imported shelf and dates only when they are newer; true when
    /// anything changed.
    private func update(entryID: Int64, with book: ImportedBook, shelf: Shelf, merging: Bool = false, _ db: Database)
        throws -> Bool
    {
        guard var entry = try UserBook.fetchOne(db, key: entryID) else { return false }
        let before = entry
        let extras = try Row.fetchOne(
            db, sql: "SELECT private_notes, owned, format FROM user_book WHERE id = ?", arguments: [entryID])
        var changed = false

        if entry.rating == nil, let rating = book.rating { entry.rating = rating }
        if (entry.review ?? "").isEmpty, let review = book.review { entry.review = review }
        if !entry.favourite, book.favourite { entry.favourite = true }

        // Reads: each imported read not yet recorded is added; a dateless read adds nothing to a known one.
        var reads = try ReadThroughRow.all(of: entryID, db)
        if reads.isEmpty, entry.startedAt != nil || entry.finishedAt != nil {
            let local = ReadThrough(startedOn: entry.startedAt, finishedOn: entry.finishedAt)
            try insertReadThrough(local, entryID: entryID, db)
            reads.append(local)
        }
        for read in book.readThroughs where !reads.contains(read) {
            let dateless = read.startedOn == nil && read.finishedOn == nil
            if dateless && !reads.isEmpty { continue }
            try insertReadThrough(read, entryID: entryID, db)
            reads.append(read)
            changed = true
        }

        // The shelf and dates move only forward: an older import never undoes what the person did since.
        let importedLatest = ([book.addedOn] + book.readThroughs.flatMap { [$0.startedOn, $0.finishedOn] })
            .compactMap { $0 }.max()
        let localDay = AppClock.dateString(entry.updatedAt, in: TimeZone(identifier: "UTC")!)
        if merging {
            if Self.progress(of: shelf) > Self.progress(of: entry.shelf) { entry.shelf = shelf }
            if let added = book.addedOn.flatMap(Self.midday), added < entry.addedAt { entry.addedAt = added }
        } else if shelf != entry.shelf, let importedLatest, importedLatest > localDay {
            entry.shelf = shelf
        }
        if let finished = book.readThroughs.compactMap(\.finishedOn).max(), entry.shelf == .read,
            entry.finishedAt.map({ finished > $0 }) ?? true
        {
            entry.finishedAt = finished
        }
        if let started = book.readThroughs.compactMap(\.startedOn).max(), entry.startedAt.map({ started > $0 }) ?? true
        {
            entry.startedAt = started
        }

        if entry.rating != before.rating || entry.review != before.review || entry.favourite != before.favourite
            || entry.shelf != before.shelf || entry.startedAt != before.startedAt
            || entry.finishedAt != before.finishedAt || entry.addedAt != before.addedAt
        {
            entry.updatedAt = now
            try entry.update(db)
            changed = true
        }
        let notes: String? = extras?["private_notes"]
        let owned: Bool? = extras?["owned"]
        let format: String? = extras?["format"]
        if (notes ?? "").isEmpty, let imported = book.privateNotes {
            try db.execute(sql: "UPDATE user_book SET private_notes = ? WHERE id = ?", arguments: [imported, entryID])
            changed = true
        }
        if owned == nil, let imported = book.owned {
            try db.execute(sql: "UPDATE user_book SET owned = ? WHERE id = ?", arguments: [imported, entryID])
            changed = true
        }
        if format == nil, let imported = book.format {
            try db.execute(sql: "UPDATE user_book SET format = ? WHERE id = ?", arguments: [imported, entryID])
            changed = true
        }
        if try addToLists(book.lists, entryID: entryID, db) { changed = true }
        return changed
    }

    /// How far along a shelf is: a merge never moves a book back.
    static func progress(of shelf: Shelf) -> Int {
        switch shelf {
        case .wantToRead: 0
        case .reading: 1
        case .didNotFinish: 2
        case .read: 3
        }
    }

    // MARK: - Reads and lists

    private func insertReadThrough(_ read: ReadThrough, entryID: Int64, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT INTO read_through (user_book_id, started_at, finished_at) VALUES (?, ?, ?)")
            .execute(arguments: [entryID, read.startedOn, read.finishedOn])
    }

    /// Puts the entry on each named list, creating lists as needed; true when it joined any.
    @discardableResult
    func addToLists(_ names: [String], entryID: Int64, _ db: Database) throws -> Bool {
        var joined = false
        for name in names {
            var listID = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM list WHERE user_id = ? AND name = ?"),
                arguments: [userID, name])
            if listID == nil {
                try db.execute(
                    sql: """
                        INSERT INTO list (user_id, name, position)
                        VALUES (?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM list WHERE user_id = ?))
                        """, arguments: [userID, name, userID])
                listID = db.lastInsertedRowID
            }
            try db.cachedStatement(sql: ReadingListStore.appendItemSQL).execute(arguments: [listID, entryID, listID])
            if db.changesCount > 0 { joined = true }
        }
        return joined
    }

    /// `yyyy-mm-dd` as SQLite keeps a date, noon UTC (`Date.databaseValue`'s format, written without a formatter).
    static func middayValue(_ day: String) -> DatabaseValue? {
        guard CalendarDate.isValidDay(day) else { return nil }
        return "\(day) 12:00:00.000".databaseValue
    }

    /// `yyyy-mm-dd` as noon UTC that day: the day it was added elsewhere, without a time that was never recorded.
    /// Counted by hand: a date formatter made per row was 40 % of an import's time.
    static func midday(_ day: String) -> Date? {
        guard CalendarDate.isValidDay(day) else { return nil }
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        // Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let (month, dayOfMonth) = (parts[1], parts[2])
        let year = parts[0] - (month <= 2 ? 1 : 0)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + dayOfMonth - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days) * 86_400 + 12 * 3_600)
    }
}

/// The reads recorded for one shelf entry.
enum ReadThroughRow {
    static func all(of entryID: Int64, _ db: Database) throws -> [ReadThrough] {
        try Row.fetchAll(
            db, sql: "SELECT started_at, finished_at FROM read_through WHERE user_book_id = ? ORDER BY id",
            arguments: [entryID]
        ).map { ReadThrough(startedOn: $0["started_at"], finishedOn: $0["finished_at"]) }
    }
}
