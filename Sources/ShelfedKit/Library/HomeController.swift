import Hummingbird

/// The home feed: what the user is reading now, then what they added and finished lately.
struct HomeController: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer
    static let recentCount = 6

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get("/", use: index)
    }

    /// GET /
    @Sendable func index(_ request: Request, context: AppRequestContext) async throws -> HTML {
        let userID = try context.requireUser().id!
        async let reading = library.entries(
            of: userID, filter: .shelf(.reading), sort: LibrarySort(key: .added), page: 1)
        async let added = library.entries(of: userID, filter: .all, sort: LibrarySort(key: .added), page: 1, pageSize: Self.recentCount)
        async let finished = library.entries(
            of: userID, filter: .shelf(.read), sort: LibrarySort(key: .finished), page: 1, pageSize: Self.recentCount)
        let page = try await HomePage(
            chrome: PageChrome(title: "Home", context: context, tab: .feed),
            reading: reading.entries.map { BookCard($0, returnTo: Paths.home) },
            recentlyAdded: added.entries.map { BookCard($0, returnTo: Paths.home) },
            recentlyFinished: finished.entries.map { BookCard($0, returnTo: Paths.home) })
        return try renderer.render(page, template: "library/home")
    }
}

/// `library/home`
struct HomePage: Sendable {
    let chrome: PageChrome
    let reading: [BookCard]
    let recentlyAdded: [BookCard]
    let recentlyFinished: [BookCard]
}
