import HTTPTypes
import Hummingbird

/// Headers on every answer that keep a future escaping slip from running script (DESIGN §13): no inline script
/// or style, nothing framed, no content sniffing, and no page address sent to other sites.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    static var referrerPolicy: HTTPField.Name { HTTPField.Name("Referrer-Policy")! }

    /// Search results show Google's cover thumbnails (`https:`); the upload page previews the chosen photo from a
    /// `blob:` the page made itself; everything else comes from Shelfed itself.
    static var contentSecurityPolicy: String {
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https: data: blob:; "
            + "object-src 'none'; "
            + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.contentSecurityPolicy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[Self.referrerPolicy] = "same-origin"
        return response
    }
}
