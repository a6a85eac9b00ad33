import Foundation
import Hummingbird

/// Search from anywhere (issue 36): the field in the header of every signed-in page asks one question of the
/// person's library (by words and by meaning), their quotes, and Google Books / Open Library, and answers in groups,
/// each with a way to all of its results. A title typed exactly comes first ("En llamas" before "Laberinto en
/// llamas"); each group shows its best few, not fifty weak ones.
struct FindController: Sendable {
    let textSearch: TextSearchController
    let search: BookSearchService
    let titles: TitleSearchService
    let library: LibraryStore
    let history: SearchHistory
    let renderer: PageRenderer
    let pageWait: Duration
    let clock: AppClock

    static let libraryShown = 5
    static let quotesShown = 3
    static let booksShown = 5
    static let titlesShown = 4

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.find.routerPath, use: index)
    }

    /// GET /find?q=
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = TextSearchController.query(request)
        var page = FindPage(context: context, query: query)
        guard !query.isEmpty else { return try renderer.render(page, template: "search/find") }
        let userID = context.userID
        if TextSearchStore.ftsQuery(query) != nil {
            let (books, rankedBy) = try await textSearch.libraryMatches(of: userID, query)
            let ordered = Self.exactTitlesFirst(books, query: query)
            page.library = ordered.prefix(Self.libraryShown).map { match in
                FindPage.Line(
                    path: Paths.book(match.bookID), title: match.title,
                    detail: [match.authors, match.shelf.title].filter { !$0.isEmpty }.joined(separator: " · "),
                    thumbURL: BookCover.url(for: match.coverPath))
            }
            page.libraryMore =
                books.count > Self.libraryShown
                ? localized("All {{count}} in your library", ["count": String(books.count)]) : nil
            page.rankedBy = books.isEmpty ? nil : rankedBy
            let (quotes, _) = try await textSearch.quoteMatches(of: userID, query)
            page.quotes = quotes.prefix(Self.quotesShown).map { match in
                FindPage.Line(
                    path: Paths.photo(match.photo.id!), title: match.bookTitle,
                    detail: match.photo.pageNumber.map { localized("Page {{number}}", ["number": String($0)]) }
                        ?? "",
                    thumbURL: Paths.photoFile(match.photo.id!, .thumb),
                    passage: TextSearchStore.highlighted(match.snippet).html)
            }
            page.quotesMore =
                quotes.count > Self.quotesShown
                ? localized("All {{count}} quotes", ["count": String(quotes.count)]) : nil
        }
        try await history.record(query, userID: userID, now: clock.now())
        // Films and shows are asked for at the same time as books: both wait at most `pageWait`, not one after the other.
        async let screen = Self.outcome { [titles, pageWait] in
            try await resultWithin(pageWait) { try await titles.search(query, kind: nil, within: pageWait) }
        }
        do {
            let answer = try await resultWithin(pageWait) { [search] in
                try await search.search(SearchRequest(text: query))
            }
            // Google ranks "Laberinto en llamas" above "En llamas" for "en llamas": the title typed comes first.
            let items = Array(
                Self.exactTitlesFirst(answer.results.items, query: query, title: \.title).prefix(Self.booksShown))
            let owned = try await library.shelves(
                of: userID, volumeIDs: items.compactMap(\.volumeId), isbn13s: items.compactMap(\.isbn13))
            page.results = items.map { SearchResultView($0, inLibrary: SearchController.match($0, in: owned)) }
            page.resultsMore = answer.results.totalItems > items.count ? localized("More from Google Books") : nil
        } catch let failure as UpstreamFailure {
            page.booksFailure = failure.userMessage
        }
        switch await screen {
        case .success(let answer):
            let shown = Array(
                Self.exactTitlesFirst(answer.results, query: query, title: \.title).prefix(Self.titlesShown))
            let owned = try await library.screenShelves(of: userID, providerKeys: shown.compactMap(\.providerKey))
            page.titles = shown.map { TitleResultView($0, inLibrary: $0.providerKey.flatMap { owned[$0] }) }
            // The full list has the kind filter (films only, shows only), so it is offered even when all are shown.
            page.titlesMore =
                answer.results.count > shown.count
                ? localized("All {{count}} films and TV shows", ["count": String(answer.results.count)])
                : shown.isEmpty ? nil : localized("Only films, or only TV shows")
        case .failure(let failure as UpstreamFailure):
            page.titlesFailure = TitleSearchController.message(for: failure)
        case .failure(let error):
            throw error
        }
        return try renderer.render(page, template: "search/find")
    }

    private static func outcome<Value: Sendable>(_ work: @Sendable () async throws -> Value) async -> Result<
        Value, any Error
    > {
        do { return .success(try await work()) } catch { return .failure(error) }
    }

    /// Titles equal to the query (ignoring case, accents and the spaces around it) first, the rest in their ranked
    /// order: the person's library and Google Books' answers alike.
    static func exactTitlesFirst<Match>(_ matches: [Match], query: String, title: (Match) -> String) -> [Match] {
        func folded(_ text: String) -> String {
            text.trimmingCharacters(in: .whitespacesAndNewlines)
                .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
        let wanted = folded(query)
        let isExact = matches.map { folded(title($0)) == wanted }
        return zip(matches, isExact).filter { $0.1 }.map(\.0) + zip(matches, isExact).filter { !$0.1 }.map(\.0)
    }

    static func exactTitlesFirst(_ matches: [TextSearchStore.LibraryMatch], query: String)
        -> [TextSearchStore.LibraryMatch]
    {
        exactTitlesFirst(matches, query: query, title: \.title)
    }
}

/// `search/find`: the groups of one search from the header.
struct FindPage: Sendable {
    struct Line: Sendable {
        let path: String
        let title: String
        let detail: String
        let thumbURL: String
        var passage: String? = nil
    }

    var chrome: PageChrome
    let query: String
    let hasQuery: Bool
    var library: [Line] = [] {
        didSet { updateNothingAnywhere() }
    }
    var libraryMore: String?
    let libraryPath: String
    var quotes: [Line] = [] {
        didSet { updateNothingAnywhere() }
    }
    var quotesMore: String?
    let quotesPath: String
    var results: [SearchResultView] = [] {
        didSet { updateNothingAnywhere() }
    }
    var resultsMore: String?
    let searchPath: String
    var booksFailure: String? {
        didSet { updateNothingAnywhere() }
    }
    var rankedBy: String?
    /// Films and TV shows to add, from TMDB or TVmaze and Wikidata.
    var titles: [TitleResultView] = [] {
        didSet { updateNothingAnywhere() }
    }
    var titlesMore: String?
    var titlesFailure: String? {
        didSet { updateNothingAnywhere() }
    }
    let titlesPath: String

    init(context: some PageContext, query: String) {
        chrome = PageChrome(
            title: query.isEmpty ? localized("Search") : localized("Search: {{query}}", ["query": query]),
            context: context, tab: .shelves)
        chrome.searchQuery = query
        self.query = query
        hasQuery = !query.isEmpty
        let q = Paths.queryEscape(query)
        libraryPath = Paths.librarySearch + "?q=" + q
        quotesPath = Paths.quotes + "?q=" + q
        searchPath = Paths.search + "?q=" + q
        titlesPath = Paths.titleSearch + "?q=" + q
        updateNothingAnywhere()
    }

    /// Stored, kept by the four lists: Mustache reads a value's stored properties only (a computed one rendered as
    /// false, so a search that found nothing said nothing).
    private(set) var nothingAnywhere = false

    private mutating func updateNothingAnywhere() {
        // A provider that did not answer is not "nothing found": its own message says what to do.
        nothingAnywhere =
            hasQuery && library.isEmpty && quotes.isEmpty && results.isEmpty && titles.isEmpty
            && booksFailure == nil && titlesFailure == nil
    }
}
