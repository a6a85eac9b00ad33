import Hummingbird

/// The language of the API's human-readable messages (DESIGN §18; codes and field names stay English): the phone's
/// `Accept-Language`, else the server's default. `APIKeyAuthenticator` then narrows it to the key owner's own choice
/// in Settings, as the pages do. Outside the error middleware, so the messages it writes itself speak it too.
struct APILanguageMiddleware<Context: RequestContext>: RouterMiddleware {
    let fallback: Language

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let language = Language.negotiate(
            chosen: nil, cookie: nil, acceptLanguage: request.headers[.acceptLanguage], fallback: fallback)
        return try await Language.$current.withValue(language) { try await next(request, context) }
    }
}
