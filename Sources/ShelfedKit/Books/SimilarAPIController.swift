import Foundation
import Hummingbird

/// `GET /api/v1/books/:id/similar`: "More like this" for Shelfed's own clients, in the reader API's style.
struct SimilarAPIController: Sendable {
    let library: LibraryStore
    /// nil: the server has no model.
    let similar: SimilarBooks?

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.bookSimilar.routerPath, use: list)
    }

    struct SimilarBook: Encodable {
        let title: String
        let author: String
        let isbn: String?
        let imageURL: String?
        let score: Double
        let reasons: [String]
        /// The caller's book id (for `/api/v1/books/:id`) when it is in their library; null when not.
        let bookID: Int64?
        let shelfID: Int?

        enum CodingKeys: String, CodingKey {
            case title, author, isbn, score, reasons
            case imageURL = "image_url"
            case bookID = "book_id"
            case shelfID = "shelf_id"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(title, forKey: .title)
            try container.encode(author, forKey: .author)
            try container.encode(isbn, forKey: .isbn)
            try container.encode(imageURL, forKey: .imageURL)
            try container.encode(score, forKey: .score)
            try container.encode(reasons, forKey: .reasons)
            try container.encode(bookID, forKey: .bookID)
            try container.encode(shelfID, forKey: .shelfID)
        }
    }

    struct Answer: Encodable {
        let books: [SimilarBook]
        let bookCount: Int
        /// `ready`; `waiting` while the book has not been read for meaning yet; `unavailable` without a model.
        let status: String

        enum CodingKeys: String, CodingKey {
            case books, status
            case bookCount = "book_count"
        }
    }

    /// GET /api/v1/books/:id/similar?limit= (1–40, default 8); another person's book id is 404.
    @Sendable func list(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await library.requireEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        var limit = 8
        if let given = FormFields(urlEncoded: request.uri.query ?? "")["limit"] {
            guard let parsed = BoundedNumber.parse(given, in: BoundedNumber.searchLimit) else {
                throw HTTPError(.badRequest, message: "limit must be a whole number from 1 to 40.")
            }
            limit = parsed
        }
        guard let similar else {
            return JSONBody.response(Answer(books: [], bookCount: 0, status: "unavailable"))
        }
        guard let found = try await similar.like(bookID: entry.bookID, userID: context.userID, limit: limit) else {
            return JSONBody.response(Answer(books: [], bookCount: 0, status: "waiting"))
        }
        let books = found.map { match in
            SimilarBook(
                title: match.book.title, author: match.book.authors.joined(separator: ", "),
                isbn: match.book.isbn13 ?? match.book.isbn10, imageURL: match.book.coverPath.map { "/covers/" + $0 },
                score: Double(match.score),
                // Words for the person, in the API's language (the phone's, or their choice in Settings).
                reasons: match.reasons.map(\.phrase),
                bookID: match.shelf == nil ? nil : match.book.id, shelfID: match.shelf?.readerID)
        }
        return JSONBody.response(Answer(books: books, bookCount: books.count, status: "ready"))
    }
}
