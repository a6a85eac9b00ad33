/// A day as people say it in a feed (issue 36): "today", "yesterday", "3 Nov", and "3 Nov 2025" in another year.
/// Days are the household's calendar dates (`yyyy-mm-dd`); anything else is shown as it is.
enum HumanDay {
    static func text(_ day: String, today: String) -> String {
        guard let number = JournalStatistics.dayNumber(day), let todayNumber = JournalStatistics.dayNumber(today)
        else { return day }
        if number == todayNumber { return "today" }
        if number == todayNumber - 1 { return "yesterday" }
        let (year, month, dayOfMonth) = JournalStatistics.civil(number)
        let shown = "\(dayOfMonth) \(ReadingChart.monthNames[month - 1].prefix(3))"
        return year == JournalStatistics.civil(todayNumber).year ? shown : "\(shown) \(year)"
    }
}
