import Hummingbird

/// The series pages: `/series` lists the series of the person's library, `/series?name=…` one series in order with
/// the person's shelf for each book and a way to add the ones they don't have.
struct SeriesController: Sendable {
    let series: SeriesStore
    let renderer: PageRenderer

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.series.routerPath, use: show)
    }

    /// GET /series[?name=]
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        // As a form sends it too ("The+Expanse").
        guard let name = FormFields(urlEncoded: request.uri.query ?? "").trimmed("name") else {
            let summaries = try await series.summaries(for: context.userID)
            return try renderer.render(
                SeriesIndexPage(context: context, summaries: summaries), template: "library/series")
        }
        guard let found = try await series.series(named: name, for: context.userID) else {
            throw AppError.notFound(
                localized("None of your books is in a series of that name. Your series are listed under Series."))
        }
        return try renderer.render(
            SeriesPage(context: context, name: found.name, members: found.members), template: "library/series")
    }
}

/// `library/series` without a name: the series of the person's library.
struct SeriesIndexPage: Sendable {
    struct Item: Sendable {
        let name: String
        let path: String
        let coverURL: String
        let counts: String
    }

    let chrome: PageChrome
    let isIndex = true
    let series: [Item]

    init(context: some PageContext, summaries: [SeriesStore.Summary]) {
        chrome = PageChrome(title: localized("Series"), context: context, tab: .shelves)
        series = summaries.map { summary in
            Item(
                name: summary.name, path: Paths.series(summary.name), coverURL: BookCover.url(for: summary.coverPath),
                counts: localized(
                    "{{inLibrary}} in your library · {{read}} read",
                    ["inLibrary": summary.inLibrary.grouped, "read": summary.read.grouped]))
        }
    }
}

/// `library/series` for one series: its books in order, each with the person's shelf or an Add button.
struct SeriesPage: Sendable {
    struct Item: Sendable {
        let number: String?
        let title: String
        let authors: String?
        let coverURL: String
        let hasCover: Bool
        let path: String?
        let shelfTitle: String?
        let addVolumeID: String?
        let addISBN: String?
    }

    let chrome: PageChrome
    let isIndex = false
    let name: String
    let summary: String
    let books: [Item]
    let addPath = Paths.searchAdd
    let returnTo: String

    init(context: some PageContext, name: String, members: [SeriesStore.Member]) {
        chrome = PageChrome(title: name, context: context, tab: .shelves)
        self.name = name
        let read = members.filter { $0.shelf == .read }.count
        let mine = members.filter { $0.shelf != nil }.count
        summary = localized(
            one: "{{count}} book · {{mine}} in your library · {{read}} read",
            other: "{{count}} books · {{mine}} in your library · {{read}} read", count: members.count,
            ["mine": mine.grouped, "read": read.grouped])
        returnTo = Paths.series(name)
        books = members.map { member in
            let book = member.book
            let link = CatalogLink(book, inLibrary: member.shelf != nil)
            return Item(
                number: book.seriesPosition.map(SeriesPlace.spelled), title: book.title,
                authors: book.authors.isEmpty ? nil : book.authors.joined(separator: ", "),
                coverURL: BookCover.url(for: book.coverPath), hasCover: book.coverPath != nil, path: link.path,
                shelfTitle: member.shelf?.title, addVolumeID: link.addVolumeID, addISBN: link.addISBN)
        }
    }
}
