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
    let books: [BookCard]
    let emptyMessage: String
    let isFavourites: Bool
    let listPath: String
    let sortOptions: [Option]
    let orderOptions: [Option]
    let pagination: Pagination

    init(
        chrome: PageChrome, heading: String, tabs: [Tab], page: LibraryStore.Page, pageNumber: Int,
        sort: LibrarySort, listPath: String, emptyMessage: String, isFavourites: Bool = false
    ) {
        let query = ["sort": sort.key.rawValue, "order": sort.order.rawValue]
        let returnTo = Pagination.link(listPath, query: query, page: pageNumber)
        self.chrome = chrome
        self.heading = heading
        self.tabs = tabs
        self.books = page.entries.map { BookCard($0, returnTo: returnTo) }
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
