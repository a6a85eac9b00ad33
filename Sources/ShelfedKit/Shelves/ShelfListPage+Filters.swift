/// The filter panel of the shelf pages: the active filters, each removable, and a form to change them (plain GET
/// parameters, so a filtered list is a link that can be kept or shared between one's own devices).
extension ShelfListPage {
    static func filterPanel(listPath: String, sort: LibrarySort, filters: LibraryFilters) -> HTMLFragment {
        let sortQuery = ["sort": sort.key.rawValue, "order": sort.order.rawValue]
        var html: HTMLFragment = ""
        let active = filters.descriptions
        if !active.isEmpty {
            html += "<p class=\"active-filters\"><span>\(localized("Filtered by"))</span> "
            for (label, keys) in active {
                var remaining = filters.query
                for key in keys { remaining[key] = nil }
                let link = Pagination.link(listPath, query: sortQuery.merging(remaining) { $1 }, page: 1)
                let remove = localized("Remove the filter {{filter}}", ["filter": label])
                html += """
                    <a class="chip" href="\(link)" aria-label="\(remove)">\(label) \
                    <span aria-hidden="true">✕</span></a>\u{20}
                    """
            }
            let clear = Pagination.link(listPath, query: sortQuery, page: 1)
            html += "<a class=\"chip\" href=\"\(clear)\">\(localized("Clear all"))</a></p>\n"
        }
        if !filters.leftOut.isEmpty {
            let notice = localized(
                "Not used, because the link gave a value this list cannot take: {{values}}. Choose again under “Filter this list”.",
                ["values": filters.leftOut.joined(separator: ", ")])
            html += "<p class=\"notice filters-left-out\" role=\"status\">\(notice)</p>\n"
        }
        let years = (filters.yearFrom.map(String.init) ?? "", filters.yearTo.map(String.init) ?? "")
        html += """
            <details class="filters"><summary>\(localized("Filter this list"))</summary>
            <form method="get" action="\(listPath)" class="filter-form">\(hiddenInputs(sortQuery))
            <div class="field-row"><div class="field"><label for="filter-author">\(localized("Author"))</label>\
            <input id="filter-author" name="author" maxlength="200" value="\(filters.author ?? "")"></div>\
            <div class="field"><label for="filter-category">\(localized("Genre"))</label>\
            <input id="filter-category" name="category" maxlength="200" value="\(filters.category ?? "")"></div></div>
            <div class="field-row"><div class="field"><label for="filter-year-from">\(localized("Published from"))\
            </label><input id="filter-year-from" name="year_from" inputmode="numeric" maxlength="4" placeholder="1990" \
            value="\(years.0)"></div><div class="field"><label for="filter-year-to">\(localized("Published up to"))\
            </label><input id="filter-year-to" name="year_to" inputmode="numeric" maxlength="4" placeholder="2024" \
            value="\(years.1)"></div></div>
            <div class="field-row"><div class="field"><label for="filter-language">\(localized("Language"))</label>\
            <input id="filter-language" name="language" maxlength="20" placeholder="en" \
            value="\(filters.language ?? "")"></div><div class="field"><label for="filter-format">\
            \(localized("Format"))</label><input id="filter-format" name="format" maxlength="200" \
            placeholder="\(localized("paperback"))" value="\(filters.format ?? "")"></div></div>
            <div class="field-row"><div class="field"><label for="filter-owned">\(localized("Owned"))</label>\
            <select id="filter-owned" name="owned">\(option("", localized("Any"), selected: filters.owned == nil))\
            \(option("1", localized("Owned"), selected: filters.owned == true))\
            \(option("0", localized("Not owned"), selected: filters.owned == false))</select></div>\
            <div class="field"><label for="filter-rating">\(localized("Rated at least"))</label>\
            <select id="filter-rating" name="rating">\
            \(option("", localized("Any rating"), selected: filters.minRating == nil))
            """
        // A quarter-star bound from a link (`rating=3.75`) is offered too, so applying the form keeps it.
        if let rating = filters.query["rating"], let minRating = filters.minRating, minRating != minRating.rounded() {
            html += option(rating, BookPage.starsLabel(minRating), selected: true)
        }
        for stars in 1...5 {
            html += option(
                String(stars), localized(one: "{{count}} star", other: "{{count}} stars", count: stars),
                selected: filters.minRating == Double(stars))
        }
        html += """
            </select></div></div>
            <div class="field-row"><div class="field"><label for="filter-kind">\(localized("Kind"))</label>\
            <select id="filter-kind" name="kind">\(kindOptions(filters.kind))</select></div>\
            <div class="field"><label for="filter-together">\(localized("Watched"))</label>\
            <select id="filter-together" name="together">\
            \(option("", localized("With anyone"), selected: filters.together == nil))\
            \(option("1", localized("Together"), selected: filters.together == true))\
            \(option("0", localized("Only me"), selected: filters.together == false))</select></div></div>
            <div class="field checkbox-field"><input type="checkbox" id="filter-favourite" name="favourite" value="1"\
            \(filters.favourite ? " checked" : "" as HTMLFragment)> <label for="filter-favourite">\
            \(localized("Favourites only"))</label></div>
            <button type="submit" class="button primary">\(localized("Apply filters"))</button></form></details>\n
            """
        return html
    }

    private static func kindOptions(_ chosen: TitleKind?) -> HTMLFragment {
        var html = option("", localized("Books, films and shows"), selected: chosen == nil)
        for kind in TitleKind.allCases { html += option(kind.rawValue, kindName(kind), selected: kind == chosen) }
        return html
    }

    /// Hidden inputs carrying `query` through a GET form, keys in a stable order.
    static func hiddenInputs(_ query: [String: String]) -> HTMLFragment {
        var html: HTMLFragment = ""
        for (key, value) in query.sorted(by: { $0.key < $1.key }) {
            html += "<input type=\"hidden\" name=\"\(key)\" value=\"\(value)\">"
        }
        return html
    }
}
