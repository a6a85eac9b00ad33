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

/// Accepts only a same-site path as a place to return to (DESIGN §13): it starts with exactly one `/` and holds
/// no backslash, no whitespace and no control character anywhere, because browsers drop tabs and newlines and read
/// `/\t/evil.example` as `//evil.example`. Anything else is nil (callers fall back to `/`).
func safeRelativePath(_ candidate: String?) -> String? {
    guard let candidate, candidate.hasPrefix("/"), !candidate.hasPrefix("//") else { return nil }
    for scalar in candidate.unicodeScalars {
        if scalar == "\\" || scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
            || scalar.properties.generalCategory == .format
        {
            return nil
        }
    }
    return candidate
}
