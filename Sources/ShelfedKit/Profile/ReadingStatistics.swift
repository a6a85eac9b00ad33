import Foundation
import GRDB

/// What one year of reading adds up to, counted from books on the Read shelf by their finish date.
public struct YearStatistics: Sendable, Equatable {
    public struct Month: Sendable, Equatable {
        public var books = 0
        public var pages = 0
    }

    public struct RankedName: Sendable, Equatable {
        public let name: String
        public let count: Int
    }

    public struct BookLength: Sendable, Equatable {
        public let bookID: Int64
        public let title: String
        public let pages: Int
    }

    public var year: Int
    public var booksFinished = 0
    /// Pages read in the year (`PagesRead`, the one definition: journal progress, and the page counts of reads
    /// finished without one).
    public var pagesRead = 0
    /// Pages per finished book, over the books with a page count; nil when none has one.
    public var averageLength: Int?
    public var months = Array(repeating: Month(), count: 12)
    public var topAuthors: [RankedName] = []
    public var topCategories: [RankedName] = []
    public var longest: BookLength?
    public var shortest: BookLength?
}

/// Totals over every year.
public struct AllTimeStatistics: Sendable, Equatable {
    public var booksRead = 0
    public var pagesRead = 0
    /// Every day's pages read (`pagesRead` is their total): the profile's weeks and months come from the same
    /// pass over the journal.
    var pages = PagesRead()
    /// Reads finished per year, oldest first (only years with a finished read; a re-read counts in each year).
    public var perYear: [(year: Int, books: Int)] = []

    public var yearsActive: Int { perYear.count }
    /// Books on the Read shelf with no finish date (imported from trackers that had none): counted here, never
    /// put in a year.
    public var readWithoutDate = 0

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.booksRead == rhs.booksRead && lhs.pagesRead == rhs.pagesRead
            && lhs.perYear.map(\.year) == rhs.perYear.map(\.year)
            && lhs.perYear.map(\.books) == rhs.perYear.map(\.books)
    }
}

/// The SQL behind the statistics. Finish dates are calendar dates in the household's zone (`yyyy-mm-dd`),
/// so a year is simply their first four characters; books without a date are never placed in a year.
public struct StatisticsStore: Sendable {
    let db: AppDatabase
    static let ranked = 5

    public init(db: AppDatabase) {
        self.db = db
    }

    /// Every read of a title of `kind` finished in a year as `finish` (entry_id, book_id, finished_on) joined with its
    /// `book`, then `joining` (more joins on it): the current read of each on the Read shelf and the earlier reads kept
    /// for any. Books by default: films and shows get their own figures (issue 37), never counted as books read.
    /// Arguments: user id, `yyyy-%`, user id, `yyyy-%`.
    static func finishedReads(of kind: TitleKind = .book, joining: String = "") -> String {
        """
        FROM (
            SELECT user_book.id AS entry_id, user_book.book_id, user_book.finished_at AS finished_on
            FROM user_book
            WHERE user_book.user_id = ? AND user_book.shelf = 'read' AND user_book.finished_at LIKE ?
            UNION
            SELECT user_book.id, user_book.book_id, read_through.finished_at FROM read_through
            JOIN user_book ON user_book.id = read_through.user_book_id
            WHERE user_book.user_id = ? AND read_through.finished_at LIKE ?
        ) AS finish JOIN book ON book.id = finish.book_id AND book.kind = '\(kind.rawValue)' \(joining)
        """
    }

    public func year(_ year: Int, of userID: Int64) async throws -> YearStatistics {
        try await db.read { db in
            var statistics = YearStatistics(year: year)
            // Every read finished in the year: the current one of each book on the Read shelf, and the earlier reads
            // kept for any book (a re-read counts in each year it was finished; a read kept twice counts once).
            let finished = Self.finishedReads()
            let pattern = String(format: "%04d-%%", year)
            let arguments: StatementArguments = [userID, pattern, userID, pattern]
            let rows = try Row.fetchAll(
                db, sql: "SELECT book.id, book.title, book.page_count, finish.finished_on \(finished)",
                arguments: arguments)
            var lengths: [YearStatistics.BookLength] = []
            for row in rows {
                let finishedAt: String = row[3]
                // A stored date is checked on the way in; a bad one still must not index outside the twelve months.
                let month = BoundedNumber.parse(finishedAt.dropFirst(5).prefix(2), in: 1...12) ?? 1
                statistics.booksFinished += 1
                statistics.months[month - 1].books += 1
                // Counts outside the plausible range (a provider typo, say) are unknown, never summed.
                if let pages = BoundedNumber.plausible(row[2], in: BoundedNumber.pageCount) {
                    lengths.append(.init(bookID: row[0], title: row[1], pages: pages))
                }
            }
            let (from, to) = (String(format: "%04d-01-01", year), String(format: "%04d-01-01", year + 1))
            let pagesRead = try PagesRead.of(userID, from: from, to: to, db)
            for month in 1...12 {
                let end = month == 12 ? to : String(format: "%04d-%02d-01", year, month + 1)
                statistics.months[month - 1].pages = pagesRead.total(
                    from: String(format: "%04d-%02d-01", year, month), to: end)
            }
            statistics.pagesRead = statistics.months.reduce(0) { $0 + $1.pages }
            if !lengths.isEmpty {
                let pages = lengths.reduce(0) { $0 + $1.pages }
                statistics.averageLength = Int((Double(pages) / Double(lengths.count)).rounded())
            }
            statistics.longest = lengths.max { ($0.pages, $1.title) < ($1.pages, $0.title) }
            statistics.shortest = lengths.min { ($0.pages, $0.title) < ($1.pages, $1.title) }
            for (column, keyPath) in [
                ("authors", \YearStatistics.topAuthors), ("categories", \YearStatistics.topCategories),
            ] {
                statistics[keyPath: keyPath] = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT names.value AS name, COUNT(*) AS n
                        \(Self.finishedReads(joining: "JOIN json_each(book.\(column)) AS names"))
                        GROUP BY names.value ORDER BY n DESC, names.value LIMIT \(Self.ranked)
                        """, arguments: arguments
                ).map { YearStatistics.RankedName(name: $0["name"], count: $0["n"]) }
            }
            return statistics
        }
    }

    /// Totals over every year; `countingPages: false` leaves `pagesRead` and `pages` empty for a caller that shows
    /// only the books and years (one pass over the whole journal saved).
    public func allTime(of userID: Int64, countingPages: Bool = true) async throws -> AllTimeStatistics {
        try await db.read { db in
            var statistics = AllTimeStatistics()
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT substr(finish.finished_on, 1, 4) AS year, COUNT(*) AS books
                    FROM (
                        SELECT user_book.id AS entry_id, user_book.book_id, user_book.finished_at AS finished_on
                        FROM user_book
                        WHERE user_book.user_id = ? AND user_book.shelf = 'read' AND user_book.finished_at IS NOT NULL
                        UNION
                        SELECT user_book.id, user_book.book_id, read_through.finished_at FROM read_through
                        JOIN user_book ON user_book.id = read_through.user_book_id
                        WHERE user_book.user_id = ? AND read_through.finished_at IS NOT NULL
                    ) AS finish JOIN book ON book.id = finish.book_id AND book.kind = 'book'
                    GROUP BY year ORDER BY year
                    """, arguments: [userID, userID])
            for row in rows {
                guard let year = BoundedNumber.parse(row["year"] as String, in: BoundedNumber.year) else { continue }
                statistics.perYear.append((year, row["books"]))
            }
            // Totals count every book read at least once: on the Read shelf (dated or not), or with a finished read
            // kept from before (a book being read again). Counting the Read shelf alone said "0 books read" beside
            // "1 year with a finished book" (issue 35).
            let totals = try Row.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) AS books,
                        SUM(user_book.shelf = 'read' AND user_book.finished_at IS NULL) AS undated
                    FROM user_book JOIN book ON book.id = user_book.book_id AND book.kind = 'book'
                    WHERE user_book.user_id = ? AND (user_book.shelf = 'read' OR EXISTS (
                        SELECT 1 FROM read_through WHERE read_through.user_book_id = user_book.id
                            AND read_through.finished_at IS NOT NULL))
                    """, arguments: [userID])
            statistics.booksRead = totals?["books"] ?? 0
            if countingPages {
                statistics.pages = try PagesRead.of(userID, db)
                statistics.pagesRead = statistics.pages.allTime
            }
            statistics.readWithoutDate = (totals?["undated"] as Int?) ?? 0
            return statistics
        }
    }
}
