import Foundation
import GRDB

/// Pages read per week and per month (`PagesRead`, the one definition), and the streak of days in a row with a
/// journal update. From the journal, pages read are forward progress only: a book's place at the end of a day (its
/// last entry that day) less its place at the end of the day before it was updated. So a typo put right the same day
/// ("90", then "9", then "20") counts 20, not 101; a page typed lower on a later day, or a chapter read again, counts
/// nothing. An entry in percent counts as pages when the book has a page count.
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

    init(_ pagesRead: PagesRead, today: String) {
        self.init(pagesByDay: pagesRead.byDay, days: pagesRead.updateDays, today: today)
    }

    init(pagesByDay pages: [Int: Int], days: Set<Int>, today: String) {
        hasEntries = !days.isEmpty
        guard let todayNumber = Self.dayNumber(today) else { return }
        // Day 0, 1970-01-01, was a Thursday: Monday is 0 in this count.
        let monday = todayNumber - (todayNumber + 3) % 7
        weeks = (0..<Self.weeksShown).reversed().map { back in
            let start = monday - 7 * back
            return Period(start: Self.day(start), pages: (start..<start + 7).reduce(0) { $0 + (pages[$1] ?? 0) })
        }
        pagesThisWeek = weeks.last?.pages ?? 0
        var monthTotals: [Int: Int] = [:]
        for (day, count) in pages {
            let (year, month, _) = Self.civil(day)
            monthTotals[year * 12 + month - 1, default: 0] += count
        }
        let (year, month, _) = Self.civil(todayNumber)
        months = (0..<Self.monthsShown).reversed().map { back in
            let index = year * 12 + month - 1 - back
            return Period(
                start: String(format: "%04d-%02d", index / 12, index % 12 + 1), pages: monthTotals[index] ?? 0)
        }
        pagesThisMonth = months.last?.pages ?? 0
        // Today without an update yet does not break a streak that ran to yesterday.
        var cursor = days.contains(todayNumber) ? todayNumber : todayNumber - 1
        while days.contains(cursor) { cursor -= 1 }
        streak = max(0, (days.contains(todayNumber) ? todayNumber : todayNumber - 1) - cursor)
    }

    /// Days since 1970-01-01 of a `yyyy-mm-dd` date, by arithmetic (the civil-calendar formula): a journal of
    /// thousands of days is summed without a Calendar call per day.
    static func dayNumber(_ day: String) -> Int? {
        guard let (civilYear, month, dayOfMonth) = CalendarDate.parseDay(day) else { return nil }
        let year = civilYear - (month <= 2 ? 1 : 0)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + dayOfMonth - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of a day number.
    static func civil(_ number: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = number + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPart = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPart + 2) / 5 + 1
        let month = monthPart < 10 ? monthPart + 3 : monthPart - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// `yyyy-mm-dd` of a day number.
    static func day(_ number: Int) -> String {
        let (year, month, day) = civil(number)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}

extension StatisticsStore {
    /// Pages read per week and month, and the streak, from `userID`'s journal.
    func journal(of userID: Int64, today: String) async throws -> JournalStatistics {
        try await db.read { db in
            JournalStatistics(try PagesRead.of(userID, db), today: today)
        }
    }
}
