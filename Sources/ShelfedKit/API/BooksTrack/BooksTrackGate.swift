import Foundation
import Hummingbird

/// Who may call the BooksTrack search and enrich endpoints without a key (`SHELFED_API_SEARCH`).
public enum APISearchAccess: String, Sendable {
    /// Loopback and private-network addresses only (the default: the household's own devices).
    case lan
    /// Every call needs an API key.
    case key
    /// Anyone who can reach the server.
    case open
}

/// In front of the BooksTrack routes: an API key is checked when one is sent; a keyless call is let in per
/// `SHELFED_API_SEARCH`; then each person (or address, without a key) gets the route's calls per minute (DESIGN §6).
struct BooksTrackGate: RouterMiddleware {
    typealias Context = AppRequestContext
    let access: APISearchAccess
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        if context.identity == nil {
            let address = context.remoteAddress?.ipAddress
            let allowed = access == .open || (access == .lan && address.map(NetworkAddress.isLocal) == true)
            guard allowed else {
                var error = BooksTrackError.invalid(
                    localized("This server asks for an API key: send it as \"Authorization: Bearer <key>\"."))
                error.statusOverride = .unauthorized
                throw error
            }
        }
        if let limit = APIRoute(endpointPath: context.endpointPath)?.callsPerMinute {
            // Per person, not per key (issue 35): every sign-in makes a new key, and a budget per key was a fresh
            // budget per sign-in. Two phones of one person share one; a keyless caller is counted by address.
            let client = context.identity?.id.map { "user-\($0)" } ?? context.clientAddress
            let route = context.endpointPath ?? ""
            if let wait = await limiter.admit("\(route) \(client)", limit: limit) {
                throw BooksTrackError(
                    code: .rateLimitExceeded,
                    message: localized(
                        one: "Too many requests: at most {{count}} a minute. Wait a moment and try again.",
                        other: "Too many requests: at most {{count}} a minute. Wait a moment and try again.",
                        count: limit),
                    retryable: true, retryAfterMs: wait)
            }
        }
        return try await next(request, context)
    }
}

/// Whether an address belongs to this machine or a private network.
enum NetworkAddress {
    static func isLocal(_ address: String) -> Bool {
        var text = address.lowercased()
        if text.hasPrefix("::ffff:"), text.contains(".") { text.removeFirst(7) }
        if text == "::1" { return true }
        if text.contains(":") {
            // fc00::/7 (unique local) and fe80::/10 (link-local).
            return text.hasPrefix("fc") || text.hasPrefix("fd") || text.hasPrefix("fe8") || text.hasPrefix("fe9")
                || text.hasPrefix("fea") || text.hasPrefix("feb")
        }
        let parts = text.split(separator: ".").compactMap { UInt8($0) }
        guard parts.count == 4 else { return false }
        switch (parts[0], parts[1]) {
        case (127, _), (10, _), (192, 168), (169, 254): return true
        case (172, let second): return (16...31).contains(second)
        default: return false
        }
    }
}
