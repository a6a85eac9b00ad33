import Foundation
import Hummingbird

/// Did not finish for Shelfed's own clients: `POST /api/v1/books/:id/did-not-finish` puts the book on the fourth
/// status (if it is not there yet) with an optional reason, as the book page does; the answer says when and where
/// the person stopped. The Reader API's `PATCH shelf_id: 4` moves the book without a reason.
struct DidNotFinishAPIController: Sendable {
    let library: LibraryStore
    let clock: AppClock

    func addRoutes(to router: RouterGroup<APIContext>) {
        router.post(APIRoute.bookStop.routerPath, use: stop)
    }

    struct Body: Decodable, Sendable {
        let reason: String?
    }

    struct Stopped: Encodable {
        let bookID: Int64
        let stoppedAt: String?
        let page: Int?
        let percent: Double?
        let reason: String?

        enum CodingKeys: String, CodingKey {
            case page, percent, reason
            case bookID = "book_id"
            case stoppedAt = "stopped_at"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(bookID, forKey: .bookID)
            try container.encode(stoppedAt, forKey: .stoppedAt)
            try container.encode(page, forKey: .page)
            try container.encode(percent, forKey: .percent)
            try container.encode(reason, forKey: .reason)
        }
    }

    /// POST /api/v1/books/:id/did-not-finish `{"reason": …}`
    @Sendable func stop(_ request: Request, context: APIContext) async throws -> Response {
        let entry = try await library.requireBookEntry(
            bookID: BoundedNumber.id(context.parameters.get("id")), of: context.userID)
        let body = try await JSONBody.decode(Body.self, from: request)
        let reason = body.reason?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if let problem = DidNotFinishController.problem(with: reason) {
            throw HTTPError(.unprocessableContent, message: problem)
        }
        let bookID = entry.bookID
        _ = try await library.stop(
            bookID: bookID, for: context.userID, reason: reason.isEmpty ? nil : reason, now: clock.now(),
            today: clock.today())
        let stopped = try await library.requireEntry(bookID: bookID, of: context.userID).userBook
        return JSONBody.response(
            Stopped(
                bookID: bookID, stoppedAt: stopped.stoppedAt, page: stopped.currentPage,
                percent: stopped.currentPercent, reason: stopped.stopReason))
    }
}
