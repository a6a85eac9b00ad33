import Foundation
import Hummingbird

/// `POST /api/v2/books/enrich`: the BooksTrack app's single-book enrichment by barcode, answered with the bare
/// EnrichedBookDTO (that app decodes it without the envelope); errors use the envelope.
struct EnrichAPIController: Sendable {
    let search: BookSearchService
    let cache: SearchCache
    static let idempotencyLifetime: TimeInterval = 24 * 60 * 60

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.post(APIRoute.enrich.routerPath, use: enrich)
    }

    struct EnrichRequest: Decodable {
        let barcode: String
        let idempotencyKey: String?
    }

    /// What a request with an idempotency key answered, kept so a repeat gets the same answer.
    struct Remembered: Codable, Sendable {
        let barcode: String
        let book: EnrichedBook
    }

    @Sendable func enrich(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(EnrichRequest.self, from: request)
        guard let isbn = ISBN(body.barcode) else {
            throw BooksTrackError.invalid("barcode must be an ISBN-10 or ISBN-13 (EAN-13 starting 978 or 979).")
        }
        let rememberKey = try body.idempotencyKey.map { key in
            guard (1...128).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw BooksTrackError.invalid("idempotencyKey must be 1 to 128 visible ASCII characters.")
            }
            let client = context.identity?.id.map { "user-\($0)" } ?? context.clientAddress
            return "enrich-idempotency:\(client):\(key)"
        }
        if let rememberKey, let remembered = try await cache.value(Remembered.self, for: rememberKey) {
            guard remembered.barcode == isbn.isbn13 else {
                throw BooksTrackError.invalid(localized("This idempotencyKey was already used for another barcode."))
            }
            return JSONBody.response(remembered.book, headers: [.xCache: "HIT"])
        }
        let (book, cached) = try await search.enrich(isbn: isbn)
        if let rememberKey {
            try await cache.store(
                Remembered(barcode: isbn.isbn13, book: book), for: rememberKey, lifetime: Self.idempotencyLifetime)
        }
        return JSONBody.response(book, headers: [.xCache: cached ? "HIT" : "MISS"])
    }
}
