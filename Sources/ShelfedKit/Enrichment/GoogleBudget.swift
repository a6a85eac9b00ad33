import Foundation
import GRDB

/// How many Google Books calls enrichment may make per day (`SHELFED_GOOGLE_DAILY_BUDGET`, default 800 of
/// Google's default 1,000, leaving the rest for searches people type). Counted in the database, so a restart
/// does not hand out a second allowance.
struct GoogleBudget: Sendable {
    let db: AppDatabase
    let dailyCalls: Int

    /// Google's daily quotas start again at midnight Pacific time.
    static let quotaTimeZone = TimeZone(identifier: "America/Los_Angeles")!

    private static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = quotaTimeZone
        return calendar
    }

    /// The quota day `date` falls in, as `yyyy-mm-dd`.
    static func day(of date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// When the next quota day starts.
    static func nextDay(after date: Date) -> Date {
        let calendar = calendar
        let start = calendar.startOfDay(for: date)
        return calendar.date(byAdding: .day, value: 1, to: start) ?? date.addingTimeInterval(24 * 60 * 60)
    }

    /// Takes one call from today's allowance; false when it is used up.
    func take(at date: Date) async throws -> Bool {
        guard dailyCalls > 0 else { return false }
        let day = Self.day(of: date)
        let limit = dailyCalls
        return try await db.write { db in
            try db.execute(
                sql: """
                    INSERT INTO google_budget (day, calls) VALUES (?, 1)
                    ON CONFLICT(day) DO UPDATE SET calls = calls + 1 WHERE calls < ?
                    """, arguments: [day, limit])
            let taken = db.changesCount > 0
            try db.execute(
                sql: "DELETE FROM google_budget WHERE day < ?",
                arguments: [Self.day(of: date.addingTimeInterval(-7 * 86_400))])
            return taken
        }
    }

    /// Calls made on the day `date` falls in.
    func used(at date: Date) async throws -> Int {
        let day = Self.day(of: date)
        return try await db.read { db in
            try Int.fetchOne(db, sql: "SELECT calls FROM google_budget WHERE day = ?", arguments: [day]) ?? 0
        }
    }
}
