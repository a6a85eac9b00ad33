import Foundation
import Hummingbird

/// `GET /api/v2/trending-searches?limit=` (DESIGN §6): the bare `{"trendingSearches", "generatedAt"}` the BooksTrack
/// app decodes, from the caller's own searches of the last 7 days. A keyless caller has no searches of its own, so
/// it gets an empty list; the household's shared trends wait for the household issue.
struct TrendingAPIController: Sendable {
    let history: SearchHistory
    let now: @Sendable () -> Date

    func addRoutes(to router: RouterGroup<AppRequestContext>) {
        router.get(APIRoute.trendingSearches.routerPath, use: trending)
    }

    struct Trending: Encodable {
        struct Search: Encodable {
            let query: String
            let searchCount: Int
        }

        let trendingSearches: [Search]
        let generatedAt: Date
    }

    static let limits = 1...50

    @Sendable func trending(_ request: Request, context: AppRequestContext) async throws -> Response {
        var limit = 12
        if let given = SearchAPIController.query(of: request)["limit"] {
            guard let parsed = BoundedNumber.parse(given, in: Self.limits) else {
                throw BooksTrackError.invalid("limit must be a whole number from 1 to 50.")
            }
            limit = parsed
        }
        let now = now()
        let trends =
            if let userID = context.identity?.id {
                try await history.trending(of: userID, now: now, limit: limit)
            } else {
                [SearchHistory.Trend]()
            }
        return JSONBody.response(
            Trending(
                trendingSearches: trends.map { .init(query: $0.query, searchCount: $0.count) },
                // Whole seconds: the app's ISO-8601 decoder reads no fractions.
                generatedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))),
            headers: [.cacheControl: "private, max-age=0"])
    }
}
