import GRDB

/// The one definition of "pages read" (issue 35, finding 4), which the profile (the year, all time, the weeks and
/// months), the year in review, the house challenge and the API all count with, so no two figures disagree ("340
/// pages this week" beside "0 pages read this year" was two definitions):
///
/// - a read with journal updates counts its forward progress, on the day of each update (`JournalStatistics`' rule:
///   a book's place at the end of a day less its place at the end of the day before it was updated), the last
///   stretch included when it is finished (`ReadingJournal.finish` writes it);
/// - a read finished with no update during it (finished in one tap, imported from another tracker) counts the
///   book's page count on the day it was finished;
/// - a book on Read with no finish date and no update counts its pages in the all-time total only: it has no day.
///
/// Page counts outside `BoundedNumber.pageCount` are unknown and count nothing.
struct PagesRead: Sendable, Equatable {
    /// Pages read on each day, by day number (`JournalStatistics.dayNumber`).
    var byDay: [Int: Int] = [:]
    /// The days with a journal update (the streak counts these).
    var updateDays: Set<Int> = []
    /// Pages of reads with neither a finish date nor an update.
    var undated = 0

    /// The pages read on the days from `start` up to, not including, `end` (`yyyy-mm-dd`); every day when nil.
    func total(from start: String? = nil, to end: String? = nil) -> Int {
        let first = start.flatMap(JournalStatistics.dayNumber) ?? .min
        let last = end.flatMap(JournalStatistics.dayNumber) ?? .max
        return byDay.reduce(0) { sum, day in (first..<last).contains(day.key) ? sum + day.value : sum }
    }

    /// The total over every day, undated reads included.
    var allTime: Int { total() + undated }

    /// `userID`'s pages read. With `start` and `end`, only what is needed to count the days in that range is read
    /// (the journal before `start` only for each book's place on the eve of it); days outside it may be incomplete.
    static func of(_ userID: Int64, from start: String? = nil, to end: String? = nil, _ db: Database) throws -> Self {
        var pagesRead = Self()
        try pagesRead.addJournal(of: userID, to: end, db)
        try pagesRead.addReadsWithoutJournal(of: userID, from: start, to: end, db)
        return pagesRead
    }

    /// The journal up to `end`, walked in the index's order. Entries before `start` are read too, for each book's
    /// place on the eve of the range: picking only the last of them per book with a subquery for every entry cost
    /// more than reading them (a year in review went from 2.9 to 9.1 ms, benchmarks/journal.py).
    private mutating func addJournal(of userID: Int64, to end: String?, _ db: Database) throws {
        var range = ""
        var arguments: StatementArguments = [userID]
        if let end {
            range += " AND journal_entry.read_on < ?"
            arguments += [end]
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT journal_entry.user_book_id, journal_entry.read_on, journal_entry.page, journal_entry.percent,
                    book.page_count
                FROM journal_entry JOIN user_book ON user_book.id = journal_entry.user_book_id
                JOIN book ON book.id = user_book.book_id
                WHERE user_book.user_id = ?\(range)
                ORDER BY journal_entry.user_book_id, journal_entry.read_on, journal_entry.id
                """, arguments: arguments)
        var book: Int64 = -1
        // The book's place at the end of the last day before `placeDay`, and its place so far on `placeDay`.
        var endOfDayBefore = 0
        var placeDay: Int?
        var place = 0
        func closeDay() {
            guard let day = placeDay else { return }
            byDay[day, default: 0] += max(0, place - endOfDayBefore)
            endOfDayBefore = place
            placeDay = nil
        }
        while let row = try rows.next() {
            let entryBook: Int64 = row[0]
            if entryBook != book {
                closeDay()
                (book, endOfDayBefore) = (entryBook, 0)
            }
            guard let day = JournalStatistics.dayNumber(row[1]) else { continue }
            updateDays.insert(day)
            let pageCount = BoundedNumber.plausible(row[4], in: BoundedNumber.pageCount)
            let page: Int? =
                (row[2] as Int?)
                ?? (row[3] as Double?).flatMap { percent in
                    pageCount.map { Int((percent / 100 * Double($0)).rounded()) }
                }
            guard let page else { continue }
            if placeDay != day { closeDay() }
            (placeDay, place) = (day, page)
        }
        closeDay()
    }

    /// Every read — the current one of each book on Read, and the earlier ones kept — with no journal update
    /// between its start (if known) and its finish: its page count on its finish day, or undated.
    private mutating func addReadsWithoutJournal(
        of userID: Int64, from start: String?, to end: String?, _ db: Database
    ) throws {
        var range = ""
        var arguments: [String: any DatabaseValueConvertible] = ["user": userID]
        if let start {
            range += " AND finished >= :start"
            arguments["start"] = start
        }
        if let end {
            range += " AND finished < :end"
            arguments["end"] = end
        }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                WITH reads AS (
                    SELECT user_book.id AS entry_id, user_book.book_id, user_book.started_at AS started,
                        user_book.finished_at AS finished
                    FROM user_book WHERE user_book.user_id = :user AND user_book.shelf = 'read'
                    UNION ALL
                    SELECT user_book.id, user_book.book_id, read_through.started_at, read_through.finished_at
                    FROM read_through JOIN user_book ON user_book.id = read_through.user_book_id
                    WHERE user_book.user_id = :user AND read_through.finished_at IS NOT NULL
                ),
                -- A read kept twice (as the current one and among the earlier ones) counts once.
                finish AS (
                    SELECT entry_id, book_id, MIN(started) AS started, finished FROM reads
                    WHERE 1\(range) GROUP BY entry_id, finished
                )
                SELECT finish.finished, book.page_count FROM finish JOIN book ON book.id = finish.book_id
                WHERE NOT EXISTS (
                    SELECT 1 FROM journal_entry WHERE journal_entry.user_book_id = finish.entry_id
                        AND journal_entry.read_on >= COALESCE(finish.started, '')
                        AND journal_entry.read_on <= COALESCE(finish.finished, '9999-12-31'))
                """,
            arguments: StatementArguments(arguments))
        while let row = try rows.next() {
            guard let pages = BoundedNumber.plausible(row[1], in: BoundedNumber.pageCount) else { continue }
            if let day = (row[0] as String?).flatMap(JournalStatistics.dayNumber) {
                byDay[day, default: 0] += pages
            } else {
                undated += pages
            }
        }
    }
}
