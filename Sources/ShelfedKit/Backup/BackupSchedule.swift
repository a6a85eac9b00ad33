import Foundation

/// When the server backs itself up and which backups it keeps (issue 26): `SHELFED_BACKUP_EVERY`,
/// `SHELFED_BACKUP_KEEP` and `SHELFED_BACKUP_DIR`.
public struct BackupSchedule: Sendable, Equatable {
    public enum Every: Sendable, Equatable {
        case off
        /// Once a day at this local time.
        case daily(hour: Int, minute: Int)
        /// Every so many seconds from start-up (for a busy house, or a test).
        case interval(seconds: Int)
    }

    public enum Keep: Sendable, Equatable {
        /// The newest backup of each of the last `days` days that have one, and of each of the last `weeks` weeks.
        case dailyAndWeekly(days: Int, weeks: Int)
        /// The newest `count` backups.
        case newest(Int)
    }

    /// Daily at half past three, when nobody in a household is reading.
    public var every = Every.daily(hour: 3, minute: 30)
    public var keep = Keep.dailyAndWeekly(days: 7, weeks: 4)
    /// nil: `<data>/backups`.
    public var folder: URL?

    public init() {}

    /// `off`, `daily`, `daily@HH:MM`, or an interval such as `6h`, `30m` or `90s`.
    static func parseEvery(_ text: String) -> Every? {
        let text = text.lowercased()
        if text == "off" { return .off }
        if text == "daily" { return .daily(hour: 3, minute: 30) }
        if text.hasPrefix("daily@") {
            let parts = text.dropFirst(6).split(separator: ":")
            guard parts.count == 2, let hour = BoundedNumber.parse(parts[0], in: 0...23),
                let minute = BoundedNumber.parse(parts[1], in: 0...59)
            else { return nil }
            return .daily(hour: hour, minute: minute)
        }
        guard let unit = text.last, let number = BoundedNumber.parse(text.dropLast(), in: 1...100_000) else {
            return nil
        }
        switch unit {
        case "s": return .interval(seconds: number)
        case "m": return .interval(seconds: number * 60)
        case "h": return .interval(seconds: number * 3_600)
        default: return nil
        }
    }

    /// `7+4` (days and weeks) or `5` (the newest five).
    static func parseKeep(_ text: String) -> Keep? {
        let parts = text.split(separator: "+")
        if parts.count == 2, let days = BoundedNumber.parse(parts[0], in: 0...365),
            let weeks = BoundedNumber.parse(parts[1], in: 0...520), days + weeks > 0
        {
            return .dailyAndWeekly(days: days, weeks: weeks)
        }
        if parts.count == 1, let count = BoundedNumber.parse(parts[0], in: 1...1_000) { return .newest(count) }
        return nil
    }

    /// The first run after `date`; nil when backups are off.
    func nextRun(after date: Date, calendar: Calendar) -> Date? {
        switch every {
        case .off: return nil
        case .interval(let seconds): return date.addingTimeInterval(TimeInterval(seconds))
        case .daily(let hour, let minute):
            return calendar.nextDate(
                after: date, matching: DateComponents(hour: hour, minute: minute, second: 0),
                matchingPolicy: .nextTime)
        }
    }

    /// Which of `backups` (any order) to keep under the rule; the rest may be removed. Days and weeks are the
    /// household's, in `calendar`.
    func kept(_ backups: [(name: String, date: Date)], calendar: Calendar) -> Set<String> {
        let newestFirst = backups.sorted { $0.date != $1.date ? $0.date > $1.date : $0.name > $1.name }
        switch keep {
        case .newest(let count):
            return Set(newestFirst.prefix(count).map(\.name))
        case .dailyAndWeekly(let days, let weeks):
            var kept = Set<String>()
            var daysSeen = Set<DateComponents>()
            var weeksSeen = Set<DateComponents>()
            for backup in newestFirst {
                let day = calendar.dateComponents([.year, .month, .day], from: backup.date)
                if !daysSeen.contains(day), daysSeen.count < days {
                    daysSeen.insert(day)
                    kept.insert(backup.name)
                }
                let week = calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: backup.date)
                if !weeksSeen.contains(week), weeksSeen.count < weeks {
                    weeksSeen.insert(week)
                    kept.insert(backup.name)
                }
            }
            return kept
        }
    }

    /// `20261125-031500`, in UTC so names sort in the order they were taken whatever the zone.
    static func fileStamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02d-%02d%02d%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0, parts.second ?? 0)
    }
}
