import Hummingbird
import HummingbirdAuth
import NIOCore

/// The context of every route behind sign-in: the user is there, not optional, so handlers read
/// `context.user` and `context.userID` instead of unwrapping. Made from `AppRequestContext` by the router group
/// after `LoginRedirectMiddleware` has sent anyone not signed in to the sign-in page.
public struct SignedInContext: ChildRequestContext, PageContext {
    public typealias ParentContext = AppRequestContext
    public var coreContext: CoreRequestContextStorage
    public let user: User
    public let userID: Int64
    public let csrfToken: String
    public let sessions: SessionContext<UserSession>
    public let channel: any Channel
    public let waitingForYou: Int

    public init(context: AppRequestContext) throws {
        guard let user = context.identity, let id = user.id else { throw HTTPError(.unauthorized) }
        self.coreContext = context.coreContext
        self.user = user
        self.userID = id
        self.csrfToken = context.csrfToken
        self.sessions = context.sessions
        self.channel = context.channel
        self.waitingForYou = context.waitingForYou
    }

    public var signedInName: String? { user.displayName }
}

/// What a page's chrome needs from any request context, signed in or not.
public protocol PageContext {
    var csrfToken: String { get }
    /// The display name of whoever is signed in; nil on the sign-in and register pages.
    var signedInName: String? { get }
    /// How many things wait for the signed-in person: the count in the header.
    var waitingForYou: Int { get }
}

extension AppRequestContext: PageContext {
    public var signedInName: String? { identity?.displayName }
}
