import Hummingbird

/// The home feed: what the user is reading now, then what they added and finished lately.
struct HomeController: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer
    let clock: AppClock
    static let recentCount = 6

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.home.routerPath, use: index)
    }

    /// GET /
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let userID = context.userID
        async let reading = library.items(
            of: userID, filter: .shelf(.reading), sort: LibrarySort(key: .added), page: 1)
        async let added = library.items(
            of: userID, filter: .all, sort: LibrarySort(key: .added), page: 1, pageSize: Self.recentCount)
        async let finished = library.items(
            of: userID, filter: .shelf(.read), sort: LibrarySort(key: .finished), page: 1, pageSize: Self.recentCount)
        let (readingItems, addedItems, finishedItems) = try await (reading.items, added.items, finished.items)
        func cards(_ items: [LibraryItem]) -> HTMLFragment {
            BookCardList.html(items, csrfToken: context.csrfToken, returnTo: Paths.home)
        }
        var chrome = PageChrome(title: "Home", context: context, tab: .feed)
        chrome.toast = try await ActionNotice.toast(
            query: FormFields(urlEncoded: request.uri.query ?? ""), path: Paths.home, userID: userID, library: library,
            csrfToken: context.csrfToken, today: clock.today())
        let page = HomePage(
            chrome: chrome,
            hasBooks: !addedItems.isEmpty,
            readingCards: readingItems.isEmpty ? nil : cards(readingItems),
            recentlyAddedCards: addedItems.isEmpty ? nil : cards(addedItems),
            recentlyFinishedCards: finishedItems.isEmpty ? nil : cards(finishedItems))
        return try renderer.render(page, template: "library/home")
    }
}

/// `library/home`: each section's cards as ready HTML, nil when the section is empty.
struct HomePage: Sendable {
    let chrome: PageChrome
    let hasBooks: Bool
    let readingCards: HTMLFragment?
    let recentlyAddedCards: HTMLFragment?
    let recentlyFinishedCards: HTMLFragment?
}
