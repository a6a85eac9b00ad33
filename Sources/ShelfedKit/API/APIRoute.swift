import Hummingbird

/// Every API route, with the methods it answers. Controllers register from `pattern`; `Resources/openapi.yaml`
/// describes exactly these paths and methods (a test compares the two), so the spec cannot drift from the code.
enum APIRoute: String, CaseIterable, Sendable {
    /// Whether a path belongs to the API (matched or not): answered in JSON, never given a cookie.
    static func isAPIPath(_ path: String) -> Bool {
        path.hasPrefix("/api/") || path.hasPrefix("/v1/")
    }

    /// Whether a path belongs to the BooksTrack contract, whose errors use its envelope.
    static func isBooksTrackPath(_ path: String) -> Bool {
        path.hasPrefix("/v1/") || path.hasPrefix("/api/v2/")
    }

    case sessions, shelves, shelf, books, book
    case bookPhotos, photo, photoFile, profile, scanBarcode, scanShelf, quotes
    case searchISBN, searchTitle, searchAuthor, enrich
    case searchSimilar, searchV2, bookSimilar, searchAdvanced, trendingSearches, recommendations
    case bookProgress, progressEntry, bookReadAgain, series, seriesBooks, profileYear
    case lists, list, listBooks, listBook, photoTouchUp, bookStop
    case householdMembers, householdFeed, householdSharing, householdLibrary, householdLoans, householdLoanReturned
    case householdRecommendations, householdRecommendation, householdChallenge
    case imports, batchEnrich, importStatus, importStream, importResults, jobCancel
    case titleSearch, titleShelves, titles, title, titleViewings, titleEpisodes
    case openAPI, docs

    /// The path as the router matches it; `:name` segments are parameters.
    var pattern: String {
        switch self {
        case .sessions: "/api/v1/sessions"
        case .shelves: "/api/v1/shelves"
        case .shelf: "/api/v1/shelves/:id"
        case .books: "/api/v1/books"
        case .book: "/api/v1/books/:id"
        case .bookPhotos: "/api/v1/books/:id/photos"
        case .photo: "/api/v1/photos/:photoID"
        case .photoFile: "/api/v1/photos/:photoID/:variant"
        case .profile: "/api/v1/profile"
        case .scanBarcode: "/api/v1/scans/barcode"
        case .scanShelf: "/api/v1/scans/shelf"
        case .quotes: "/api/v1/quotes"
        case .searchISBN: "/v1/search/isbn"
        case .searchTitle: "/v1/search/title"
        case .searchAuthor: "/v1/search/author"
        case .enrich: "/api/v2/books/enrich"
        case .searchSimilar: "/v1/search/similar"
        case .searchV2: "/api/v2/search"
        case .bookSimilar: "/api/v1/books/:id/similar"
        case .searchAdvanced: "/v1/search/advanced"
        case .trendingSearches: "/api/v2/trending-searches"
        case .recommendations: "/api/v1/recommendations"
        case .bookProgress: "/api/v1/books/:id/progress"
        case .progressEntry: "/api/v1/progress/:entryID"
        case .bookReadAgain: "/api/v1/books/:id/read-again"
        case .series: "/api/v1/series"
        case .seriesBooks: "/api/v1/series/books"
        case .profileYear: "/api/v1/profile/year/:year"
        case .lists: "/api/v1/lists"
        case .list: "/api/v1/lists/:listID"
        case .listBooks: "/api/v1/lists/:listID/books"
        case .listBook: "/api/v1/lists/:listID/books/:id"
        case .photoTouchUp: "/api/v1/photos/:photoID/touch-up"
        case .bookStop: "/api/v1/books/:id/did-not-finish"
        case .householdMembers: "/api/v1/household/members"
        case .householdFeed: "/api/v1/household/feed"
        case .householdSharing: "/api/v1/household/sharing"
        case .householdLibrary: "/api/v1/household/library"
        case .householdLoans: "/api/v1/household/loans"
        case .householdLoanReturned: "/api/v1/household/loans/:loanID/returned"
        case .householdRecommendations: "/api/v1/household/recommendations"
        case .householdRecommendation: "/api/v1/household/recommendations/:recommendationID"
        case .householdChallenge: "/api/v1/household/challenge"
        case .imports: "/api/v2/imports"
        case .batchEnrich: "/api/batch-enrich"
        case .importStatus: "/api/v2/imports/:jobId"
        case .importStream: "/api/v2/imports/:jobId/stream"
        case .importResults: "/api/v2/imports/:jobId/results"
        case .jobCancel: "/v1/jobs/:jobId"
        case .titleSearch: "/api/v1/titles/search"
        case .titleShelves: "/api/v1/titles/shelves"
        case .titles: "/api/v1/titles"
        case .title: "/api/v1/titles/:id"
        case .titleViewings: "/api/v1/titles/:id/viewings"
        case .titleEpisodes: "/api/v1/titles/:id/episodes"
        case .openAPI: "/api/openapi.yaml"
        case .docs: "/api/docs"
        }
    }

    /// The methods the route answers (HEAD comes with every GET).
    var methods: [HTTPRequest.Method] {
        switch self {
        case .sessions: [.post]
        case .books, .titles, .titleViewings, .titleEpisodes: [.get, .post]
        case .title: [.get, .patch, .delete]
        case .titleSearch, .titleShelves: [.get]
        case .book, .photo: [.get, .patch, .delete]
        case .bookPhotos, .bookProgress, .lists: [.get, .post]
        case .list: [.get, .patch, .delete]
        case .listBooks, .photoTouchUp, .bookStop: [.post]
        case .householdMembers, .householdFeed, .householdLibrary, .householdChallenge: [.get]
        case .householdSharing: [.put]
        case .householdLoans, .householdRecommendations: [.get, .post]
        case .householdLoanReturned: [.post]
        case .householdRecommendation: [.delete]
        case .listBook: [.patch, .delete]
        case .progressEntry: [.patch, .delete]
        case .enrich, .imports, .batchEnrich, .scanBarcode, .scanShelf, .bookReadAgain: [.post]
        case .jobCancel: [.delete]
        case .importStatus, .importStream, .importResults: [.get]
        case .shelves, .shelf, .photoFile, .profile, .quotes, .searchISBN, .searchTitle, .searchAuthor, .openAPI, .docs,
            .searchSimilar, .searchV2, .bookSimilar, .searchAdvanced, .trendingSearches, .recommendations, .series,
            .seriesBooks, .profileYear:
            [.get]
        }
    }

    /// The BooksTrack limit per key (or per address without one), in calls a minute; nil for unlimited routes.
    var callsPerMinute: Int? {
        switch self {
        case .searchISBN, .searchTitle, .searchAuthor, .searchAdvanced: 100
        case .trendingSearches: 30
        // As the BooksTrack backend documents them: the model is the expensive part.
        case .searchSimilar: 10
        case .searchV2: 5
        case .enrich, .imports, .batchEnrich: 5
        case .importStatus, .importStream, .importResults, .jobCancel: 30
        default: nil
        }
    }

    /// The route whose pattern the router matched, as Hummingbird reports it in `endpointPath`.
    init?(endpointPath: String?) {
        guard let endpointPath, let route = Self.byPattern[endpointPath] else { return nil }
        self = route
    }

    private static let byPattern: [String: APIRoute] = Dictionary(
        uniqueKeysWithValues: allCases.map { (RouterPath($0.pattern).description, $0) })

    /// Whether the OpenAPI document describes it (the document and its reference page are not API calls).
    var isDescribed: Bool { self != .openAPI && self != .docs }

    var routerPath: RouterPath { RouterPath(pattern) }

    /// A path to this route with its parameters filled in order, each escaped as one segment.
    func link(_ values: any CustomStringConvertible...) -> String {
        var remaining = values.makeIterator()
        return pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.hasPrefix(":") else { return String(segment) }
            return Paths.pathSegment(remaining.next().map { String(describing: $0) } ?? "")
        }.joined(separator: "/")
    }

    /// The path as OpenAPI spells it: `{name}` for each parameter.
    var openAPIPath: String {
        pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
        }.joined(separator: "/")
    }
}
