import Foundation
import Hummingbird

/// The BooksTrack app's search (DESIGN §6): `/v1/search/isbn|title|author` in its envelope, over the same search
/// service as the pages (cache, coalescing, retries, breakers, Open Library fallback).
struct SearchAPIController: Sendable {
    let search: BookSearchService

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get(APIRoute.searchISBN.routerPath, use: isbn)
        router.get(APIRoute.searchTitle.routerPath, use: title)
        router.get(APIRoute.searchAuthor.routerPath, use: author)
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
            throw BooksTrackError(code: .notFound, message: "No book has the ISBN \(isbn.isbn13).", retryable: false)
        }
        return Self.respond(
            BookDTO(volume), answer: answer, provider: volume.provider, maxAge: BookSearchService.isbnLifetime)
    }

    /// GET /v1/search/title?q=&limit=
    @Sendable func title(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await list(request, field: .title)
    }

    /// GET /v1/search/author?q=&limit=
    @Sendable func author(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await list(request, field: .author)
    }

    private func list(_ request: Request, field: SearchRequest.Field) async throws -> Response {
        let query = Self.query(of: request)
        let text = query["q"] ?? ""
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw BooksTrackError.invalid("q is required: the \(field.rawValue) to search for.")
        }
        guard text.unicodeScalars.count <= SearchRequest.maxTextLength else {
            throw BooksTrackError.invalid("q can be at most \(SearchRequest.maxTextLength) characters.")
        }
        var limit = 20
        if let given = query["limit"] {
            guard let parsed = BoundedNumber.parse(given, in: BoundedNumber.searchLimit) else {
                throw BooksTrackError.invalid("limit must be a whole number from 1 to 40.")
            }
            limit = parsed
        }
        var answer = try await search.search(SearchRequest(text: text, field: field))
        var items = answer.results.items
        // Google answers 20 at a time; a larger limit takes the next page too.
        if limit > items.count, items.count == GoogleBooksClient.pageSize, answer.results.totalItems > items.count {
            let next = try await search.search(SearchRequest(text: text, field: field, startIndex: items.count))
            items += next.results.items
            answer = SearchAnswer(results: answer.results, cached: answer.cached && next.cached)
        }
        let books = items.prefix(limit).map(BookDTO.init)
        let provider = items.first?.provider ?? .googleBooks
        return Self.respond(
            BookList(books: books, totalItems: max(answer.results.totalItems, books.count)), answer: answer,
            provider: provider, maxAge: BookSearchService.queryLifetime)
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
