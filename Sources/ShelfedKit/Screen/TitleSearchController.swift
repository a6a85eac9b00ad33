import Foundation
import GRDB
import Hummingbird

/// Finding a film or show and adding it with its details (issue 37): the search page with a kind filter, and the
/// add buttons under each result. A provider that cannot answer within the page's wait gives a friendly message and
/// the way to add the title by hand; a refused TMDB token gives TVmaze's and Wikidata's answers and tells the admin.
struct TitleSearchController: Sendable {
    let titles: TitleSearchService
    let library: LibraryStore
    let books: LibraryService
    let users: UserStore
    let renderer: PageRenderer
    let pageWait: Duration
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.titleSearch.routerPath, use: index)
        router.post(Route.titleAdd.routerPath, use: add)
        router.get(Route.about.routerPath, use: about)
    }

    /// GET /titles/search?q=&kind=movie|show
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let text = (query["q"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let kind = query["kind"].flatMap(TitleKind.init(rawValue:)).flatMap { $0 == .book ? nil : $0 }
        var page = TitleSearchPage(context: context, query: text, kind: kind)
        page.chrome.toast = try await ActionNotice.toast(
            for: request, context: context, library: library, today: clock.today())
        guard !text.isEmpty else { return try renderer.render(page, template: "titles/search") }
        do {
            let answer = try await resultWithin(pageWait) { [titles, pageWait] in
                try await titles.search(text, kind: kind, within: pageWait)
            }
            let owned = try await library.screenShelves(
                of: context.userID, providerKeys: answer.results.compactMap(\.providerKey))
            page.results = answer.results.map { TitleResultView($0, inLibrary: $0.providerKey.flatMap { owned[$0] }) }
            page.credits = TitleSearchPage.credits(for: answer.source)
            if answer.tokenRefused {
                page.notice =
                    localized("The household's TMDB token was refused, so these come from TVmaze and Wikidata.") + " "
                    + (try await users.isAdmin(context.userID)
                        ? localized("Check the token in Settings → TMDB.")
                        : localized("Ask whoever runs Shelfed to check it."))
                page.tokenPath = try await users.isAdmin(context.userID) ? Paths.householdTMDB : nil
            }
            return try renderer.render(page, template: "titles/search")
        } catch let failure as UpstreamFailure {
            page.failure = Self.message(for: failure)
            return try renderer.render(page, template: "titles/search", status: failure.pageStatus)
        }
    }

    /// POST /titles/add (`source`, `id`, `kind`, `shelf`): adds the title with its details and poster.
    @Sendable func add(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let form = try await request.formFields()
        guard let source = form["source"].flatMap(ScreenSource.init(rawValue:)),
            let kind = form["kind"].flatMap(TitleKind.init(rawValue:)), kind != .book,
            let id = form.trimmed("id"), (1...20).contains(id.utf8.count)
        else {
            throw HTTPError(.badRequest, message: localized("Choose a film or show from the search results to add."))
        }
        guard let shelf = form["shelf"].flatMap(Shelf.init(rawValue:)) else {
            throw HTTPError(
                .badRequest, message: localized("Choose Want to watch, Watching, Watched or Stopped watching."))
        }
        do {
            let bookID = try await books.addScreenTitle(
                source: source, id: id, kind: kind, to: shelf, for: context.userID, titles: titles)
            return .seeOther(ActionNotice.added(bookID, to: shelf, returnTo: nil))
        } catch let duplicate as AlreadyInLibrary {
            return .seeOther(Paths.book(duplicate.bookID))
        } catch let failure as UpstreamFailure {
            throw HTTPError(failure.pageStatus, message: Self.message(for: failure))
        }
    }

    /// GET /about: where the data comes from, with the notices the providers ask for.
    @Sendable func about(_ request: Request, context: SignedInContext) async throws -> HTML {
        try renderer.render(
            AboutPage(chrome: PageChrome(title: localized("About Shelfed"), context: context)), template: "about")
    }

    /// What a person reads when the film and show providers fail.
    static func message(for failure: UpstreamFailure) -> String {
        switch failure {
        case .notFound:
            localized("The provider does not know this title any more. Search again, or add it by hand.")
        case .rateLimited:
            localized("The film and TV providers ask us to slow down.") + " "
                + localized("Try again in a minute, or add the title by hand.")
        case .refused:
            localized("The film and TV providers refused the search. Try again later, or add the title by hand.")
        case .unreachable, .circuitOpen:
            localized(
                "The film and TV providers cannot be reached from this server right now — {{question}}",
                ["question": localized("is its internet connection down?")]) + " "
                + localized("Your own library still answers, and a title can be added by hand.")
        case .timeout:
            localized("The film and TV providers are slow to answer.") + " "
                + localized("Try again in a moment (the answer may be ready by then), or add the title by hand.")
        default:
            localized("The film and TV providers are not answering right now.") + " "
                + localized("Try again in a minute, or add the title by hand.")
        }
    }
}

extension LibraryStore {
    /// The person's entries for these provider titles, by provider key.
    func screenShelves(of userID: Int64, providerKeys: [String]) async throws -> [String: (bookID: Int64, shelf: Shelf)]
    {
        guard !providerKeys.isEmpty else { return [:] }
        return try await db.read { db in
            var found: [String: (bookID: Int64, shelf: Shelf)] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT book.id, book.provider_key, user_book.shelf
                    FROM user_book JOIN book ON book.id = user_book.book_id
                    WHERE user_book.user_id = ? AND book.provider_key IN (SELECT value FROM json_each(?))
                    """, arguments: [userID, CatalogWriter.jsonArray(providerKeys)])
            for row in rows {
                found[row[1]] = (bookID: row[0], shelf: Shelf(rawValue: row[2]) ?? .wantToRead)
            }
            return found
        }
    }
}
