import Foundation
import HTTPTypes
import Hummingbird

/// Double-submit CSRF protection: a random token lives in an HttpOnly, SameSite=Lax cookie and every
/// state-changing form repeats it in `_csrf`. A POST whose field does not match answers 403 and reaches no handler.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "shelfed_csrf"
    static let fieldName = "_csrf"
    static let headerName = HTTPField.Name("X-CSRF-Token")!
    /// Forms are small; a body larger than this is not a form Shelfed renders.
    static let maxFormBytes = 1024 * 1024

    let secureCookies: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var request = request
        var context = context
        let existing = request.cookies[Self.cookieName].map { String($0.value) }.flatMap {
            Self.isWellFormed($0) ? $0 : nil
        }
        let token = existing ?? Self.makeToken()
        context.csrfToken = token

        if Self.isStateChanging(request.method), !request.uri.path.hasPrefix("/api/"), !Self.isMultipart(request) {
            let submitted = try await submittedToken(in: &request)
            guard let submitted, existing != nil, Self.constantTimeEquals(submitted, token) else {
                throw HTTPError(
                    .forbidden,
                    message: "This form has expired or was not sent from Shelfed. Go back, reload the page and try again."
                )
            }
        }

        var response = try await next(request, context)
        if existing == nil {
            response.setCookie(
                Cookie(
                    name: Self.cookieName, value: token, maxAge: 60 * 60 * 24 * 30, path: "/",
                    secure: secureCookies, httpOnly: true, sameSite: .lax))
        }
        return response
    }

    /// Reads `_csrf` from a URL-encoded body (the body stays available to the handler) or the header.
    private func submittedToken(in request: inout Request) async throws -> String? {
        if let header = request.headers[Self.headerName] { return header }
        guard let contentType = request.headers[.contentType],
            contentType.lowercased().hasPrefix("application/x-www-form-urlencoded")
        else { return nil }
        let body = try await request.collectBody(upTo: Self.maxFormBytes)
        let fields = FormFields(urlEncoded: String(buffer: body))
        return fields[Self.fieldName]
    }

    /// Upload routes stream their body, so they check `_csrf` themselves as its first part, before reading
    /// any file (`Request.receiveMultipart`). A multipart body sent anywhere else gets the usual check.
    static func isMultipart(_ request: Request) -> Bool {
        let path = request.uri.path
        let isUploadRoute = path == Paths.avatar || (path.hasPrefix("/books/") && path.hasSuffix("/photos"))
        return isUploadRoute && request.headers[.contentType]?.lowercased().hasPrefix("multipart/form-data") == true
    }

    static func isStateChanging(_ method: HTTPRequest.Method) -> Bool {
        method == .post || method == .put || method == .patch || method == .delete
    }

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
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
