import Foundation
import Hummingbird

/// POST /language (issue 39): the language switch. Signed in, it is the person's setting (an empty choice follows
/// the browser again); signed out — the sign-in and sign-up pages — it is kept in a cookie for this browser. Either
/// way the person goes back to the page they were on.
struct LanguageController: Sendable {
    let users: UserStore
    static let cookieAge = 60 * 60 * 24 * 365

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post(Route.language.routerPath, use: choose)
    }

    @Sendable func choose(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let form = try await request.formFields()
        let typed = form["language"] ?? ""
        let language = Language(rawValue: typed)
        guard language != nil || typed.isEmpty else {
            throw AppError.invalid(localized("Choose one of the languages listed."), field: "language")
        }
        // The switch on a signed-out page sends no `back`: the page it was on is the one the browser names.
        let back = safeRelativePath(form["back"]) ?? Self.referringPath(request) ?? Paths.home
        var response = Response.seeOther(back)
        if let userID = context.identity?.id {
            try await users.setLanguage(id: userID, language: language)
        }
        // Kept for this browser too, so the sign-in page after signing out speaks it.
        response.setCookie(
            Cookie(
                name: LanguageMiddleware.cookieName, value: language?.rawValue ?? "",
                maxAge: language == nil ? 0 : Self.cookieAge, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }

    /// The path (and query) of the `Referer`, when it is one of this server's pages; nil otherwise.
    static func referringPath(_ request: Request) -> String? {
        guard let referer = request.headers[.referer], referer.utf8.count <= 2_000,
            let components = URLComponents(string: referer), !components.path.isEmpty
        else { return nil }
        let path = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        return safeRelativePath(path)
    }
}
