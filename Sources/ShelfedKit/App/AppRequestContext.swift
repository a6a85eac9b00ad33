import Hummingbird
import HummingbirdAuth
import NIOCore

/// Per-request state: the signed-in user, their session, the CSRF token for forms and the client address.
public struct AppRequestContext: AuthRequestContext, SessionRequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var identity: User?
    public let sessions: SessionContext<UserSession>
    /// Set by `CSRFMiddleware` before any handler runs; every form embeds it as `_csrf`.
    public var csrfToken: String
    public let remoteAddress: SocketAddress?
    /// The request's connection, for the answers that must end it (a refused live stream).
    public let channel: any Channel
    /// What waits for the signed-in person (`ForYouStore`), counted by `ForYouCountMiddleware` for a page's header.
    public var waitingForYou = 0

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.identity = nil
        self.sessions = .init()
        self.csrfToken = ""
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }

    /// A short description of the client for throttling, stable for one address.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}

/// What the session cookie stands for: the user's id and the session's CSRF token; everything else is read fresh.
public struct UserSession: Codable, Sendable {
    public let userID: Int64
    /// Nil only in sessions made before tokens were kept here; `CSRFMiddleware` gives those one.
    public var csrfToken: String?

    /// A new session for `userID` with a fresh CSRF token (a sign-in never keeps the token it came with).
    public init(userID: Int64) {
        self.userID = userID
        self.csrfToken = CSRFMiddleware.makeToken()
    }
}
