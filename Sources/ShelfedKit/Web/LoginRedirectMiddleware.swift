import Hummingbird

/// Sends visitors who are not signed in to `/login?next=…`, so they land back where they were going.
struct LoginRedirectMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard context.identity == nil else { return try await next(request, context) }
        // A POST cannot be replayed after login, so it returns to the page instead of the form action.
        let target = request.method == .get ? request.uri.description : "/"
        return .seeOther(Paths.login(next: target))
    }
}

/// Accepts only same-site relative paths as a place to return to, so `next` cannot send anyone elsewhere.
func safeRelativePath(_ candidate: String?) -> String? {
    guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.hasPrefix("/\\"),
        !candidate.contains("\n"), !candidate.contains("\r")
    else { return nil }
    return candidate
}
