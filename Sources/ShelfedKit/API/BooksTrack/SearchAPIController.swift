import Foundation
import Hummingbird

/// The BooksTrack app's search (DESIGN §6): `/v1/search/isbn|title|author` in its envelope, over the same search
/// service as the pages (cache, coalescing, retries, breakers, Open Library fallback).
struct SearchAPIController: Sendable {
    let search: BookSearchService
    /// A caller with a key has their searches kept for their trending searches.
    let history: SearchHistory
    let now: @Sendable () -> Date

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get(APIRoute.searchISBN.routerPath, use: isbn)
        router.get(APIRoute.searchTitle.routerPath, use: title)
        router.get(APIRoute.searchAuthor.routerPath, use: author)
        router.get(APIRoute.searchAdvanced.routerPath, use: advanced)
    }

    struct BookList: Encodable {
        let books: [BookDTO]
        let totalItems: Int
    }

    /// GET /v1/search/isbn?isbn=
    @Sendable func isbn(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let text = Self.query(of: request)["isbn"], let isbn = ISBN(text) else {
            throw BooksTrackError.invalid("isbn must be a valid ISBN-10 or ISBN-13.")
        }
        let answer = try await search.lookup(isbn: isbn)
        guard let volume = answer.results.items.first else {
            throw BooksTrackError(
                code: .notFound, message: localized("No book has the ISBN {{isbn}}.", ["isbn": isbn.isbn13]),
                retryable: false)
        }
        return Self.respond(
            BookDTO(volume), answer: answer, provider: volume.provider, maxAge: BookSearchService.isbnLifetime)
    }

    /// GET /v1/search/title?q=&limit=
    @Sendable func title(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await list(request, field: .title, context: context)
    }

    /// GET /v1/search/author?q=&limit=
    @Sendable func author(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await list(request, field: .author, context: context)
    }

    private func list(_ request: Request, field: SearchRequest.Field, context: AppRequestContext) async throws
        -> Response
    {
        let query = Self.query(of: request)
        guard let text = try Self.text(query["q"], name: "q") else {
            throw BooksTrackError.invalid("q is required: the \(field.rawValue) to search for.")
        }
        let limit = try Self.limit(query)
        if let userID = context.identity?.id { try await history.record(text, userID: userID, now: now()) }
        return try await respondWithPages(limit: limit) { start in
            try await search.search(SearchRequest(text: text, field: field, startIndex: start))
        }
    }

    /// Google answers 20 at a time; a larger limit takes the next page too.
    func respondWithPages(limit: Int, _ page: (Int) async throws -> SearchAnswer) async throws -> Response {
        var answer = try await page(0)
        var items = answer.results.items
        if limit > items.count, items.count == GoogleBooksClient.pageSize, answer.results.totalItems > items.count {
            let next = try await page(items.count)
            items += next.results.items
            answer = SearchAnswer(results: answer.results, cached: answer.cached && next.cached)
        }
        let books = items.prefix(limit).map(BookDTO.init)
        let provider = items.first?.provider ?? .googleBooks
        return Self.respond(
            BookList(books: books, totalItems: max(answer.results.totalItems, books.count)), answer: answer,
            provider: provider, maxAge: BookSearchService.queryLifetime)
    }

    /// A query parameter trimmed; nil when absent or blank; 400 when longer than a provider query may be.
    static func text(_ value: String?, name: String) throws -> String? {
        guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return nil }
        guard value.unicodeScalars.count <= SearchRequest.maxTextLength else {
            throw BooksTrackError.invalid("\(name) can be at most \(SearchRequest.maxTextLength) characters.")
        }
        return value
    }

    /// `limit`: 1–40, 20 when not given.
    static func limit(_ query: FormFields) throws -> Int {
        guard let given = query["limit"] else { return 20 }
        guard let parsed = BoundedNumber.parse(given, in: BoundedNumber.searchLimit) else {
            throw BooksTrackError.invalid("limit must be a whole number from 1 to 40.")
        }
        return parsed
    }

    /// The query string as a form would send it: `+` is a space (apps and browsers both send it so).
    static func query(of request: Request) -> FormFields {
        FormFields(urlEncoded: request.uri.query ?? "")
    }

    static func respond(
        _ data: some Encodable, answer: SearchAnswer, provider: VolumeResult.Provider, maxAge: TimeInterval
    ) -> Response {
        let metadata = EnvelopeMetadata(source: answer.cached ? "cache" : provider.rawValue, cached: answer.cached)
        return JSONBody.response(
            Envelope(data: data, metadata: metadata),
            headers: [.xCache: answer.cached ? "HIT" : "MISS", .cacheControl: "private, max-age=\(Int(maxAge))"])
    }
}
