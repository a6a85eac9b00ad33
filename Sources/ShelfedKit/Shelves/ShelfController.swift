import Hummingbird

/// The shelf lists (`/shelves`, `/shelves/:shelf`) and the favourites tab.
struct ShelfController: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.shelves.routerPath, use: index)
        router.get(Route.shelf.routerPath, use: show)
        router.get(Route.favourites.routerPath, use: favourites)
    }

    /// GET /shelves: every book in the library.
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> Response {
        try await list(.all, request: request, context: context)
    }

    /// GET /shelves/:shelf
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> Response {
        guard let shelf = context.parameters.get("shelf").flatMap(Shelf.init(slug:)) else {
            throw HTTPError(
                .notFound,
                message: localized(
                    "There is no such shelf. Your shelves are Want to read, Reading, Read and Did not finish."))
        }
        return try await list(.shelf(shelf), request: request, context: context)
    }

    /// GET /favourites
    @Sendable func favourites(_ request: Request, context: SignedInContext) async throws -> Response {
        try await list(.favourites, request: request, context: context)
    }

    private func list(_ filter: LibraryStore.Filter, request: Request, context: SignedInContext) async throws
        -> Response
    {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let (view, asked) = ShelfView.chosen(
            query: query["view"], cookie: request.cookie(named: ShelfView.cookie).map(String.init))
        let sort = LibrarySort(query: query["sort"], order: query["order"])
        let pageNumber = query["page"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.listPage) } ?? 1
        let filters = LibraryFilters(query: query)
        let (shelfCounts, books) = try await library.listing(
            of: context.userID, filter: filter, sort: sort, page: pageNumber, narrowedBy: filters)

        let heading: String
        let path: String
        let empty: String
        switch filter {
        case .all:
            (heading, path) = (localized("Shelves"), Paths.shelves)
            empty = localized("Your shelves are empty. Add a book by hand to get started.")
        case .shelf(let shelf):
            (heading, path) = (shelf.title, Paths.shelf(shelf))
            empty = localized("Nothing on {{shelf}} yet.", ["shelf": shelf.title])
        case .favourites:
            (heading, path) = (localized("Favourites"), Paths.favourites)
            empty = localized("No favourites yet. Tap the star on any book to keep it here.")
        }
        var tabs = [
            ShelfListPage.Tab(
                title: localized("All"), path: Paths.shelves, count: shelfCounts.total, current: filter == .all)
        ]
        tabs += Shelf.allCases.map {
            ShelfListPage.Tab(
                title: $0.title, path: Paths.shelf($0), count: shelfCounts[$0], current: filter == .shelf($0))
        }
        let isFavourites = filter == .favourites
        var chrome = PageChrome(title: heading, context: context, tab: isFavourites ? .favourites : .shelves)
        chrome.toast = try await ActionNotice.toast(
            query: FormFields(urlEncoded: request.uri.query ?? ""), path: request.uri.description,
            userID: context.userID, library: library, csrfToken: context.csrfToken, today: clock.today())
        let listPage = ShelfListPage(
            chrome: chrome, heading: heading, tabs: isFavourites ? [] : tabs, page: books, pageNumber: pageNumber,
            sort: sort, listPath: path,
            emptyMessage: filters.isEmpty ? empty : localized("No books here match these filters."),
            isFavourites: isFavourites,
            filters: filters, view: view)
        var response = try renderer.render(body: listPage.body, chrome: listPage.chrome, template: "library/list")
            .response
        if asked {
            // Remembered for every shelf and page of this browser, until another is chosen.
            response.setCookie(
                Cookie(
                    name: ShelfView.cookie, value: view.rawValue, maxAge: ShelfView.cookieAge, path: "/",
                    httpOnly: true, sameSite: .lax))
        }
        return response
    }
}
