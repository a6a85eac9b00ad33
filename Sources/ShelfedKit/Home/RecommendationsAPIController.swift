import Foundation
import Hummingbird

/// `GET /api/v1/recommendations`: "Read next" for Shelfed's own clients — books on the caller's Want-to-read shelf
/// nearest in meaning to what they loved, each with its reasons — in the style of `/api/v1/books/:id/similar`.
struct RecommendationsAPIController: Sendable {
    /// nil: the server has no model.
    let readNext: ReadNext?

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.get(APIRoute.recommendations.routerPath, use: list)
    }

    struct Answer: Encodable {
        let books: [SimilarAPIController.SimilarBook]
        let bookCount: Int
        /// `ready`, or why there is nothing: `nothing_loved`, `nothing_wanted`, `nothing_alike`, `unavailable`.
        let status: String
        /// What to do about an empty list, in words for a person; null when there are books.
        let message: String?

        enum CodingKeys: String, CodingKey {
            case books, status, message
            case bookCount = "book_count"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(books, forKey: .books)
            try container.encode(bookCount, forKey: .bookCount)
            try container.encode(status, forKey: .status)
            try container.encode(message, forKey: .message)
        }

        static func empty(_ status: String, _ message: String) -> Answer {
            Answer(books: [], bookCount: 0, status: status, message: message)
        }
    }

    /// GET /api/v1/recommendations?limit= (1–40, default 8)
    @Sendable func list(_ request: Request, context: APIContext) async throws -> Response {
        var limit = 8
        if let given = FormFields(urlEncoded: request.uri.query ?? "")["limit"] {
            guard let parsed = BoundedNumber.parse(given, in: BoundedNumber.searchLimit) else {
                throw HTTPError(.badRequest, message: "limit must be a whole number from 1 to 40.")
            }
            limit = parsed
        }
        guard let readNext else {
            return JSONBody.response(
                Answer.empty(
                    "unavailable", localized("This server has no model to suggest books with; ask whoever runs it.")))
        }
        let answer: Answer =
            switch try await readNext.suggestions(for: context.userID, limit: limit) {
            case .nothingLoved:
                .empty("nothing_loved", localized("Rate a book you have read 4 or 5 stars, or mark it favourite."))
            case .nothingWanted:
                .empty("nothing_wanted", localized("Put some books on your Want to read shelf."))
            case .nothingAlike:
                .empty(
                    "nothing_alike",
                    localized("Nothing on your Want to read shelf is much like the books you loved yet."))
            case .suggestions(let suggestions):
                Answer(
                    books: suggestions.map { suggestion in
                        SimilarAPIController.SimilarBook(
                            title: suggestion.title, author: suggestion.authors, isbn: suggestion.isbn,
                            imageURL: suggestion.coverPath.map { "/covers/" + $0 }, score: Double(suggestion.score),
                            reasons: suggestion.reasons, bookID: suggestion.bookID,
                            shelfID: Shelf.wantToRead.readerID)
                    }, bookCount: suggestions.count, status: "ready", message: nil)
            }
        return JSONBody.response(answer)
    }
}
