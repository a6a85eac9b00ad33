import Foundation

extension ReadingChart {
    /// Time watched per month as bars, each labelled with its hours; the description names the films and episodes.
    static func watching(_ statistics: WatchingStatistics) -> HTMLFragment {
        let (width, height, top, bottom) = (640.0, 200.0, 24.0, 28.0)
        let plot = height - top - bottom
        let slot = width / 12
        let most = max(1, statistics.months.map(\.minutes).max() ?? 0)
        let title = localized("Time watched per month, {{year}}", ["year": String(statistics.year)])
        let shortNames = shortMonthNames
        var svg: HTMLFragment = """
            <svg class="chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            aria-labelledby="watching-title watching-desc" xmlns="http://www.w3.org/2000/svg">\
            <title id="watching-title">\(title)</title>\
            <desc id="watching-desc">\(watchingDescription(statistics))</desc>
            """
        for (index, month) in statistics.months.enumerated() {
            let x = Double(index) * slot
            let barHeight = plot * Double(month.minutes) / Double(most)
            let barTop = top + plot - barHeight
            svg += """
                <rect class="bar" x="\(format(x + slot * 0.2))" y="\(format(barTop))" width="\(format(slot * 0.6))" \
                height="\(format(barHeight))" rx="3"></rect>
                """
            if month.minutes > 0 {
                svg += """
                    <text class="value" x="\(format(x + slot / 2))" y="\(format(barTop - 6))" \
                    text-anchor="middle">\(hoursLabel(month.minutes))</text>
                    """
            }
            svg += """
                <text class="label" x="\(format(x + slot / 2))" y="\(format(height - 8))" \
                text-anchor="middle">\(shortNames[index])</text>
                """
        }
        svg += "</svg>"
        return svg
    }

    /// "3 h", "45 min": a month's bar label.
    static func hoursLabel(_ minutes: Int) -> String {
        minutes < 60 ? "\(minutes) min" : "\(Int((Double(minutes) / 60).rounded())) h"
    }

    static func watchingDescription(_ statistics: WatchingStatistics) -> String {
        let busy = statistics.months.enumerated().filter { $0.element.films + $0.element.episodes > 0 }
        guard !busy.isEmpty else {
            return localized("Nothing watched in {{year}}.", ["year": String(statistics.year)])
        }
        let names = monthNames
        return busy.map { entry in
            let month = entry.element
            let films = localized(
                one: "{{films}} film", other: "{{films}} films", count: month.films, ["films": String(month.films)])
            let episodes = localized(
                one: "{{episodes}} episode", other: "{{episodes}} episodes", count: month.episodes,
                ["episodes": String(month.episodes)])
            let parts = [month.films == 0 ? nil : films, month.episodes == 0 ? nil : episodes].compactMap { $0 }
            return "\(names[entry.offset]): \(parts.joined(separator: ", ")), \(hoursLabel(month.minutes))"
        }
        .joined(separator: "; ") + "."
    }
}
