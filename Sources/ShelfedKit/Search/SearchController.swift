import Foundation
import Hummingbird
import Logging

public typealias HTTPStatusCode = HTTPResponse.Status

/// The search page, a result's detail page, and adding a result to a shelf.
struct SearchController: Sendable {
    let search: BookSearchService
    let library: LibraryStore
    let books: LibraryService
    let textSearch: TextSearchStore
    let meaning: MeaningSearch
    let history: SearchHistory
    let renderer: PageRenderer
    /// How long the page waits for the providers (`SearchSettings.pageWait`).
    let pageWait: Duration
    let clock: AppClock

    func addRoutes(to router: RouterGroup<SignedInContext>) {
        router.get(Route.search.routerPath, use: index)
        router.get(Route.searchVolume.routerPath, use: show)
        router.post(Route.searchAdd.routerPath, use: add)
    }

    /// GET /search?q=&field=all|title|author&start=
    @Sendable func index(_ request: Request, context: SignedInContext) async throws -> HTML {
        let userID = context.userID
        // Parsed as a form so the `+` browsers send for spaces reads as a space.
        let query = FormFields(urlEncoded: request.uri.query ?? "")
        let searchRequest = SearchRequest(
            text: query["q"] ?? "",
            field: query["field"].flatMap(SearchRequest.Field.init(rawValue:)) ?? .all,
            startIndex: query["start"].flatMap { BoundedNumber.parse($0, in: BoundedNumber.searchStart) } ?? 0)
        // Adding a result comes back here saying so ("Added Dune to Read. Finished today, or when?").
        let toast = try await ActionNotice.toast(
            for: request, context: context, library: library, today: clock.today())
        guard !searchRequest.text.isEmpty else {
            var page = SearchPage(context: context, request: searchRequest, results: [], total: 0, failure: nil)
            page.chrome.toast = toast
            return try renderer.render(page, template: "search/index")
        }
        if searchRequest.startIndex == 0 {
            try await history.record(searchRequest.text, userID: userID, now: clock.now())
        }
        do {
            let answer = try await resultWithin(pageWait) { [search] in try await search.search(searchRequest) }
            let items = answer.results.items
            let owned = try await library.shelves(
                of: userID, volumeIDs: items.compactMap(\.volumeId), isbn13s: items.compactMap(\.isbn13))
            let views = items.map { SearchResultView($0, inLibrary: Self.match($0, in: owned)) }
            var page = SearchPage(
                context: context, request: searchRequest, results: views, total: answer.results.totalItems, failure: nil
            )
            if views.isEmpty, searchRequest.startIndex == 0 {
                page.meaningMatches = try await meaningMatches(for: searchRequest.text, userID: userID)
            }
            page.chrome.toast = toast
            return try renderer.render(page, template: "search/index")
        } catch let failure as UpstreamFailure {
            let fromLibrary = try await textSearch.library(of: userID, matching: searchRequest.text).map {
                SearchPage.LibraryMatchView(
                    title: $0.title,
                    detail: [$0.authors, $0.shelf.title].filter { !$0.isEmpty }.joined(separator: " · "),
                    path: Paths.book($0.bookID))
            }
            var page = SearchPage(
                context: context, request: searchRequest, results: [], total: 0, failure: failure.userMessage,
                fromLibrary: fromLibrary)
            // Books already listed under "In your library" are not offered twice.
            let listed = Set(fromLibrary.map(\.path))
            page.meaningMatches = try await meaningMatches(for: searchRequest.text, userID: userID).filter {
                $0.bookPath.map { !listed.contains($0) } ?? true
            }
            page.chrome.toast = toast
            return try renderer.render(page, template: "search/index", status: failure.pageStatus)
        }
    }

    /// GET /search/volumes/:volumeId
    @Sendable func show(_ request: Request, context: SignedInContext) async throws -> HTML {
        let userID = context.userID
        let volumeID = context.parameters.get("volumeId") ?? ""
        guard SearchRequest.isVolumeID(volumeID) else {
            throw HTTPError(.notFound, message: localized("There is no such book in Google Books. Search again."))
        }
        do {
            let volume = try await search.volume(id: volumeID)
            let owned = try await library.shelves(
                of: userID, volumeIDs: [volumeID], isbn13s: volume.isbn13.map { [$0] } ?? [])
            let page = VolumePage(context: context, volume: volume, inLibrary: Self.match(volume, in: owned))
            return try renderer.render(page, template: "search/volume")
        } catch let failure as UpstreamFailure {
            throw HTTPError(failure.pageStatus, message: failure.userMessage)
        }
    }

    /// POST /search/add (`volume_id` or `isbn`, and `shelf`): adds the book with its metadata and cover.
    @Sendable func add(_ request: Request, context: SignedInContext) async throws -> Response {
        var request = request
        let userID = context.userID
        let form = try await request.decodeForm(AddFromSearchForm.self)
        guard let shelf = form.shelf else {
            throw HTTPError(.badRequest, message: localized("Choose Want to read, Reading, Read or Did not finish."))
        }
        if let volumeID = form.volumeID, !SearchRequest.isVolumeID(volumeID) {
            throw HTTPError(.badRequest, message: localized("Choose a book from the search results to add."))
        }
        let isbn = form.isbn.flatMap(ISBN.init)
        guard form.volumeID != nil || isbn != nil else {
            throw HTTPError(.badRequest, message: localized("Choose a book from the search results to add."))
        }
        do {
            let bookID = try await books.addFromProvider(
                volumeID: form.volumeID, isbn: isbn, to: shelf, for: userID, finishedUnknown: true)
            return .seeOther(ActionNotice.added(bookID, to: shelf, returnTo: form.returnTo))
        } catch let duplicate as AlreadyInLibrary {
            return .seeOther(form.returnTo ?? Paths.book(duplicate.bookID))
        } catch let failure as UpstreamFailure {
            throw HTTPError(failure.pageStatus, message: failure.userMessage)
        }
    }

    static func match(_ volume: VolumeResult, in owned: [String: (bookID: Int64, shelf: Shelf)])
        -> (bookID: Int64, shelf: Shelf)?
    {
        volume.volumeId.flatMap { owned["volume:" + $0] } ?? volume.isbn13.flatMap { owned["isbn:" + $0] }
    }
}

extension NewBook {
    /// The catalog entry for a provider's result.
    init(_ volume: VolumeResult) {
        self.init(title: volume.title)
        subtitle = volume.subtitle
        authors = volume.authors
        isbn = (volume.isbn13 ?? volume.isbn10).flatMap(ISBN.init)
        googleVolumeId = volume.volumeId
        pageCount = BoundedNumber.plausible(volume.pageCount, in: BoundedNumber.pageCount)
        publishedDate = volume.publishedDate.flatMap { CalendarDate.isValidPublishedDate($0) ? $0 : nil }
        publisher = volume.publisher
        description = volume.description
        categories = volume.categories
        language = volume.language
        source = volume.provider == .googleBooks ? .google : .openlibrary
        community =
            volume.provider == .googleBooks
            ? CommunityRating(average: volume.averageRating, count: volume.ratingsCount, source: "Google Books") : nil
    }
}
