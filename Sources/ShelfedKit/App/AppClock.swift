import Foundation

/// The time source and the household's time zone; tests fix both.
public struct AppClock: Sendable {
    public let now: @Sendable () -> Date
    public let timeZone: TimeZone

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        self.timeZone = timeZone
    }

    /// Today's calendar date in the household's zone, as `yyyy-mm-dd`.
    public func today() -> String {
        Self.dateString(now(), in: timeZone)
    }

    static func dateString(_ date: Date, in timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
