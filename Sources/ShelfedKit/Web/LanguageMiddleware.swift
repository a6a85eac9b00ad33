import Hummingbird

/// Decides the language a request is answered in (issue 39) and answers it inside `Language.current`: the signed-in
/// person's choice, else the one chosen on a signed-out page (a cookie), else the browser's `Accept-Language`, else
/// the server's default. After the session, so the person is known; before the error pages, so they speak it too.
struct LanguageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "shelfed_language"
    let fallback: Language

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let language = Language.negotiate(
            chosen: context.identity?.language,
            cookie: request.cookie(named: Self.cookieName).flatMap { Language(rawValue: String($0)) },
            acceptLanguage: request.headers[.acceptLanguage], fallback: fallback)
        return try await Language.$current.withValue(language) { try await next(request, context) }
    }
}
