import Foundation

/// Inline SVG charts drawn on the server: no script, no chart library, and a `<title>`/`<desc>` for screen
/// readers (each chart also has a table beside it).
enum ReadingChart {
    /// The months' names in the request's language: English's own words, else Foundation's (CLDR's) for the
    /// language, looked up once per language.
    static var monthNames: [String] { monthNamesByLanguage[Language.current] ?? englishMonthNames }

    /// The months' short names for a chart's labels: English's first three letters ("Jan"), else the language's own
    /// abbreviations (French "juin" and "juil." would both be "jui" cut to three).
    static var shortMonthNames: [String] {
        shortMonthNamesByLanguage[Language.current] ?? englishMonthNames.map { String($0.prefix(3)) }
    }

    private static let englishMonthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]

    private static let monthNamesByLanguage = monthSymbols(\.standaloneMonthSymbols)
    private static let shortMonthNamesByLanguage = monthSymbols(\.shortStandaloneMonthSymbols)

    /// Each language but English with its calendar's month symbols at `keyPath`.
    private static func monthSymbols(_ keyPath: KeyPath<Calendar, [String]>) -> [Language: [String]] {
        var symbols: [Language: [String]] = [:]
        for language in Language.allCases where language != .en {
            var calendar = Calendar(identifier: .gregorian)
            calendar.locale = language.locale
            let names = calendar[keyPath: keyPath]
            if names.count == 12 { symbols[language] = names }
        }
        return symbols
    }

    /// Books finished per month as bars, pages per month as a line on its own scale.
    static func months(_ statistics: YearStatistics) -> HTMLFragment {
        let width = 640.0
        let height = 240.0
        let top = 24.0
        let bottom = 28.0
        let plot = height - top - bottom
        let slot = width / 12
        let maxBooks = max(1, statistics.months.map(\.books).max() ?? 0)
        let maxPages = max(1, statistics.months.map(\.pages).max() ?? 0)
        let title = localized("Books and pages per month, {{year}}", ["year": String(statistics.year)])
        let shortNames = shortMonthNames
        var svg: HTMLFragment = """
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="months-title months-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="months-title">\(title)</title>\
            <desc id="months-desc">\(description(statistics))</desc>
            """
        var points: [String] = []
        for (index, month) in statistics.months.enumerated() {
            let x = Double(index) * slot
            let barHeight = plot * Double(month.books) / Double(maxBooks)
            let barTop = top + plot - barHeight
            svg +=
                "<rect class=\"bar\" x=\"\(format(x + slot * 0.2))\" y=\"\(format(barTop))\" width=\"\(format(slot * 0.6))\" height=\"\(format(barHeight))\" rx=\"3\"></rect>"
            if month.books > 0 {
                svg +=
                    "<text class=\"value\" x=\"\(format(x + slot / 2))\" y=\"\(format(barTop - 6))\" text-anchor=\"middle\">\(month.books)</text>"
            }
            svg +=
                "<text class=\"label\" x=\"\(format(x + slot / 2))\" y=\"\(format(height - 8))\" text-anchor=\"middle\">\(shortNames[index])</text>"
            points.append(
                "\(format(x + slot / 2)),\(format(top + plot - plot * Double(month.pages) / Double(maxPages)))")
        }
        svg += "<polyline class=\"pages\" points=\"\(points.joined(separator: " "))\"></polyline>"
        for point in points {
            svg +=
                "<circle class=\"pages\" cx=\"\(point.split(separator: ",")[0])\" cy=\"\(point.split(separator: ",")[1])\" r=\"3.5\"></circle>"
        }
        svg += "</svg>"
        return svg
    }

    /// Books finished per year, as small bars.
    static func years(_ perYear: [(year: Int, books: Int)]) -> HTMLFragment {
        guard !perYear.isEmpty else { return HTMLFragment() }
        let slot = 56.0
        let width = max(slot * Double(perYear.count), 200)
        let height = 120.0
        let plot = 72.0
        let maxBooks = max(1, perYear.map(\.books).max() ?? 0)
        let title = localized(
            "Books finished per year: {{years}}",
            ["years": perYear.map { "\($0.year): \($0.books)" }.joined(separator: ", ")])
        var svg: HTMLFragment = """
            <svg class="chart chart-small" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="years-title" \
            xmlns="http://www.w3.org/2000/svg"><title id="years-title">\(title)</title>
            """
        for (index, entry) in perYear.enumerated() {
            let x = Double(index) * slot
            let barHeight = plot * Double(entry.books) / Double(maxBooks)
            svg +=
                "<rect class=\"bar\" x=\"\(format(x + 12))\" y=\"\(format(20 + plot - barHeight))\" width=\"32\" height=\"\(format(barHeight))\" rx=\"3\"></rect>"
            svg +=
                "<text class=\"value\" x=\"\(format(x + 28))\" y=\"\(format(14 + plot - barHeight))\" text-anchor=\"middle\">\(entry.books)</text>"
            svg +=
                "<text class=\"label\" x=\"\(format(x + 28))\" y=\"\(format(height - 8))\" text-anchor=\"middle\">\(entry.year)</text>"
        }
        svg += "</svg>"
        return svg
    }

    static func description(_ statistics: YearStatistics) -> String {
        let busy = statistics.months.enumerated().filter { $0.element.books > 0 }
        guard !busy.isEmpty else {
            return localized("No books finished in {{year}}.", ["year": String(statistics.year)])
        }
        let names = monthNames
        return busy.map {
            localized(
                one: "{{month}}: {{books}} book, {{pages}} pages", other: "{{month}}: {{books}} books, {{pages}} pages",
                count: $0.element.books,
                ["month": names[$0.offset], "books": String($0.element.books), "pages": String($0.element.pages)])
        }
        .joined(separator: "; ") + "."
    }

    static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

/// Progress towards the year's goal, and whether it is ahead of the pace for today.
struct GoalProgress: Sendable {
    let goal: Int
    let finished: Int
    let percent: Int
    let pace: String

    /// `dayOfYear` of `daysInYear` have passed (today included).
    init(goal: Int, finished: Int, dayOfYear: Int, daysInYear: Int) {
        self.goal = goal
        self.finished = finished
        percent = min(100, goal == 0 ? 0 : finished * 100 / goal)
        let expected = Int((Double(goal) * Double(dayOfYear) / Double(daysInYear)).rounded(.down))
        let difference = finished - expected
        if finished >= goal {
            pace = localized(
                "Goal reached — {{finished}} of {{goal}} books.", ["finished": String(finished), "goal": String(goal)])
        } else if difference > 0 {
            pace = localized(
                one: "{{books}} book ahead of pace.", other: "{{books}} books ahead of pace.", count: difference,
                ["books": String(difference)])
        } else if difference < 0 {
            pace = localized(
                one: "{{books}} book behind pace — {{expected}} by today keeps you on track.",
                other: "{{books}} books behind pace — {{expected}} by today keeps you on track.", count: -difference,
                ["books": String(-difference), "expected": String(expected)])
        } else {
            pace = localized("Right on pace.")
        }
    }
}
