import Hummingbird

/// Counts what waits for the signed-in person (`ForYouStore`) for the header of the page they asked for (issue 36,
/// part 5): once per page — a GET that is neither an asset nor the API — after the session has named them. A count
/// that cannot be read leaves the header without one rather than failing the page.
struct ForYouCountMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let store: ForYouStore

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let path = request.uri.path
        if request.method == .get, let userID = context.identity?.id, Self.isPage(path) {
            context.waitingForYou = (try? await store.count(for: userID)) ?? 0
        }
        return try await next(request, context)
    }

    /// Whether `path` may be a page: not an asset, a cover, a photo's file (a shelf page asks for dozens of those) or
    /// the API.
    static func isPage(_ path: String) -> Bool {
        for prefix in ["/static/", "/covers/", "/api/", "/v1/"] where path.hasPrefix(prefix) { return false }
        if path.contains("/photos/"), let last = path.split(separator: "/").last,
            Paths.PhotoVariant(rawValue: String(last)) != nil
        {
            return false
        }
        return true
    }
}
