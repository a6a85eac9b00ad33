import Mustache

/// `library/list`: a sorted, paginated list of books (a shelf, all shelves, or favourites).
struct ShelfListPage: Sendable {
    struct Tab: Sendable {
        let title: String
        let path: String
        let count: Int
        let current: Bool
    }

    struct Option: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    let chrome: PageChrome
    let heading: String
    let tabs: [Tab]
    /// The page's cards as ready HTML (empty when the list is).
    let cards: HTMLFragment
    let hasCards: Bool
    let emptyMessage: String
    let isFavourites: Bool
    let listPath: String
    let sortOptions: [Option]
    let orderOptions: [Option]
    let pagination: Pagination

    init(
        chrome: PageChrome, heading: String, tabs: [Tab], page: LibraryStore.Page, pageNumber: Int,
        sort: LibrarySort, listPath: String, returnTo: String, emptyMessage: String, isFavourites: Bool = false
    ) {
        let query = ["sort": sort.key.rawValue, "order": sort.order.rawValue]
        self.chrome = chrome
        self.heading = heading
        self.tabs = tabs
        self.cards = BookCardList.html(page.items, csrfToken: chrome.csrfToken, returnTo: returnTo)
        self.hasCards = !page.items.isEmpty
        self.emptyMessage = emptyMessage
        self.isFavourites = isFavourites
        self.listPath = listPath
        self.sortOptions = LibrarySort.Key.allCases.map {
            Option(value: $0.rawValue, label: $0.label, selected: $0 == sort.key)
        }
        self.orderOptions = [
            Option(value: "asc", label: "Ascending", selected: sort.order == .asc),
            Option(value: "desc", label: "Descending", selected: sort.order == .desc),
        ]
        self.pagination = Pagination(
            path: listPath, query: query, current: pageNumber, total: page.total, pageSize: LibraryStore.pageSize)
    }
}

extension ShelfListPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "heading": heading
        case "tabs": tabs
        case "cards": cards
        case "hasCards": hasCards
        case "emptyMessage": emptyMessage
        case "isFavourites": isFavourites
        case "listPath": listPath
        case "sortOptions": sortOptions
        case "orderOptions": orderOptions
        case "pagination": pagination
        default: nil
        }
    }
}

extension ShelfListPage.Tab: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "path": path
        case "count": count
        case "current": current
        default: nil
        }
    }
}

extension ShelfListPage.Option: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "value": value
        case "label": label
        case "selected": selected
        default: nil
        }
    }
}
