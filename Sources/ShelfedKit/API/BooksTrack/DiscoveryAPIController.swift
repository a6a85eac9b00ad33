import Foundation
import Hummingbird

/// The BooksTrack app's discovery calls (DESIGN §6): similar books by ISBN and search by meaning, in the envelope
/// title search uses, over the catalog rows the caller may discover (`CatalogVisibility`: theirs and those of members
/// who share; nothing without a key).
/// Without a model they answer from keywords and say so in `data.mode`; never a 5xx for want of one.
struct DiscoveryAPIController: Sendable {
    let search: BookSearchService
    let meaning: MeaningSearch
    let similar: SimilarBooks
    /// A caller with a key has their searches kept for their trending searches.
    let history: SearchHistory
    let now: @Sendable () -> Date

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get(APIRoute.searchSimilar.routerPath, use: similarByISBN)
        router.get(APIRoute.searchV2.routerPath, use: searchV2)
    }

    /// A book with how well it matched.
    struct ScoredBook: Encodable {
        let book: BookDTO
        let score: Double?

        func encode(to encoder: any Encoder) throws {
            try book.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(score, forKey: .score)
        }

        enum Key: String, CodingKey { case score }
    }

    struct Ranked: Encodable {
        let books: [ScoredBook]
        let totalItems: Int
        let mode: String
        let query: String
    }

    /// GET /v1/search/similar?isbn=&limit=
    @Sendable func similarByISBN(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = SearchAPIController.query(of: request)
        guard let text = query["isbn"], let isbn = ISBN(text) else {
            throw BooksTrackError.invalid("isbn must be a valid ISBN-10 or ISBN-13.")
        }
        let limit = try Self.number(query["limit"], in: BoundedNumber.searchLimit, default: 10, name: "limit")
        let userID = context.identity?.id
        guard let bookID = try await meaning.embeddings.catalogBook(isbn13: isbn.isbn13, visibleTo: userID) else {
            throw BooksTrackError(
                code: .notFound,
                message: localized("This server knows no book with the ISBN {{isbn}}.", ["isbn": isbn.isbn13]),
                retryable: false)
        }
        let found = meaning.embedder == nil ? nil : try await similar.like(bookID: bookID, userID: userID, limit: limit)
        let books = (found ?? []).map { ScoredBook(book: BookDTO(book: $0.book), score: Double($0.score)) }
        return Self.respond(
            Ranked(books: books, totalItems: books.count, mode: found == nil ? "text" : "semantic", query: isbn.isbn13))
    }

    /// GET /api/v2/search?q=|query=&mode=text|semantic|hybrid&limit=&offset=
    @Sendable func searchV2(_ request: Request, context: AppRequestContext) async throws -> Response {
        let query = SearchAPIController.query(of: request)
        let text = (query["q"] ?? query["query"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw BooksTrackError.invalid("q is required: what to search for.") }
        guard text.unicodeScalars.count <= SearchRequest.maxTextLength else {
            throw BooksTrackError.invalid("q can be at most \(SearchRequest.maxTextLength) characters.")
        }
        let asked = query["mode"] ?? "hybrid"
        guard ["text", "semantic", "hybrid"].contains(asked) else {
            throw BooksTrackError.invalid("mode must be text, semantic or hybrid.")
        }
        let limit = try Self.number(query["limit"], in: BoundedNumber.searchLimit, default: 20, name: "limit")
        let offset = try Self.number(query["offset"], in: BoundedNumber.searchStart, default: 0, name: "offset")
        if let userID = context.identity?.id, offset == 0 { try await history.record(text, userID: userID, now: now()) }
        if asked != "text",
            let (total, matches) = try await meaning.catalog(
                userID: context.identity?.id, matching: text, hybrid: asked == "hybrid", limit: limit, offset: offset)
        {
            let books = matches.map { ScoredBook(book: BookDTO(book: $0.book), score: Double($0.score)) }
            return Self.respond(Ranked(books: books, totalItems: total, mode: asked, query: text))
        }
        if asked != "text" {
            // No model: the server's own books by their words, with no network and no score.
            let (total, books) = try await meaning.catalogByWords(
                userID: context.identity?.id, matching: text, limit: limit, offset: offset)
            return Self.respond(
                Ranked(
                    books: books.map { ScoredBook(book: BookDTO(book: $0), score: nil) }, totalItems: total,
                    mode: "text",
                    query: text))
        }
        // Keywords, asked for: the providers' search, as /v1/search/title answers it; no score to give.
        let answer = try await search.search(SearchRequest(text: text, field: .all, startIndex: offset))
        let books = answer.results.items.prefix(limit).map { ScoredBook(book: BookDTO($0), score: nil) }
        let provider = answer.results.items.first?.provider ?? .googleBooks
        return Self.respond(
            Ranked(
                books: Array(books), totalItems: max(answer.results.totalItems, books.count), mode: "text", query: text),
            metadata: EnvelopeMetadata(source: answer.cached ? "cache" : provider.rawValue, cached: answer.cached))
    }

    private static func number(_ text: String?, in range: ClosedRange<Int>, default value: Int, name: String) throws
        -> Int
    {
        guard let text else { return value }
        guard let parsed = BoundedNumber.parse(text, in: range) else {
            throw BooksTrackError.invalid(
                "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return parsed
    }

    /// Answers ranked from the server's own stored books come, in the envelope's words, from its cache.
    private static func respond(
        _ data: Ranked, metadata: EnvelopeMetadata = EnvelopeMetadata(source: "cache", cached: true)
    ) -> Response {
        JSONBody.response(Envelope(data: data, metadata: metadata), headers: [.cacheControl: "private, max-age=0"])
    }
}
