import Hummingbird

/// `/genres`: the categories of the person's library with how many books each has and a few covers, each opening
/// the shelves filtered to it.
struct GenresController: Sendable {
    let library: LibraryStore
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.genres.routerPath, use: index)
    }

    /// GET /genres
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let genres = try await library.genres(of: context.userID)
        return try renderer.render(
            GenresPage(chrome: PageChrome(title: localized("Genres"), context: context, tab: .shelves), genres: genres),
            template: "library/genres")
    }
}

/// `library/genres`
struct GenresPage: Sendable {
    struct Genre: Sendable {
        let name: String
        let countLabel: String
        let path: String
        let covers: [String]
    }

    let chrome: PageChrome
    let genres: [Genre]

    init(chrome: PageChrome, genres: [LibraryStore.Genre]) {
        self.chrome = chrome
        self.genres = genres.map { genre in
            Genre(
                name: genre.name,
                countLabel: localized(one: "{{count}} book", other: "{{count}} books", count: genre.count),
                path: Pagination.link(Paths.shelves, query: ["category": genre.name], page: 1),
                covers: genre.coverPaths.isEmpty ? [BookCover.placeholder] : genre.coverPaths.map(BookCover.url(for:)))
        }
    }
}
