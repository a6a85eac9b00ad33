import Foundation

/// Inline SVG charts drawn on the server: no script, no chart library, and a `<title>`/`<desc>` for screen
/// readers (each chart also has a table beside it).
enum ReadingChart {
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]

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
        var svg: HTMLFragment = """
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="months-title months-desc" \
            xmlns="http://www.w3.org/2000/svg"><title id="months-title">Books and pages per month, \(statistics.year)</title>\
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
                "<text class=\"label\" x=\"\(format(x + slot / 2))\" y=\"\(format(height - 8))\" text-anchor=\"middle\">\(String(monthNames[index].prefix(3)))</text>"
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
        var svg: HTMLFragment = """
            <svg class="chart chart-small" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" aria-labelledby="years-title" \
            xmlns="http://www.w3.org/2000/svg"><title id="years-title">Books finished per year: \
            \(perYear.map { "\($0.year): \($0.books)" }.joined(separator: ", "))</title>
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
        guard !busy.isEmpty else { return "No books finished in \(statistics.year)." }
        return busy.map {
            "\(monthNames[$0.offset]): \($0.element.books) book\($0.element.books == 1 ? "" : "s"), \($0.element.pages) pages"
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
            pace = "Goal reached — \(finished) of \(goal) books."
        } else if difference > 0 {
            pace = "\(difference) book\(difference == 1 ? "" : "s") ahead of pace."
        } else if difference < 0 {
            pace =
                "\(-difference) book\(difference == -1 ? "" : "s") behind pace — \(expected) by today keeps you on track."
        } else {
            pace = "Right on pace."
        }
    }
}
