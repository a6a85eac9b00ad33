import Foundation
import HTTPTypes
import Hummingbird

/// CSRF protection (DESIGN §13). A signed-in person's token lives in their server-side session: it is made
/// fresh at every sign-in and a token from anyone else's session is worth nothing here. Before sign-in (the
/// sign-in and register forms) the token is kept in an HttpOnly, SameSite=Lax cookie and repeated in the form.
/// Every state-changing form sends it as `_csrf`; a POST whose field does not match answers 403 and reaches
/// no handler. Upload routes check it themselves as the first part of their streamed body.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "shelfed_csrf"
    static let fieldName = "_csrf"
    static let headerName = HTTPField.Name("X-CSRF-Token")!
    /// Forms are small; a body larger than this is not a form Shelfed renders.
    static let maxFormBytes = 1024 * 1024

    let secureCookies: Bool

    /// Gives the request its token (for the forms of the page, error pages included) and sets the cookie that
    /// carries it before sign-in. The check itself is `Check`, placed after the error pages.
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        // API paths never accept or set cookies (DESIGN §6); the matched ones do not even come through here.
        if APIRoute.isAPIPath(request.uri.path) { return try await next(request, context) }
        var context = context
        let expected = Self.expectedToken(request, context: context)
        if context.identity != nil && context.sessions.session != nil {
            // A session from before tokens lived in sessions gets one now; it is saved with the session.
            context.csrfToken =
                expected
                ?? context.sessions.withLockedSession { data in
                    let token = Self.makeToken()
                    data?.csrfToken = token
                    return token
                }
            return try await next(request, context)
        }
        context.csrfToken = expected ?? Self.makeToken()
        var response: Response
        do {
            response = try await next(request, context)
        } catch var error as HTTPError where expected == nil {
            // Even an error page's forms need the cookie that makes their token count.
            error.headers.append(.init(name: .setCookie, value: cookie(context.csrfToken).description))
            throw error
        }
        if expected == nil { response.setCookie(cookie(context.csrfToken)) }
        return response
    }

    private func cookie(_ token: String) -> Cookie {
        Cookie(
            name: Self.cookieName, value: token, maxAge: 60 * 60 * 24 * 30, path: "/", secure: secureCookies,
            httpOnly: true, sameSite: .lax)
    }

    /// The token a form must carry: the session's when signed in, the cookie's before. Nil when there is none
    /// yet, and then no form can be accepted.
    static func expectedToken(_ request: Request, context: Context) -> String? {
        let token: String?
        if context.identity != nil, let session = context.sessions.session {
            token = session.csrfToken
        } else {
            token = request.cookie(named: cookieName).map(String.init)
        }
        return token.flatMap { isWellFormed($0) ? $0 : nil }
    }

    /// Refuses a state-changing form whose `_csrf` is not the expected token: 403, and no handler runs.
    struct Check: RouterMiddleware {
        typealias Context = AppRequestContext

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
            async throws -> Response
        {
            var request = request
            if CSRFMiddleware.isStateChanging(request.method), !APIRoute.isAPIPath(request.uri.path),
                !CSRFMiddleware.isStreamedUpload(request, context: context)
            {
                let submitted = try await CSRFMiddleware.submittedToken(in: &request)
                guard let submitted, let expected = CSRFMiddleware.expectedToken(request, context: context),
                    CSRFMiddleware.constantTimeEquals(submitted, expected)
                else {
                    throw HTTPError(
                        .forbidden,
                        message:
                            "This form has expired or was not sent from Shelfed. Go back, reload the page and try again."
                    )
                }
            }
            return try await next(request, context)
        }
    }

    /// Reads `_csrf` from a URL-encoded body (the body stays available to the handler) or the header.
    static func submittedToken(in request: inout Request) async throws -> String? {
        if let header = request.headers[Self.headerName] { return header }
        guard let contentType = request.headers[.contentType],
            contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else { return nil }
        let body = try await request.collectBody(upTo: Self.maxFormBytes)
        let fields = FormFields(urlEncoded: String(buffer: body))
        return fields[Self.fieldName]
    }

    /// Upload routes stream their body, so they check `_csrf` themselves as its first part, before reading
    /// any file (`Request.receiveMultipart`). Which routes those are is a fact of the matched `Route`; a multipart
    /// body sent anywhere else gets the usual check.
    static func isStreamedUpload(_ request: Request, context: Context) -> Bool {
        Route(endpointPath: context.endpointPath)?.takesStreamedUpload == true
            && request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
    }

    static func isStateChanging(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    static func makeToken() -> String {
        RandomHex.secret(byteCount: 32)
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Compares every byte so the time taken does not reveal how much of a guess was right.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
