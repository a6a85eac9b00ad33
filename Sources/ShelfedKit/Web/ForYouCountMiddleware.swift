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
        if request.method == .get, let userID = context.identity?.id, !path.hasPrefix("/static/"),
            !path.hasPrefix("/api/"), !path.hasPrefix("/v1/")
        {
            context.waitingForYou = (try? await store.count(for: userID)) ?? 0
        }
        return try await next(request, context)
    }
}
