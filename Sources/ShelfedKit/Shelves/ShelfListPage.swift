/// `library/list`: a sorted, paginated list of books (a shelf, all shelves, or favourites).
///
/// The shelf pages are the ones people open most, so their body is built in Swift through `HTMLFragment`
/// (every value escaped) and the layout around it comes from `LayoutCache`: looking up sixty cards, nine page
/// links and a dozen options through Mustache's reflection cost more than everything else on the page together.
struct ShelfListPage: Sendable {
    struct Tab: Sendable {
        let title: String
        let path: String
        let count: Int
        let current: Bool
    }

    let chrome: PageChrome
    let body: HTMLFragment

    init(
        chrome: PageChrome, heading: String, tabs: [Tab], page: LibraryStore.Page, pageNumber: Int,
        sort: LibrarySort, listPath: String, emptyMessage: String, isFavourites: Bool = false,
        filters: LibraryFilters = .init(), view: ShelfView = .cards
    ) {
        self.chrome = chrome
        let sortQuery = ["sort": sort.key.rawValue, "order": sort.order.rawValue]
        let listQuery = sortQuery.merging(filters.query) { $1 }
        let pagination = Pagination(
            path: listPath, query: listQuery, current: pageNumber, total: page.total, pageSize: LibraryStore.pageSize,
            nouns: Self.nouns(filters.kind, items: page.items))
        // Back to this page as the list understood it, not the address as typed: every card repeats it, so a
        // padded query string would be copied sixty times over (and the default sort is left out, for the same reason).
        let returnTo = Pagination.link(
            listPath, query: sort == LibrarySort() ? filters.query : listQuery, page: pageNumber)
        var body: HTMLFragment = """
            <div class="list-header"><h1>\(heading)</h1><span class="header-actions">\
            <a class="button" href="\(Paths.scan)">\(localized("Scan a barcode"))</a> \
            <a class="button primary" href="\(Paths.search)">\(localized("Find a book"))</a></span></div>
            <p class="muted search-links"><a href="\(Paths.librarySearch)">\(localized("Search my library"))</a> · \
            <a href="\(Paths.quotes)">\(localized("Search my quotes"))</a> · \
            <a href="\(Paths.lists)">\(localized("Lists"))</a> · \
            <a href="\(Paths.seriesIndex)">\(localized("Series"))</a> · \
            <a href="\(Paths.genres)">\(localized("Genres"))</a> · \
            <a href="\(Paths.house)">\(localized("The house library"))</a> · \
            <a href="\(Paths.newTitle(.movie))">\(localized("Add a film or TV show"))</a></p>\n
            """
        body.reserveCapacity(2_000 + page.items.count * 900)
        if !tabs.isEmpty {
            body += "<nav class=\"shelf-tabs\" aria-label=\"\(localized("Shelves"))\">"
            for tab in tabs {
                body += """
                    <a href="\(tab.path)"\(tab.current ? " aria-current=\"page\"" : "" as HTMLFragment)>\(tab.title) \
                    <span class="count">\(tab.count)</span></a>
                    """
            }
            body += "</nav>\n"
        }
        if isFavourites { body += Self.kindTabs(listPath: listPath, sortQuery: sortQuery, filters: filters) }
        body += ShelfView.switcher(current: view) { other in
            Pagination.link(listPath, query: listQuery.merging(["view": other.rawValue]) { $1 }, page: pageNumber)
        }
        body += Self.sortForm(listPath: listPath, sort: sort, keeping: filters)
        body += Self.filterPanel(listPath: listPath, sort: sort, filters: filters)
        if page.items.isEmpty, page.total > 0, let last = pagination.links.last {
            // A kept link to a page the list no longer reaches: say so rather than call the list empty.
            let number = String(last.number)
            body += """
                <section class="empty-state"><p>\(localized("This list ends on page {{page}}.", ["page": number]))</p>\
                <p><a class="button primary" href="\(last.path)">\(localized("Go to page {{page}}", ["page": number]))\
                </a></p></section>\n
                """
        } else if page.items.isEmpty {
            body += "<section class=\"empty-state\"><p>\(emptyMessage)</p>"
            if !isFavourites {
                let links = localized(
                    "<a class=\"button primary\" href=\"{{search}}\">Find a book</a> or <a href=\"{{new}}\">add one by hand</a>",
                    ["search": HTMLEscaper.escape(Paths.search), "new": HTMLEscaper.escape(Paths.newBook)])
                body += "<p>\(HTMLFragment(verbatim: links))</p>"
            }
            body += "</section>\n"
        } else {
            body += "<p class=\"list-summary\">\(pagination.summary)</p>\n"
            switch view {
            case .cards:
                body += BookCardList.html(page.items, csrfToken: chrome.csrfToken, returnTo: returnTo, anchors: true)
            case .list: body += ShelfView.listHTML(page.items)
            case .grid: body += ShelfView.gridHTML(page.items)
            }
        }
        body += pagination.html
        self.body = body
    }

    private static func sortForm(listPath: String, sort: LibrarySort, keeping filters: LibraryFilters) -> HTMLFragment {
        var form: HTMLFragment = """
            <form method="get" action="\(listPath)" class="sort-form" data-apply-on-change>\
            \(hiddenInputs(filters.query))<select id="sort" name="sort" aria-label="\(localized("Sort by"))">
            """
        // Running time means something only for films and shows: offered when the list is narrowed to them.
        let timed = filters.kind.map { $0 != .book } ?? false
        for key in LibrarySort.Key.allCases where key != .runtime || timed || sort.key == .runtime {
            form += option(key.rawValue, key.label, selected: key == sort.key)
        }
        form += "</select> <select id=\"order\" name=\"order\" aria-label=\"\(localized("Order"))\">"
        form += option("asc", localized("Ascending"), selected: sort.order == .asc)
        form += option("desc", localized("Descending"), selected: sort.order == .desc)
        form += "</select> <button type=\"submit\" class=\"button\">\(localized("Sort"))</button></form>\n"
        return form
    }

    /// What the summary calls the list's entries: its kind when narrowed to one, "titles" when this page mixes
    /// films or shows with books, else books.
    static func nouns(_ kind: TitleKind?, items: [LibraryItem]) -> Pagination.Nouns {
        switch kind {
        case .book: .books
        case .movie: .films
        case .show: .shows
        case nil: items.contains { $0.kind != .book } ? .titles : .books
        }
    }

    /// The favourites tab's "All · Books · Films · TV shows", keeping the sort and the other filters.
    private static func kindTabs(listPath: String, sortQuery: [String: String], filters: LibraryFilters)
        -> HTMLFragment
    {
        var html: HTMLFragment = "<nav class=\"shelf-tabs kind-tabs\" aria-label=\"\(localized("Kinds"))\">"
        for kind in [nil] + TitleKind.allCases.map(Optional.some) {
            var query = sortQuery.merging(filters.query) { $1 }
            query["kind"] = kind?.rawValue
            let current: HTMLFragment = kind == filters.kind ? " aria-current=\"page\"" : ""
            let name = kind.map(kindName) ?? localized("All")
            html += "<a href=\"\(Pagination.link(listPath, query: query, page: 1))\"\(current)>\(name)</a>"
        }
        html += "</nav>\n"
        return html
    }

    /// "Books", "Films", "TV shows": a kind as a tab or a filter names it.
    static func kindName(_ kind: TitleKind) -> String {
        switch kind {
        case .book: localized("Books")
        case .movie: localized("Films")
        case .show: localized("TV shows")
        }
    }

    static func option(_ value: String, _ label: String, selected: Bool) -> HTMLFragment {
        "<option value=\"\(value)\"\(selected ? " selected" : "" as HTMLFragment)>\(label)</option>"
    }
}
