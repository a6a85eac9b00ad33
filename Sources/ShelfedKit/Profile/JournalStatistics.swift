import Foundation
import GRDB

/// What the reading journal adds up to: pages read per week and per month, and the streak of days in a row with an
/// update. Pages read are forward progress only — each entry's page less the one before it in the same book (a
/// page typed lower, re-reading a chapter, counts nothing); an entry in percent counts as pages when the book has a
/// page count.
struct JournalStatistics: Sendable, Equatable {
    struct Period: Sendable, Equatable {
        /// The week's Monday, or the month as `yyyy-mm`.
        let start: String
        let pages: Int
    }

    var pagesThisWeek = 0
    var pagesThisMonth = 0
    /// The last eight weeks, oldest first.
    var weeks: [Period] = []
    /// The last six months, oldest first.
    var months: [Period] = []
    /// Days in a row, up to today (or up to yesterday, while today may still bring one), with an update.
    var streak = 0
    var hasEntries = false

    static let weeksShown = 8
    static let monthsShown = 6

    /// Pages read on each day, from `userID`'s whole journal.
    static func pagesByDay(of userID: Int64, _ db: Database) throws -> (pages: [String: Int], days: Set<String>) {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT journal_entry.user_book_id, journal_entry.read_on, journal_entry.page, journal_entry.percent,
                    book.page_count
                FROM journal_entry JOIN user_book ON user_book.id = journal_entry.user_book_id
                JOIN book ON book.id = user_book.book_id
                WHERE user_book.user_id = ?
                ORDER BY journal_entry.user_book_id, journal_entry.read_on, journal_entry.id
                """, arguments: [userID])
        var pages: [String: Int] = [:]
        var days = Set<String>()
        var book: Int64 = -1
        var previous = 0
        while let row = try rows.next() {
            let entryBook: Int64 = row[0]
            if entryBook != book { (book, previous) = (entryBook, 0) }
            let day: String = row[1]
            days.insert(day)
            let pageCount = (row[4] as Int?).flatMap { BoundedNumber.pageCount.contains($0) ? $0 : nil }
            let page: Int? =
                (row[2] as Int?)
                ?? (row[3] as Double?).flatMap { percent in
                    pageCount.map { Int((percent / 100 * Double($0)).rounded()) }
                }
            guard let page else { continue }
            pages[day, default: 0] += max(0, page - previous)
            previous = page
        }
        return (pages, days)
    }

    init() {}

    init(pagesByDay pages: [String: Int], days: Set<String>, today: String) {
        hasEntries = !days.isEmpty
        guard let todayDate = Self.date(today) else { return }
        let calendar = Self.calendar
        let weekday = calendar.component(.weekday, from: todayDate)  // 1 = Sunday
        let monday = calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: todayDate)!
        weeks = (0..<Self.weeksShown).reversed().map { back in
            let start = calendar.date(byAdding: .day, value: -7 * back, to: monday)!
            let total = (0..<7).reduce(0) { sum, offset in
                sum + (pages[Self.day(calendar.date(byAdding: .day, value: offset, to: start)!)] ?? 0)
            }
            return Period(start: Self.day(start), pages: total)
        }
        pagesThisWeek = weeks.last?.pages ?? 0
        var monthTotals: [String: Int] = [:]
        for (day, count) in pages { monthTotals[String(day.prefix(7)), default: 0] += count }
        months = (0..<Self.monthsShown).reversed().map { back in
            let month = Self.day(calendar.date(byAdding: .month, value: -back, to: todayDate)!).prefix(7)
            return Period(start: String(month), pages: monthTotals[String(month)] ?? 0)
        }
        pagesThisMonth = months.last?.pages ?? 0
        // Today without an update yet does not break a streak that ran to yesterday.
        var cursor = days.contains(today) ? todayDate : calendar.date(byAdding: .day, value: -1, to: todayDate)!
        var count = 0
        while days.contains(Self.day(cursor)), count < 100_000 {
            count += 1
            cursor = calendar.date(byAdding: .day, value: -1, to: cursor)!
        }
        streak = count
    }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func date(_ day: String) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    static func day(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

extension StatisticsStore {
    /// Pages read per week and month, and the streak, from `userID`'s journal.
    func journal(of userID: Int64, today: String) async throws -> JournalStatistics {
        try await db.read { db in
            let (pages, days) = try JournalStatistics.pagesByDay(of: userID, db)
            return JournalStatistics(pagesByDay: pages, days: days, today: today)
        }
    }
}
