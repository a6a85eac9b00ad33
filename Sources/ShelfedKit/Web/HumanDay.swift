import Foundation

/// A day as people say it in a feed (issue 36): "today", "yesterday", "3 Nov", and "3 Nov 2025" in another year.
/// Days are the household's calendar dates (`yyyy-mm-dd`); anything else is shown as it is. Other languages write the
/// day and month as their own calendars do ("3 nov", "3. Nov."), from Foundation's locale data.
enum HumanDay {
    static func text(_ day: String, today: String) -> String {
        guard let number = JournalStatistics.dayNumber(day), let todayNumber = JournalStatistics.dayNumber(today)
        else { return day }
        if number == todayNumber { return localized("today") }
        if number == todayNumber - 1 { return localized("yesterday") }
        let (year, month, dayOfMonth) = JournalStatistics.civil(number)
        let thisYear = year == JournalStatistics.civil(todayNumber).year
        let language = Language.current
        guard language == .en else {
            return localText(year: year, month: month, day: dayOfMonth, withYear: !thisYear, in: language) ?? day
        }
        let shown = "\(dayOfMonth) \(englishMonths[month - 1])"
        return thisYear ? shown : "\(shown) \(year)"
    }

    /// English's month abbreviations, as the feed has always written them.
    private static let englishMonths = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The day and abbreviated month (and the year, when asked) as `language` writes them.
    private static func localText(year: Int, month: Int, day: Int, withYear: Bool, in language: Language) -> String? {
        guard let utc = TimeZone(secondsFromGMT: 0), (1...12).contains(month) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        var style = Date.FormatStyle.dateTime.day().month(.abbreviated)
        if withYear { style = style.year() }
        style.locale = language.locale
        style.calendar = calendar
        style.timeZone = utc
        return date.formatted(style)
    }
}
