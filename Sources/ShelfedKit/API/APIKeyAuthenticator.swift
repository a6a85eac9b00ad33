import Foundation
import Hummingbird

/// Finds the owner of the API key a request carries, as `Authorization: Bearer <key>` or, as the Reader app
/// sends it, `?api_key=<key>&user_id=<id>` (the id must be the key's owner). A request without a key goes on
/// without a user; one with a wrong, revoked or mismatched key is answered 401 at once. The rest of the request
/// speaks the owner's chosen language, when they chose one.
struct APIKeyAuthenticator: RouterMiddleware {
    typealias Context = AppRequestContext
    let keys: APIKeyStore
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard let presented = Self.presentedKey(in: request) else { return try await next(request, context) }
        guard let user = try await keys.user(forKey: presented.key, now: now()),
            presented.userID == nil || presented.userID == user.id.map(String.init)
        else {
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                message: localized(
                    "That API key is not valid. It may have been revoked; sign in again to get a new one."))
        }
        var context = context
        context.identity = user
        guard let chosen = user.language else { return try await next(request, context) }
        return try await Language.$current.withValue(chosen) { try await next(request, context) }
    }

    static func presentedKey(in request: Request) -> (key: String, userID: String?)? {
        if let authorization = request.headers[.authorization] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "bearer" {
                return (String(parts[1].trimmingCharacters(in: .whitespaces)), nil)
            }
        }
        let query = request.uri.queryParameters
        if let key = query["api_key"] {
            return (String(key), query["user_id"].map(String.init))
        }
        return nil
    }
}
