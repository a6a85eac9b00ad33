import Foundation

/// How a shelf page shows its books (issue 36): big cards with their buttons, a dense list (small cover, title,
/// author, rating, a date; fifteen and more rows on a phone screen) or a grid of covers. Chosen with `?view=` and
/// remembered in a cookie, so the choice holds on every shelf and page of the person's browser; paging, sorting
/// and filters work the same in each.
enum ShelfView: String, CaseIterable, Sendable {
    case cards, list, grid

    static let cookie = "shelfed_view"
    /// A year: a choice of layout is kept like a setting.
    static let cookieAge = 365 * 86_400

    var label: String {
        switch self {
        case .cards: localized("Cards")
        case .list: localized("List")
        case .grid: localized("Covers")
        }
    }

    /// The view `?view=` asks for (and whether it asked), else the remembered one, else cards.
    static func chosen(query: String?, cookie: String?) -> (view: ShelfView, asked: Bool) {
        if let asked = query.flatMap(ShelfView.init(rawValue:)) { return (asked, true) }
        return (cookie.flatMap(ShelfView.init(rawValue:)) ?? .cards, false)
    }

    /// The switch between views: links to this page as the list understands it, in each view.
    static func switcher(current: ShelfView, link: (ShelfView) -> String) -> HTMLFragment {
        var html: HTMLFragment = "<nav class=\"view-switch\" aria-label=\"\(localized("Show as"))\">"
        for view in allCases {
            html += """
                <a class="chip" href="\(link(view))"\(view == current ? " aria-current=\"true\"" : "" as HTMLFragment)>\
                \(view.label)</a>
                """
        }
        html += "</nav>\n"
        return html
    }

    /// The dense list: one row a book, each a link to its page.
    static func listHTML(_ items: [LibraryItem]) -> HTMLFragment {
        var html: HTMLFragment = "<ol class=\"book-rows\">"
        html.reserveCapacity(40 + items.count * 420)
        // Looked up once for the whole list, not once a row.
        let stars = Stars.Label()
        for item in items {
            let title = HTMLFragment(escaping: item.title)
            html += """
                <li class="book-row" id="book-\(item.bookID)"><img src="\(BookCover.url(for: item.coverPath))" alt="" \
                width="32" height="48" loading="lazy"><span class="row-text"><a class="row-title" \
                href="\(Paths.book(item.bookID))">\(title)</a>
                """
            if !item.authors.isEmpty { html += "<span class=\"row-authors\">\(item.authors)</span>" }
            html += "</span><span class=\"row-meta\">"
            if let rating = item.rating { html += Stars.html(rating, label: stars) }
            if let day = item.finishedAt ?? item.stoppedAt ?? item.startedAt {
                html += "<span class=\"row-day\">\(day)</span>"
            }
            html += "</span></li>\n"
        }
        html += "</ol>\n"
        return html
    }

    /// The grid of covers: three a row on a phone, a typographic tile for a book without one.
    static func gridHTML(_ items: [LibraryItem]) -> HTMLFragment {
        var html: HTMLFragment = "<ul class=\"cover-grid\">"
        html.reserveCapacity(40 + items.count * 360)
        for item in items {
            let title = HTMLFragment(escaping: item.title)
            html += "<li id=\"book-\(item.bookID)\"><a href=\"\(Paths.book(item.bookID))\">"
            if item.coverPath != nil {
                html += """
                    <img src="\(BookCover.url(for: item.coverPath))" alt="" width="120" height="180" loading="lazy">\
                    <span class="grid-title">\(title)</span>
                    """
            } else {
                // The tile shows the title; the link's name is said once, not shown twice.
                html += """
                    <span class="cover-tile" aria-hidden="true"><span>\(title)</span></span>\
                    <span class="visually-hidden">\(title)</span>
                    """
            }
            html += "</a></li>\n"
        }
        html += "</ul>\n"
        return html
    }
}
