import Hummingbird
import HummingbirdAuth

/// The context of every API route that needs a key: `APIKeyAuthenticator` has found the key's owner, so the
/// user is not optional. A request without a usable key never reaches a handler: it is answered 401 here.
public struct APIContext: ChildRequestContext {
    public typealias ParentContext = AppRequestContext
    public var coreContext: CoreRequestContextStorage
    public let user: User
    public let userID: Int64
    public let clientAddress: String

    public init(context: AppRequestContext) throws {
        guard let user = context.identity, let id = user.id else {
            throw HTTPError(
                .unauthorized, headers: [.wwwAuthenticate: "Bearer"],
                message: localized("An API key is required: send it as \"Authorization: Bearer <key>\"."))
        }
        self.coreContext = context.coreContext
        self.user = user
        self.userID = id
        self.clientAddress = context.clientAddress
    }
}
