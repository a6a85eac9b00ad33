import Foundation
import Mustache

/// One result as the search page and the detail page show it.
struct SearchResultView: Sendable {
    let title: String
    let subtitle: String?
    let authors: String?
    let year: String?
    let pageCount: Int?
    let thumbnailURL: String
    var detailPath: String?
    let volumeId: String?
    let isbn: String?
    let inLibraryShelf: String?
    let bookPath: String?
    let addButtons: [AddButton]

    struct AddButton: Sendable {
        let shelf: String
        let label: String
    }

    init(_ result: VolumeResult, inLibrary: (bookID: Int64, shelf: Shelf)?) {
        title = result.title
        subtitle = result.subtitle
        authors = result.authors.isEmpty ? nil : result.authors.joined(separator: ", ")
        year = result.year
        pageCount = result.pageCount
        thumbnailURL = result.thumbnailURL ?? BookCover.placeholder
        detailPath = result.volumeId.map(Paths.searchVolume)
        volumeId = result.volumeId
        isbn = result.volumeId == nil ? result.isbn13 : nil
        inLibraryShelf = inLibrary?.shelf.title
        bookPath = inLibrary.map { Paths.book($0.bookID) }
        addButtons = inLibrary == nil ? Shelf.allCases.map { AddButton(shelf: $0.rawValue, label: $0.title) } : []
    }
}

/// `search/index`: the search box, results or a friendly failure, and the way to add by hand.
struct SearchPage: Sendable {
    struct FieldOption: Sendable {
        let value: String
        let label: String
        let selected: Bool
    }

    var chrome: PageChrome
    let query: String
    let fields: [FieldOption]
    let hasQuery: Bool
    let results: [SearchResultView]
    let summary: String?
    let morePath: String?
    let failure: String?
    /// While the providers cannot answer: the person's own books that match, so the search still finds something.
    let fromLibrary: [LibraryMatchView]
    /// When Google Books finds nothing or cannot answer: books this server knows that match the meaning.
    var meaningMatches: [SearchResultView] = []
    let retryPath: String
    let librarySearchPath: String
    let manualAddPath: String

    struct LibraryMatchView: Sendable {
        let title: String
        let detail: String
        let path: String
    }

    init(
        context: some PageContext, request: SearchRequest, results: [SearchResultView], total: Int,
        failure: String?, fromLibrary: [LibraryMatchView] = []
    ) {
        chrome = PageChrome(
            title: request.text.isEmpty
                ? localized("Find a book") : localized("Search: {{query}}", ["query": request.text]),
            context: context, tab: .shelves)
        query = request.text
        let labels: [SearchRequest.Field: String] = [
            .all: localized("Everything"), .title: localized("Title"), .author: localized("Author"),
        ]
        fields = SearchRequest.Field.allCases.map {
            FieldOption(value: $0.rawValue, label: labels[$0]!, selected: $0 == request.field)
        }
        hasQuery = !request.text.isEmpty
        self.results = results
        self.failure = failure
        let shown = request.startIndex + results.count
        summary =
            hasQuery && failure == nil
            ? (results.isEmpty
                ? nil
                : localized(
                    "Results {{first}}–{{last}}", ["first": String(request.startIndex + 1), "last": String(shown)]))
            : nil
        morePath =
            results.count == GoogleBooksClient.pageSize && shown < total
            ? Paths.search(request.text, field: request.field, start: shown) : nil
        manualAddPath = Paths.newBook(prefilledFrom: request)
        self.fromLibrary = fromLibrary
        retryPath = Paths.search(request.text, field: request.field, start: request.startIndex)
        librarySearchPath = Paths.librarySearch + "?q=" + Paths.queryEscape(request.text)
    }
}

/// `search/volume`: one result in full before adding it.
struct VolumePage: Sendable {
    let chrome: PageChrome
    let result: SearchResultView
    let publisher: String?
    let publishedDate: String?
    let isbn13: String?
    let isbn10: String?
    let categories: String?
    let language: String?
    let coverURL: String
    let descriptionParagraphs: [String]

    init(context: some PageContext, volume: VolumeResult, inLibrary: (bookID: Int64, shelf: Shelf)?) {
        chrome = PageChrome(title: volume.title, context: context, tab: .shelves)
        result = SearchResultView(volume, inLibrary: inLibrary)
        publisher = volume.publisher
        publishedDate = volume.publishedDate
        isbn13 = volume.isbn13
        isbn10 = volume.isbn10
        categories = volume.categories.isEmpty ? nil : volume.categories.joined(separator: " · ")
        language = volume.language
        coverURL = volume.coverURL ?? BookCover.placeholder
        descriptionParagraphs = (volume.description ?? "").split(separator: "\n").map(String.init)
    }
}

extension UpstreamFailure {
    /// What the user reads when a provider could not answer, with the way forward.
    var userMessage: String {
        switch self {
        case .rateLimited(_, dailyQuota: true):
            localized("Google Books' daily limit for this server is used up; it resets tomorrow.") + " "
                + localized("Until then, add the book by hand.") + " "
                + localized(
                    "(Giving Shelfed its own Google API key in SHELFED_GOOGLE_BOOKS_API_KEY avoids the shared limit.)")
        case .rateLimited(let retryAfter?, _):
            localized(
                one: "Google Books asks us to slow down — try again in {{count}} second, or add the book by hand.",
                other: "Google Books asks us to slow down — try again in {{count}} seconds, or add the book by hand.",
                count: retryAfter)
        case .rateLimited:
            localized("Google Books is busy right now — try again in a minute, or add the book by hand.")
        case .refused:
            localized("Google Books refused the search (it may need an API key from this network).") + " "
                + localized("Add the book by hand for now.")
        case .notFound:
            localized("Google Books does not know this book any more. Search again, or add it by hand.")
        case .unreachable, .circuitOpen:
            localized("Google Books cannot be reached from this server right now — is its internet connection down?")
                + " " + localized("Your own books still answer, and a new one can be added by hand.")
        case .timeout:
            localized("Google Books is slow to answer.") + " "
                + localized("Try again in a moment (the answer may be ready by then), or add the book by hand.")
        default:
            localized("Google Books is not answering right now — try again in a minute, or add the book by hand.")
        }
    }

    /// The status of the page that carries `userMessage`.
    var pageStatus: HTTPStatusCode {
        switch self {
        case .rateLimited: .tooManyRequests
        case .notFound: .notFound
        case .refused: .badGateway
        default: .serviceUnavailable
        }
    }
}

// Result lists are looked up field by field; answering directly spares Mustache a Mirror per lookup.
extension SearchResultView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "subtitle": subtitle
        case "authors": authors
        case "year": year
        case "pageCount": pageCount
        case "thumbnailURL": thumbnailURL
        case "detailPath": detailPath
        case "volumeId": volumeId
        case "isbn": isbn
        case "inLibraryShelf": inLibraryShelf
        case "bookPath": bookPath
        case "addButtons": addButtons
        default: nil
        }
    }
}

extension SearchResultView.AddButton: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "shelf": shelf
        case "label": label
        default: nil
        }
    }
}

extension SearchPage: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "chrome": chrome
        case "query": query
        case "fields": fields
        case "hasQuery": hasQuery
        case "results": results
        case "summary": summary
        case "morePath": morePath
        case "failure": failure
        case "fromLibrary": fromLibrary
        case "hasFromLibrary": !fromLibrary.isEmpty
        case "meaningMatches": meaningMatches
        case "hasMeaningMatches": !meaningMatches.isEmpty
        case "retryPath": retryPath
        case "librarySearchPath": librarySearchPath
        case "manualAddPath": manualAddPath
        default: nil
        }
    }
}
