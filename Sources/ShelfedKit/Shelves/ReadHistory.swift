import Foundation
import GRDB

/// The reads kept for a shelf entry besides its current one (`read_through`). A shelf move that has to replace a
/// finished read keeps it here first, so no move ever destroys a date the person entered or imported.
enum ReadHistory {
    /// Keeps `read` for the entry unless it is kept already (imports record every read, the current one too).
    static func keep(_ read: ReadThrough, of entryID: Int64, _ db: Database) throws {
        guard read.startedOn != nil || read.finishedOn != nil else { return }
        let known =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM read_through WHERE user_book_id = ?
                        AND started_at IS ? AND finished_at IS ?)
                    """, arguments: [entryID, read.startedOn, read.finishedOn]) ?? false
        guard !known else { return }
        try db.execute(
            sql: "INSERT INTO read_through (user_book_id, started_at, finished_at) VALUES (?, ?, ?)",
            arguments: [entryID, read.startedOn, read.finishedOn])
    }

    /// The finished read kept most recently, if any.
    static func latestFinished(of entryID: Int64, _ db: Database) throws -> ReadThrough? {
        try Row.fetchOne(
            db,
            sql: """
                SELECT started_at, finished_at FROM read_through WHERE user_book_id = ? AND finished_at IS NOT NULL
                ORDER BY id DESC LIMIT 1
                """, arguments: [entryID]
        ).map { ReadThrough(startedOn: $0["started_at"], finishedOn: $0["finished_at"]) }
    }

    /// Takes back the kept read `latestFinished` found, when it becomes the current read again.
    static func forgetLatestFinished(of entryID: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM read_through WHERE id = (
                    SELECT id FROM read_through WHERE user_book_id = ? AND finished_at IS NOT NULL
                    ORDER BY id DESC LIMIT 1)
                """, arguments: [entryID])
    }

    /// Keeps the read an entry is moved away from: a book's as `keep` does (one of each), a film's viewing as the
    /// event it is (`keepViewing`), since two viewings of one day are two.
    static func keepForMove(_ read: ReadThrough, of entry: UserBook, _ entryID: Int64, _ db: Database) throws {
        let kind = try String.fetchOne(
            db.cachedStatement(sql: "SELECT kind FROM book WHERE id = ?"), arguments: [entry.bookId])
        if kind == TitleKind.movie.rawValue {
            try keepViewing(read, of: entryID, db)
        } else {
            try keep(read, of: entryID, db)
        }
    }

    /// Every kept read that is not the current one, latest first, for the book page.
    static func earlier(than entry: UserBook, _ db: Database) throws -> [ReadThrough] {
        guard let id = entry.id else { return [] }
        let current = ReadThrough(startedOn: entry.startedAt, finishedOn: entry.finishedAt)
        return try ReadThroughRow.all(of: id, db).filter { $0 != current && $0.finishedOn != nil }.reversed()
    }
}

extension UserBook {
    /// Moves an entry the person has to `shelf` without losing a date:
    /// - to Want to read: only the shelf changes; the dates stay.
    /// - to Reading: a book finished today (a mistaken tap on Read undone) is simply open again; a book finished
    ///   before starts a new read today, its finished read kept in `read_through`; a book started before and not
    ///   finished keeps its start; otherwise it starts today.
    /// - to Read: a book with a finish date keeps it; one started today straight after being taken off Read (a
    ///   mistaken tap undone) gets its kept read back; otherwise it is finished today.
    /// - to Did not finish: it stops today; a book finished today is simply unfinished (a mistaken tap on Read
    ///   undone), one finished before keeps that read in `read_through` (a re-read given up). Leaving Did not finish
    ///   forgets the day and the reason; back to Read the same day, the kept read returns.
    ///
    /// With `leavingUnsureUndated`, a book that goes to Read never having been started is left without a finish
    /// date (read, date unknown) rather than finished today: it may have been read years ago, and the page asks.
    /// A book on Reading is being read, whether or not it has a start date (Goodreads exports none): finishing it is
    /// finishing it today (issue 35).
    ///
    /// A move to Read also puts the reading progress at the end (`ReadingJournal.finish`).
    mutating func move(
        to shelf: Shelf, today: String, now: Date, leavingUnsureUndated: Bool = false, _ db: Database
    ) throws {
        guard shelf != self.shelf else { return }
        try changeDates(movingTo: shelf, today: today, leavingUnsureUndated: leavingUnsureUndated, db)
        if shelf == .read { try ReadingJournal.finish(&self, on: finishedAt ?? today, now: now, db) }
    }

    private mutating func changeDates(
        movingTo shelf: Shelf, today: String, leavingUnsureUndated: Bool, _ db: Database
    ) throws {
        let wasReading = self.shelf == .reading
        // Put down today and taken back at once (a mistaken tap undone): the read it was taken from comes back.
        let stoppedToday = self.shelf == .didNotFinish && stoppedAt == today
        if self.shelf == .didNotFinish {
            stoppedAt = nil
            stopReason = nil
        }
        self.shelf = shelf
        switch shelf {
        case .wantToRead:
            break
        case .reading:
            if finishedAt == today {
                finishedAt = nil
            } else if let finishedAt, let id {
                try ReadHistory.keepForMove(ReadThrough(startedOn: startedAt, finishedOn: finishedAt), of: self, id, db)
                startedAt = today
                self.finishedAt = nil
            } else if startedAt == nil {
                startedAt = today
            }
        case .read:
            guard finishedAt == nil else { return }
            if startedAt == today || (stoppedToday && startedAt == nil), let id,
                let kept = try ReadHistory.latestFinished(of: id, db)
            {
                // The kept read is the current one again, so it is no longer kept: a film would count it twice.
                try ReadHistory.forgetLatestFinished(of: id, db)
                startedAt = kept.startedOn
                finishedAt = kept.finishedOn
            } else if leavingUnsureUndated, startedAt == nil, !wasReading {
                return
            } else {
                finishedAt = today
            }
        case .didNotFinish:
            if finishedAt == today {
                finishedAt = nil
            } else if let finishedAt, let id {
                try ReadHistory.keepForMove(ReadThrough(startedOn: startedAt, finishedOn: finishedAt), of: self, id, db)
                startedAt = nil
                self.finishedAt = nil
            }
            stoppedAt = today
        }
    }
}

extension LibraryStore {
    /// "Read it again": the finished read is kept in `read_through` and a new one starts today on the Reading shelf,
    /// from the first page (the journal of the earlier read stays). False when the book is not the person's, or not
    /// on the Read shelf.
    @discardableResult
    func readAgain(bookID: Int64, for userID: Int64, now: Date, today: String) async throws -> Bool {
        try await db.write { db in
            guard
                var entry = try UserBook.filter(Column("user_id") == userID && Column("book_id") == bookID)
                    .fetchOne(db), entry.shelf == .read, let id = entry.id
            else { return false }
            try ReadHistory.keep(ReadThrough(startedOn: entry.startedAt, finishedOn: entry.finishedAt), of: id, db)
            entry.shelf = .reading
            entry.startedAt = today
            entry.finishedAt = nil
            entry.currentPage = nil
            entry.currentPercent = nil
            entry.updatedAt = now
            try entry.update(db)
            return true
        }
    }

    /// The reads of this entry before its current one, latest first.
    func earlierReads(of entry: UserBook) async throws -> [ReadThrough] {
        try await db.read { db in try ReadHistory.earlier(than: entry, db) }
    }
}
